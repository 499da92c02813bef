import { useMemo, useState } from 'react';
import { X } from 'lucide-react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  EXEMPTION_KIND_TABLE,
  EXEMPTION_STATUS_TABLE,
  CERTIFICATE_PURPOSE,
  exemptionDecideSchema,
  exemptionListQuery,
  exemptionSaveSchema,
  type ExemptionDecideForm,
  type ExemptionForm,
  type ExemptionRow,
  type ExemptionStudentOption,
} from '@/domain/exemptions/exemptions';
import { enumOptions } from '@/domain/presentation';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { PersonCell } from '@/components/data-table/person-cell';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { CustomField, RadioField, SelectField, TextareaField, UploadField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import type { ActionDialogProps, PageActions } from '@/components/list/page-actions';
import { useListState } from '@/components/list/use-list-state';
import { SearchPicker } from '@/components/picker/search-picker';
import { Button } from '@/components/ui/button';
import { FormControl } from '@/components/form/form';
import { downloadForm, exemptionKey, exemptionResource, searchStudents, useDecideExemption, useExemptionOptions, type ExemptionFamily } from './api';

type Filters = { schoolYearId?: string; status?: string; kind?: string; classId?: string; keyword?: string };
const col = createDataTableColumnHelper<ExemptionRow>();
const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : '');

/**
 * physiqueManage/exemption (docs/product-rules.md#physique-year, "Exemptions"): the requests of the classes in the
 * user's scope, pending first; request (add), approve or refuse (audit), delete a pending one, print the standard's
 * application form, export.
 */
export function ExemptionListScreen({ family }: { family: ExemptionFamily }) {
  const { t } = useTranslation('exemptions');
  const key = exemptionKey(family);
  const api = exemptionResource(family);
  const options = useExemptionOptions(family);
  const state = useListState<Filters>(['schoolYearId', 'status', 'kind', 'classId', 'keyword']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const filters: FilterDef<Filters>[] = [
    { name: 'schoolYearId', type: 'select', label: t('column.academicYear'), options: (options.data?.schoolYears ?? []).map((y) => ({ value: y.id, label: y.academicYear })) },
    { name: 'status', type: 'select', label: t('column.status'), options: enumOptions(EXEMPTION_STATUS_TABLE, t) },
    { name: 'kind', type: 'select', label: t('column.kind'), options: enumOptions(EXEMPTION_KIND_TABLE, t) },
    { name: 'classId', type: 'select', label: t('column.className'), options: (options.data?.classes ?? []).map((c) => ({ value: c.id, label: c.name })) },
    { name: 'keyword', type: 'text', label: t('keyword'), placeholder: t('keywordPlaceholder') },
  ];
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: t('column.name'),
          cell: ({ row }) => <PersonCell name={row.original.name} sub={row.original.regNo} />,
        }),
        col.accessor('className', { header: t('column.className'), meta: { className: 'whitespace-nowrap' } }),
        col.accessor('academicYear', { header: t('column.academicYear'), meta: { className: 'whitespace-nowrap' } }),
        col.accessor('kind', { header: t('column.kind'), cell: ({ getValue }) => <EnumBadge table={EXEMPTION_KIND_TABLE} value={getValue()} /> }),
        col.accessor('reason', { header: t('column.reason'), cell: ({ getValue }) => <span className="line-clamp-2 min-w-48 max-w-80">{getValue()}</span> }),
        col.accessor('certificateName', {
          header: t('column.certificate'),
          cell: ({ row }) =>
            row.original.certificateFileId ? (
              <a className="block max-w-36 truncate text-primary underline-offset-2 hover:underline" title={row.original.certificateName ?? undefined} href={`/api/uc/oss/files/${row.original.certificateFileId}/content`} target="_blank" rel="noreferrer">
                {row.original.certificateName}
              </a>
            ) : (
              <span className="text-muted-foreground">{t('noCertificate')}</span>
            ),
        }),
        col.accessor('status', { header: t('column.status'), cell: ({ getValue }) => <EnumBadge table={EXEMPTION_STATUS_TABLE} value={getValue()} /> }),
        col.accessor('requestedByName', {
          header: t('column.requestedBy'),
          cell: ({ row }) => (
            <span className="grid whitespace-nowrap">
              <span>{row.original.requestedByName ?? ''}</span>
              <span className="text-xs text-muted-foreground">{`${t(`via.${row.original.requestedVia}`)} · ${when(row.original.requestedAt)}`}</span>
            </span>
          ),
        }),
        col.accessor('decidedByName', {
          header: t('column.decision'),
          cell: ({ row }) =>
            row.original.decidedAt ? (
              <span className="grid min-w-32">
                <span className="whitespace-nowrap">{`${row.original.decidedByName ?? ''} · ${when(row.original.decidedAt)}`}</span>
                {row.original.decisionNote ? <span className="text-xs text-muted-foreground">{row.original.decisionNote}</span> : null}
              </span>
            ) : null,
        }),
      ]),
    [t],
  );
  const actions: PageActions<ExemptionRow> = {
    add: { button: 'add', where: 'toolbar', variant: 'default', label: t('add'), dialog: (p) => <RequestDialog family={family} {...p} /> },
    audit: { button: 'audit', hidden: (r) => r.status !== 'pending', dialog: (p) => <DecideDialog family={family} {...p} /> },
    print: { button: 'print', run: ([r]) => downloadForm(family, r), success: false },
    delete: {
      button: 'delete',
      destructive: true,
      hidden: (r) => r.status !== 'pending',
      confirm: ([r]) => ({ title: t('deleteTitle', { name: r.name }), description: t('deleteText') }),
      run: ([r]) => remove.mutateAsync(r.id),
    },
  };
  return (
    <ListScreen
      pageKey={key}
      state={state}
      querySchema={exemptionListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      actions={actions}
      onExport={(f) => api.exportList(f)}
      exportLayout="list"
      data-testid="exemption-list"
    />
  );
}

