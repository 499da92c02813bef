import type { SchoolFamily } from '@/domain/menus/access';
import { useMemo, useState } from 'react';
import { KeyRound, ShieldOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { enumOptions } from '@/domain/presentation';
import { DEVICE_KIND_TABLE, DEVICE_STATUS_TABLE, deviceListQuery, deviceSaveSchema, type DeviceForm, type DeviceRow, type DeviceStatus } from '@/domain/venue/devices';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { DictionaryField } from '@/components/form/dictionary-field';
import { FieldGroup, RadioField, SelectField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import type { DeviceCredential } from '@/domain/activities/ingest';
import { devices, exportDevices, useDeviceOptions, useDeviceSecretWrites } from '../api';
import { DeviceSecretDialog } from './device-secret-dialog';
import { useDateTime } from '@/lib/date-time';

type Filters = { keyword?: string; status?: string; kind?: string; venueId?: string };
const col = createDataTableColumnHelper<DeviceRow>();

/** A device's status as a coloured badge. */
export function DeviceStatusBadge({ status }: { status: DeviceStatus }) {
  return <EnumBadge table={DEVICE_STATUS_TABLE} value={status} />;
}

/** The device columns the device list and a venue's association screen share (name and parent first). */
export function useDeviceColumns() {
  const { t } = useTranslation('venue');
  const dateTime = useDateTime();
  return useMemo(
    () => [
      col.accessor('name', {
        header: t('device.name'),
        cell: ({ row }) =>
          row.original.parentId ? (
            <span className="pl-4 whitespace-nowrap before:mr-1 before:text-muted-foreground before:content-['└']">{row.original.name}</span>
          ) : (
            <span className="font-medium whitespace-nowrap">{row.original.name}</span>
          ),
      }),
      col.accessor('serialNo', { header: t('device.serialNo'), cell: ({ getValue }) => <span className="font-mono whitespace-nowrap">{getValue()}</span> }),
      col.accessor('mac', { header: t('device.mac'), cell: ({ getValue }) => <span className="font-mono whitespace-nowrap">{getValue()}</span> }),
      col.accessor('status', { header: t('device.status'), cell: ({ getValue }) => <DeviceStatusBadge status={getValue()} /> }),
      col.accessor('softwareVersion', { header: t('device.softwareVersion'), cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue()}</span> }),
      col.accessor('activatedAt', {
        header: t('device.activatedAt'),
        cell: ({ getValue }) => {
          const v = getValue();
          return v ? <span className="whitespace-nowrap tabular-nums">{dateTime(v)}</span> : <span className="text-muted-foreground">{t('device.notActivated')}</span>;
        },
      }),
    ],
    [t, dateTime],
  );
}

/** venue/device: devices with filters by name or serial number, status and venue; add, edit, delete, export (docs/product-rules.md#devices). */
export function DeviceListScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('venue');
  const navigate = useNavigate();
  const key = `${family}.venue.device`;
  const access = usePageAccess(key);
  const api = devices(family);
  const options = useDeviceOptions(family);
  const state = useListState<Filters>(['keyword', 'status', 'kind', 'venueId']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const shared = useDeviceColumns();
  const secrets = useDeviceSecretWrites(family);
  const [credential, setCredential] = useState<DeviceCredential | null>(null);
  const dateTime = useDateTime();

  const filters: FilterDef<Filters>[] = [
    { name: 'keyword', type: 'text', label: t('device.keyword'), placeholder: t('device.keywordPlaceholder') },
    { name: 'status', type: 'select', label: t('device.status'), options: enumOptions(DEVICE_STATUS_TABLE, t) },
    { name: 'kind', type: 'dictionary', label: t('device.kind'), dictionary: 'deviceKind' },
    { name: 'venueId', type: 'select', label: t('device.venue'), options: (options.data?.venues ?? []).map((v) => ({ value: v.id, label: v.name })) },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        shared[0],
        shared[1],
        col.accessor('kind', { header: t('device.kind'), cell: ({ getValue }) => <EnumBadge table={DEVICE_KIND_TABLE} value={getValue()} /> }),
        shared[2],
        col.accessor('venueName', { header: t('device.venue'), cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue()}</span> }),
        shared[3],
        shared[4],
        shared[5],
        col.accessor('childCount', { header: t('device.childCount'), meta: { align: 'right' }, cell: ({ row, getValue }) => (row.original.parentId ? null : getValue()) }),
        col.accessor('secretIssuedAt', {
          header: t('secret.column'),
          cell: ({ row, getValue }) => {
            const v = getValue();
            if (!v) return <span className="text-muted-foreground">{t('secret.none')}</span>;
            const seen = row.original.lastSeenAt;
            return (
              <span className="flex flex-col text-xs leading-tight whitespace-nowrap">
                <span>{t('secret.issuedAt', { time: dateTime(v) })}</span>
                <span className="text-muted-foreground">{seen ? t('secret.lastSeen', { time: dateTime(seen) }) : t('secret.neverSeen')}</span>
              </span>
            );
          },
        }),
        rowActionsColumn<DeviceRow>({
          pageKey: key,
          header: t('components:list.actions'),
          width: 260,
          actions: [
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            {
              action: 'edit',
              testId: 'row-secret-issue',
              icon: <KeyRound aria-hidden />,
              label: t('secret.issue'),
              hidden: (r) => r.secretIssuedAt !== null,
              confirm: (r) => ({ title: t(r.activatedAt ? 'secret.issueTitle' : 'secret.activateTitle', { name: r.name }), description: t(r.activatedAt ? 'secret.issueText' : 'secret.activateText') }),
              done: false,
              onClick: async (r) => setCredential(await secrets.issue.mutateAsync(r.id)),
            },
            {
              action: 'edit',
              testId: 'row-secret-rotate',
              icon: <KeyRound aria-hidden />,
              label: t('secret.rotate'),
              hidden: (r) => r.secretIssuedAt === null,
              confirm: (r) => ({ title: t('secret.rotateTitle', { name: r.name }), description: t('secret.rotateText') }),
              done: false,
              onClick: async (r) => setCredential(await secrets.issue.mutateAsync(r.id)),
            },
            {
              action: 'edit',
              testId: 'row-secret-revoke',
              icon: <ShieldOff aria-hidden />,
              label: t('secret.revoke'),
              destructive: true,
              hidden: (r) => r.secretIssuedAt === null,
              confirm: (r) => ({ title: t('secret.revokeTitle', { name: r.name }), description: t('secret.revokeText') }),
              onClick: async (r) => void (await secrets.revoke.mutateAsync(r.id)),
            },
            deleteAction((r) => ({ title: t('device.deleteTitle', { name: r.name }), description: t('device.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, key, navigate, access.paths, remove, shared, secrets.issue, secrets.revoke, dateTime],
  );

  return (
    <>
      <ListScreen
        pageKey={key}
        state={state}
        querySchema={deviceListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        onAdd={() => void navigate(access.paths.add!)}
        onExport={(f) => exportDevices(family, f, t('device.exportName'))}
        exportLayout="list"
        data-testid="device-list"
      />
      <DeviceSecretDialog credential={credential} onClose={() => setCredential(null)} />
    </>
  );
}

/** venue/device/add and edit/:id. */
export function DeviceFormScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('venue');
  const { id } = useParams();
  const access = usePageAccess(`${family}.venue.device`);
  const options = useDeviceOptions(family);
  const record = devices(family).useGet(id);
  const dateTime = useDateTime();
  const defaults: DeviceForm = { name: '', serialNo: '', mac: '', venueId: '', parentId: '', status: 'offline', kind: 'terminal', softwareVersion: '', activated: 'false' };
  const activatedAt = record.data?.activatedAt;
  return (
    <FormScreen
      schema={deviceSaveSchema}
      resource={devices(family)}
      id={id}
      defaults={defaults}
      toValues={(r) => ({
        name: r.name,
        serialNo: r.serialNo,
        mac: r.mac ?? '',
        venueId: r.venueId ?? '',
        parentId: r.parentId ?? '',
        status: r.status,
        kind: r.kind,
        softwareVersion: r.softwareVersion ?? '',
        activated: r.activatedAt ? 'true' : 'false',
        version: r.version,
      })}
      title={id ? t('device.editTitle') : t('device.addTitle')}
      description={t('device.formHint')}
      backTo={access.paths.list}
      data-testid="device-form"
    >
      {() => (
        <FieldGroup>
          <TextField name="name" label={t('device.name')} required />
          <TextField name="serialNo" label={t('device.serialNo')} required />
          <DictionaryField name="kind" label={t('device.kind')} required dictionary="deviceKind" />
          <TextField name="mac" label={t('device.mac')} placeholder={t('device.macPlaceholder')} maxLength={17} />
          <TextField name="softwareVersion" label={t('device.softwareVersion')} />
          <SelectField
            name="venueId"
            label={t('device.venue')}
            placeholder={t('device.noVenue')}
            options={(options.data?.venues ?? []).map((v) => ({ value: v.id, label: `${v.code} ${v.name}` }))}
          />
          <SelectField
            name="parentId"
            label={t('device.parent')}
            placeholder={t('device.noParent')}
            options={(options.data?.parents ?? []).filter((p) => p.id !== id).map((p) => ({ value: p.id, label: `${p.name}（${p.serialNo}）${p.kind === 'terminal' ? '' : ` · ${t(`device.kinds.${p.kind}`)}`}` }))}
          />
          <RadioField name="status" label={t('device.status')} required options={enumOptions(DEVICE_STATUS_TABLE, t)} />
          <RadioField
            name="activated"
            label={t('device.activated')}
            description={activatedAt ? t('device.activatedHint', { time: dateTime(activatedAt) }) : undefined}
            options={[
              { value: 'true', label: t('device.activatedYes') },
              { value: 'false', label: t('device.activatedNo') },
            ]}
          />
        </FieldGroup>
      )}
    </FormScreen>
  );
}
