import type { SchoolFamily } from '@/domain/menus/access';
import { useMemo } from 'react';
import { Link2, Link2Off } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import type { DeviceRow } from '@/domain/venue/devices';
import { venueDeviceListQuery, venueListQuery, venueSaveSchema, type VenueForm, type VenueRow } from '@/domain/venue/venues';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { useDictionary } from '@/components/dictionary/use-dictionary';
import { DictionaryField } from '@/components/form/dictionary-field';
import { FieldGroup, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { LinkedListScreen } from '@/components/list/linked-list-screen';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { devices, venues } from '../api';
import { useDeviceColumns } from './device-screens';

type Filters = { name?: string; type?: string };
const col = createDataTableColumnHelper<VenueRow>();

/** venue/place: venues with filters by name and type; add, edit, delete, associate devices (docs/product-rules.md#venues). */
export function VenueListScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('venue');
  const navigate = useNavigate();
  const key = `${family}.venue.place`;
  const access = usePageAccess(key);
  const api = venues(family);
  const state = useListState<Filters>(['name', 'type']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const venueTypes = useDictionary('venueType');

  const filters: FilterDef<Filters>[] = [
    { name: 'name', type: 'text', label: t('place.name'), placeholder: t('place.namePlaceholder') },
    { name: 'type', type: 'dictionary', label: t('place.type'), dictionary: 'venueType' },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('code', { header: t('place.code'), cell: ({ getValue }) => <span className="font-mono">{getValue()}</span> }),
        col.accessor('name', { header: t('place.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('type', { header: t('place.type'), cell: ({ getValue }) => venueTypes.label(getValue()) }),
        col.accessor('deviceCount', { header: t('place.deviceCount'), meta: { align: 'right' } }),
        rowActionsColumn<VenueRow>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            { action: 'device', icon: <Link2 aria-hidden />, onClick: (r) => void navigate(access.paths.route('device', r.id)), testId: 'venue-devices' },
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            deleteAction((r) => ({ title: t('place.deleteTitle', { name: r.name }), description: t('place.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, key, navigate, access.paths, remove, venueTypes],
  );

  return (
    <ListScreen
      pageKey={key}
      state={state}
      querySchema={venueListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      onAdd={() => void navigate(access.paths.add!)}
      data-testid="venue-list"
    />
  );
}

/** venue/place/add and edit/:id. */
export function VenueFormScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('venue');
  const { id } = useParams();
  const access = usePageAccess(`${family}.venue.place`);
  const defaults: VenueForm = { name: '', type: '', code: '' };
  return (
    <FormScreen
      schema={venueSaveSchema}
      resource={venues(family)}
      id={id}
      defaults={defaults}
      toValues={(r) => ({ name: r.name, type: r.type, code: r.code, version: r.version })}
      title={id ? t('place.editTitle') : t('place.addTitle')}
      description={t('place.formHint')}
      backTo={access.paths.list}
      dictionaries={{ type: 'venueType' }}
      data-testid="venue-form"
    >
      {() => (
        <FieldGroup>
          <TextField name="name" label={t('place.name')} required />
          <DictionaryField name="type" label={t('place.type')} required dictionary="venueType" />
          <TextField name="code" label={t('place.code')} required inputMode="numeric" maxLength={2} placeholder="01" />
        </FieldGroup>
      )}
    </FormScreen>
  );
}

type DeviceFilters = { keyword?: string };
const deviceCol = createDataTableColumnHelper<DeviceRow>();

/** venue/place/device/:id: the venue's devices; associate devices of the organisation, detach one (the device stays). */
export function VenueDevicesScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('venue');
  const { id = '' } = useParams();
  const venue = venues(family).useGet(id);
  const state = useListState<DeviceFilters>(['keyword']);
  const shared = useDeviceColumns();
  const columns = useMemo(() => deviceCol.columns([...shared]), [shared]);

  const v = venue.data;
  return (
    <LinkedListScreen<DeviceRow, DeviceFilters, DeviceRow>
      pageKey={`${family}.venue.place`}
      action="device"
      owner={id}
      linked={{ path: 'devices', ids: 'deviceIds' }}
      // A device's venue shows in the device list too.
      invalidates={[devices(family).key]}
      description={v ? t('assoc.description', { name: v.name, type: t(`place.types.${v.type}`), code: v.code }) : undefined}
      state={state}
      querySchema={venueDeviceListQuery}
      filters={[{ name: 'keyword', type: 'text', label: t('device.keyword'), placeholder: t('device.keywordPlaceholder') }]}
      columns={columns}
      rowKey="id"
      actionsHeader={t('components:list.actions')}
      remove={{
        label: t('assoc.detach'),
        icon: <Link2Off aria-hidden />,
        testId: 'venue-device-detach',
        confirm: (d) => ({ title: t('assoc.detachTitle', { name: d.name }), description: t('assoc.detachText') }),
        done: t('assoc.detached'),
      }}
      add={{
        label: t('assoc.pick'),
        icon: <Link2 aria-hidden />,
        done: (count) => t('assoc.attached', { count }),
        dialog: {
          description: t('assoc.pickPlaceholder'),
          searchLabel: t('device.keyword'),
          searchPlaceholder: t('device.keywordPlaceholder'),
          candidateKey: (d) => d.id,
          renderCandidate: (d) => (
            <>
              <span>
                {d.name} <span className="font-mono text-muted-foreground">{d.serialNo}</span>
              </span>
              {d.venueName ? <span className="text-xs text-muted-foreground">{t('assoc.inVenue', { venue: d.venueName })}</span> : null}
            </>
          ),
          candidateTestId: (d) => `candidate-${d.serialNo}`,
          emptyText: t('assoc.empty'),
          confirmLabel: t('assoc.add'),
          'data-testid': 'venue-device-attach',
        },
      }}
      data-testid="venue-devices"
    />
  );
}