/** The request form: a student of the requester's classes, the school year, kind, reason and certificate. */
function RequestDialog({ family, open, onOpenChange, done }: { family: ExemptionFamily } & ActionDialogProps<ExemptionRow>) {
  const { t } = useTranslation('exemptions');
  const options = useExemptionOptions(family);
  const save = exemptionResource(family).useSave(undefined, { silent: true });
  const current = options.data?.schoolYears.find((y) => y.current) ?? options.data?.schoolYears[0];
  const defaults: ExemptionForm = { studentId: '', schoolYearId: current?.id ?? '', kind: 'exempt', reason: '', certificateFileId: null };
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={exemptionSaveSchema}
      defaults={defaults}
      title={t('addTitle')}
      description={t('addText')}
      submit={(body) => save.mutateAsync(body)}
      success={t('requested')}
      onDone={done}
      submitText={t('submit')}
      data-testid="exemption-form"
    >
      {() => (
        <div className="grid gap-4">
          <StudentField family={family} />
          <SelectField name="schoolYearId" label={t('column.academicYear')} required options={(options.data?.schoolYears ?? []).map((y) => ({ value: y.id, label: y.academicYear }))} />
          <RadioField name="kind" label={t('column.kind')} required options={enumOptions(EXEMPTION_KIND_TABLE, t).map((o) => ({ ...o, label: t(`kindLong.${o.value}`) }))} />
          <TextareaField name="reason" label={t('column.reason')} required rows={4} placeholder={t('reasonPlaceholder')} />
          <UploadField name="certificateFileId" label={t('column.certificate')} purpose={CERTIFICATE_PURPOSE} maxCount={1} hint={t('certificateHint')} />
        </div>
      )}
    </FormDialog>
  );
}

function StudentField({ family }: { family: ExemptionFamily }) {
  const { t } = useTranslation('exemptions');
  const form = useFormContext<ExemptionForm>();
  const [student, setStudent] = useState<ExemptionStudentOption | null>(null);
  const choose = (s: ExemptionStudentOption | null) => {
    setStudent(s);
    form.setValue('studentId', s?.id ?? '', { shouldDirty: true, shouldValidate: Boolean(s) });
  };
  return (
    <CustomField
      name="studentId"
      label={t('column.name')}
      required
      render={() => (
        <FormControl>
          <div className="grid gap-1 text-sm">
            <SearchPicker
              queryKey={[exemptionKey(family), 'students']}
              search={async (k) => (await searchStudents(family, k)).map((s) => ({ ...s, hint: `${s.className} · ${s.regNo}` }))}
              onPick={(o) => choose(o)}
              exclude={student ? new Set([student.id]) : undefined}
              label={t('studentSearch')}
              placeholder={t('keywordPlaceholder')}
              data-testid="exemption-student-picker"
            />
            {student ? (
              <div className="flex items-center gap-2 rounded border px-2 py-1" data-testid="exemption-student">
                <span className="min-w-0 flex-1 truncate font-medium">{student.name}</span>
                <span className="shrink-0 text-muted-foreground">{`${student.className} · ${student.regNo}`}</span>
                <Button type="button" size="icon" variant="ghost" aria-label={t('removeStudent', { name: student.name })} onClick={() => choose(null)}>
                  <X aria-hidden />
                </Button>
              </div>
            ) : null}
          </div>
        </FormControl>
      )}
    />
  );
}

/** Approve or refuse a pending request with a note (required to refuse); a stale decision shows the 409's message. */
function DecideDialog({ family, rows, open, onOpenChange, done }: { family: ExemptionFamily } & ActionDialogProps<ExemptionRow>) {
  const { t } = useTranslation('exemptions');
  const decide = useDecideExemption(family);
  const [row] = rows;
  const defaults: ExemptionDecideForm = { decision: 'approved', note: '', version: row.version };
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={exemptionDecideSchema}
      defaults={defaults}
      title={t('decideTitle', { name: row.name, kind: t(`kind.${row.kind}`) })}
      description={row.reason}
      submit={(body) => decide.mutateAsync({ id: row.id, ...body })}
      success={t('decided')}
      onDone={done}
      submitText={t('decide')}
      data-testid="exemption-decide"
    >
      {() => (
        <div className="grid gap-4">
          <RadioField
            name="decision"
            label={t('decision')}
            required
            options={[
              { value: 'approved', label: t('approve') },
              { value: 'refused', label: t('refuse') },
            ]}
          />
          <TextareaField name="note" label={t('note')} rows={3} placeholder={t('notePlaceholder')} />
        </div>
      )}
    </FormDialog>
  );
}
