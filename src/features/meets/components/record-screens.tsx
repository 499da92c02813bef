import type { SchoolFamily } from '@/domain/menus/access';
import { useMemo, useState } from 'react';
import { BadgeCheck, Upload } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { formatMark, RESULT_KIND_TABLE } from '@/domain/meets/marks';
import { RECORD_SCOPE_TABLE, RECORD_STATE_TABLE, recordListQuery, recordSaveSchema, type RecordRow } from '@/domain/meets/records';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { DateField, FieldGroup, RadioField, SelectField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ImportDialog } from '@/components/import-dialog/import-dialog';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { enumLabel, enumOptions } from '@/domain/presentation';
import { post } from '@/lib/api-client';
import { records } from '../api';
import { localDate } from '@/domain/dates';

const KEY = 'single.sportsMeet.record';
type Filters = { eventName?: string; scope?: string; state?: string };
const col = createDataTableColumnHelper<RecordRow>();

/** sportsMeet/record: meet and school records per event and group, current, to review and history (docs/product-rules.md#meets). */
export function RecordListScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const navigate = useNavigate();
  const access = usePageAccess(KEY);
  const api = records(family);
  const state = useListState<Filters>(['eventName', 'scope', 'state']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const [importing, setImporting] = useState(false);

  const filters: FilterDef<Filters>[] = [
    { name: 'eventName', type: 'text', label: t('event.name') },
    { name: 'scope', type: 'select', label: t('record.scope'), options: enumOptions(RECORD_SCOPE_TABLE, t) },
    { name: 'state', type: 'select', label: t('record.state'), options: enumOptions(RECORD_STATE_TABLE, t) },
  ];
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('scope', { header: t('record.scope'), cell: ({ getValue }) => <span className="whitespace-nowrap">{enumLabel(RECORD_SCOPE_TABLE, getValue(), t)}</span> }),
        col.accessor('groupName', { header: t('group.name') }),
        col.accessor('eventName', { header: t('event.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('mark', { header: t('record.mark'), meta: { align: 'right' }, cell: ({ row }) => <span className="whitespace-nowrap font-mono tabular-nums">{formatMark(row.original.resultKind, row.original.mark)}</span> }),
        col.accessor('holder', { header: t('record.holder') }),
        col.accessor('className', { header: t('record.className'), cell: ({ getValue }) => getValue() ?? '' }),
        col.accessor('setOn', { header: t('record.setOn'), cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue()}</span> }),
        col.accessor('state', {
          header: t('record.state'),
          cell: ({ getValue }) => <EnumBadge table={RECORD_STATE_TABLE} value={getValue()} />,
        }),
        rowActionsColumn<RecordRow>({
          pageKey: KEY,
          header: t('components:list.actions'),
          actions: [
            {
              action: 'edit',
              testId: 'approve',
              label: t('record.approve'),
              icon: <BadgeCheck aria-hidden />,
              hidden: (r) => r.state !== 'pending',
              confirm: (r) => ({ title: t('record.approveTitle', { holder: r.holder }), description: t('record.approveText') }),
              done: t('record.approved'),
              onClick: async (r) => {
                await post<null>(`${api.base}/${r.id}/approve`);
                await query.refetch();
              },
            },
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            deleteAction((r) => ({ title: t('record.deleteTitle', { event: `${r.groupName} ${r.eventName}` }), description: t('record.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, navigate, access.paths, remove, api.base, query],
  );

  return (
    <>
      <ListScreen
        pageKey={KEY}
        state={state}
        querySchema={recordListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        onAdd={() => void navigate(access.paths.add!)}
        toolbar={[{ action: 'import', icon: <Upload aria-hidden />, onClick: () => setImporting(true) }]}
        onExport={(f) => api.exportList(f)}
        exportLayout="fixed"
        data-testid="record-list"
      />
      <ImportDialog
        open={importing}
        onOpenChange={setImporting}
        title={t('record.importTitle')}
        description={t('record.importDescription')}
        upload={(file, onProgress) => api.importFile(file, onProgress)}
        onDownloadTemplate={() => void api.downloadTemplate()}
        onImported={() => void query.refetch()}
      />
    </>
  );
}

/** sportsMeet/record/add and edit/:id. */
export function RecordFormScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const { id } = useParams();
  const access = usePageAccess(KEY);
  return (
    <FormScreen
      schema={recordSaveSchema}
      resource={records(family)}
      id={id}
      defaults={{ scope: 'meet', eventName: '', groupName: '', resultKind: 'time', mark: '' as unknown as number, holder: '', className: '', setOn: localDate(new Date()) }}
      toValues={(r: RecordRow) => ({
        scope: r.scope,
        eventName: r.eventName,
        groupName: r.groupName,
        resultKind: r.resultKind,
        mark: formatMark(r.resultKind, r.mark) as unknown as number,
        holder: r.holder,
        className: r.className ?? '',
        setOn: r.setOn,
        version: r.version,
      })}
      title={id ? t('record.editTitle') : t('record.addTitle')}
      description={id ? undefined : t('record.formHint')}
      backTo={access.paths.list}
      data-testid="record-form"
    >
      {() => (
        <FieldGroup>
          <RadioField name="scope" label={t('record.scope')} required options={enumOptions(RECORD_SCOPE_TABLE, t)} />
          <TextField name="groupName" label={t('group.name')} required placeholder={t('group.namePlaceholder')} />
          <TextField name="eventName" label={t('event.name')} required />
          <SelectField name="resultKind" label={t('event.resultKind')} required clearable={false} options={enumOptions(RESULT_KIND_TABLE, t)} />
          <TextField name="mark" label={t('record.mark')} required inputMode="decimal" description={t('record.markHint')} />
          <TextField name="holder" label={t('record.holder')} required />
          <TextField name="className" label={t('record.className')} />
          <DateField name="setOn" label={t('record.setOn')} required />
        </FieldGroup>
      )}
    </FormScreen>
  );
}
