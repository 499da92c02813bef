import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CONSENT_FORM_PURPOSE,
  CONSENT_PURPOSE_TABLE,
  CONSENT_PURPOSES,
  CONSENT_STATUS_TABLE,
  consentListQuery,
  consentRecordSchema,
  type ConsentCoverage,
  type ConsentPurpose,
  type ConsentRecordForm,
  type ConsentRow,
} from '@/domain/consent/consent';
import { pageAccess } from '@/domain/menus/access';
import { enumOptions } from '@/domain/presentation';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { PersonCell } from '@/components/data-table/person-cell';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { RadioField, SelectField, TextareaField, UploadField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import { menuLabel } from '@/components/layout/menu-label';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import type { ActionDialogProps, PageActions } from '@/components/list/page-actions';
import { useListState, type ListState } from '@/components/list/use-list-state';
import { PageHeader } from '@/components/page-header/page-header';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useDateTime } from '@/lib/date-time';
import { useFigureFormats } from '@/lib/number-format';
import { consentKey, consentResource, useConsentCoverage, useConsentHistory, useConsentOptions, useRecordConsent, type ConsentFamily } from './api';

type Filters = { classId?: string; purpose?: string; status?: string; keyword?: string };
const col = createDataTableColumnHelper<ConsentRow>();

/**
 * system/consent (docs/product-rules.md#consent): coverage per class and purpose, the students of the user's classes
 * with their state per purpose (a coverage cell lists its class's missing students), recording a guardian's signed
 * form with its scan, and the export.
 */
export function ConsentScreen({ family }: { family: ConsentFamily }) {
  const { t } = useTranslation(['consent', 'menus']);
  const key = consentKey(family);
  const api = consentResource(family);
  const options = useConsentOptions(family);
  const state = useListState<Filters>(['classId', 'purpose', 'status', 'keyword']);
  const query = api.useList(state.query);
  const filters: FilterDef<Filters>[] = [
    { name: 'classId', type: 'select', label: t('column.className'), options: (options.data?.classes ?? []).map((c) => ({ value: c.id, label: c.name })) },
    { name: 'purpose', type: 'select', label: t('column.purpose'), options: enumOptions(CONSENT_PURPOSE_TABLE, t) },
    { name: 'status', type: 'select', label: t('column.state'), options: enumOptions(CONSENT_STATUS_TABLE, t) },
    { name: 'keyword', type: 'text', label: t('list.keyword'), placeholder: t('list.keywordPlaceholder') },
  ];
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: t('column.name'),
          cell: ({ row }) => <PersonCell name={row.original.name} sub={row.original.regNo} />,
        }),
        col.accessor('className', { header: t('column.className'), meta: { className: 'whitespace-nowrap' } }),
        ...CONSENT_PURPOSES.map((p) =>
          col.accessor((r) => r.consents[p], { id: p, header: t(`purpose.${p}`), cell: ({ getValue }) => <EnumBadge table={CONSENT_STATUS_TABLE} value={getValue()} /> }),
        ),
      ]),
    [t],
  );
  const actions: PageActions<ConsentRow> = {
    record: { button: 'edit', label: t('record.button'), dialog: (p) => <RecordDialog family={family} purpose={state.filters.purpose as ConsentPurpose | undefined} {...p} /> },
  };
  return (
    <div className="flex flex-col gap-4" data-testid="consent-screen">
      <PageHeader title={menuLabel(t, pageAccess(key).entry)} description={t('description')} className="pb-0" />
      <CoveragePanel family={family} state={state} />
      <ListScreen
        pageKey={key}
        state={state}
        querySchema={consentListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        actions={actions}
        onExport={(f) => api.exportList(f)}
        section={{ title: t('list.title') }}
        data-testid="consent-list"
      />
    </div>
  );
}

/** Per class and purpose: the share of students whose guardian gave consent; a cell lists the class's missing students. */
function CoveragePanel({ family, state }: { family: ConsentFamily; state: ListState<Filters> }) {
  const { t } = useTranslation('consent');
  const { share, count } = useFigureFormats();
  const coverage = useConsentCoverage(family, undefined);
  const data: ConsentCoverage | undefined = coverage.data;
  const cell = (given: number, students: number) => (students === 0 ? null : given / students);
  const tone = (v: number | null) => (v === null ? '' : v >= 1 ? 'text-success' : v >= 0.9 ? '' : 'text-destructive');
  const lowest = (c: ConsentCoverage['classes'][number]) => (c.students === 0 ? 1 : Math.min(...CONSENT_PURPOSES.map((p) => c.given[p] / c.students)));
  const missing = (classId: string, purpose: ConsentPurpose) => state.setFilters({ ...state.filters, classId, purpose, status: 'none' });
  return (
    <Card data-testid="consent-coverage">
      <CardHeader>
        <CardTitle>{t('coverage.title')}</CardTitle>
      </CardHeader>
      <CardContent className="max-h-[22rem] overflow-auto" tabIndex={0} role="region" aria-label={t('coverage.title')}>
        {data && data.classes.length === 0 ? <p className="text-muted-foreground text-sm">{t('coverage.empty')}</p> : null}
        {data && data.classes.length > 0 ? (
          <table className="w-full text-sm">
            <thead className="bg-card sticky top-0">
              <tr className="text-muted-foreground text-left">
                <th className="py-1 font-normal">{t('coverage.class')}</th>
                <th className="py-1 pl-3 text-right font-normal">{t('coverage.students')}</th>
                {CONSENT_PURPOSES.map((p) => (
                  <th key={p} className="py-1 pl-3 text-right font-normal" title={t(`purposeHint.${p}`)}>
                    {t(`purpose.${p}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr className="border-t font-medium">
                <td className="py-1">{t('coverage.total')}</td>
                <td className="py-1 pl-3 text-right tabular-nums">{count(data.total.students)}</td>
                {CONSENT_PURPOSES.map((p) => {
                  const v = cell(data.total.given[p], data.total.students);
                  return (
                    <td key={p} className={`py-1 pl-3 text-right tabular-nums ${tone(v)}`}>
                      {share(v)}
                    </td>
                  );
                })}
              </tr>
              {/* Classes with the lowest coverage first: what is missing is at the top. */}
              {[...data.classes].sort((a, b) => lowest(a) - lowest(b)).map((c) => (
                <tr key={c.classId} className="border-t">
                  <td className="py-1 whitespace-nowrap">{c.className}</td>
                  <td className="py-1 pl-3 text-right tabular-nums">{count(c.students)}</td>
                  {CONSENT_PURPOSES.map((p) => {
                    const v = cell(c.given[p], c.students);
                    const full = c.given[p] >= c.students;
                    return (
                      <td key={p} className={`py-1 pl-3 text-right tabular-nums ${tone(v)}`}>
                        {full ? (
                          share(v)
                        ) : (
                          <button
                            type="button"
                            className="underline-offset-2 hover:underline"
                            title={t('coverage.showMissing', { className: c.className, purpose: t(`purpose.${p}`) })}
                            onClick={() => missing(c.classId, p)}
                          >
                            {/* Named by its visible figures first, then what it opens (axe label-content-name-mismatch). */}
                            {`${share(v)} · ${t('coverage.cell', { given: c.given[p], students: c.students })}`}
                            <span className="sr-only">
                              {` · ${t('coverage.showMissing', { className: c.className, purpose: t(`purpose.${p}`) })}`}
                            </span>
                          </button>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Record a guardian's signed form (given or withdrawn) with its scan; the student's history below. */
function RecordDialog({ family, purpose, rows, open, onOpenChange, done }: { family: ConsentFamily; purpose?: ConsentPurpose } & ActionDialogProps<ConsentRow>) {
  const { t } = useTranslation('consent');
  const record = useRecordConsent(family);
  const [row] = rows;
  const first = purpose ?? CONSENT_PURPOSES.find((p) => row.consents[p] === 'none') ?? CONSENT_PURPOSES[0];
  const defaults: ConsentRecordForm = { purpose: first, state: 'given', formFileId: '', note: '', version: row.versions[first] ?? 0 };
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={consentRecordSchema}
      defaults={defaults}
      title={t('record.title', { name: row.name })}
      description={t('record.text')}
      // The version of the purpose chosen, as the list showed it: a change made meanwhile is refused (409).
      submit={(body) => record.mutateAsync({ id: row.id, ...body, version: row.versions[body.purpose] ?? 0 })}
      success={t('record.done')}
      onDone={done}
      submitText={t('record.submit')}
      data-testid="consent-record"
    >
      {() => (
        <div className="grid gap-4">
          <SelectField
            name="purpose"
            label={t('column.purpose')}
            required
            options={CONSENT_PURPOSES.map((p) => ({ value: p, label: `${t(`purpose.${p}`)}（${t('record.current', { status: t(`status.${row.consents[p]}`) })}）` }))}
          />
          <RadioField
            name="state"
            label={t('column.state')}
            required
            options={[
              { value: 'given', label: t('record.given') },
              { value: 'withdrawn', label: t('record.withdrawn') },
            ]}
          />
          <UploadField name="formFileId" label={t('record.form')} required purpose={CONSENT_FORM_PURPOSE} maxCount={1} hint={t('record.formHint')} />
          <TextareaField name="note" label={t('column.note')} rows={2} placeholder={t('record.notePlaceholder')} />
          <History family={family} studentId={row.id} />
        </div>
      )}
    </FormDialog>
  );
}

function History({ family, studentId }: { family: ConsentFamily; studentId: string }) {
  const { t } = useTranslation('consent');
  const history = useConsentHistory(family, studentId);
  const when = useDateTime('short');
  return (
    <section className="grid gap-1 text-sm" aria-label={t('history.title')} data-testid="consent-history">
      <h3 className="font-medium">{t('history.title')}</h3>
      {history.data && history.data.length === 0 ? <p className="text-muted-foreground">{t('history.empty')}</p> : null}
      <ul className="grid max-h-40 gap-1 overflow-auto">
        {(history.data ?? []).map((h) => (
          <li key={h.id} className="flex flex-wrap items-baseline gap-x-2">
            <span>{t('history.entry', { purpose: t(`purpose.${h.purpose}`), state: t(`status.${h.state}`) })}</span>
            <span className="text-muted-foreground text-xs">{`${t(`channel.${h.channel}`)} · ${h.changedByName ?? ''} · ${when(h.changedAt)}`}</span>
            {h.formFileId ? (
              <a className="text-primary text-xs underline-offset-2 hover:underline" href={`/api/uc/oss/files/${h.formFileId}/content`} target="_blank" rel="noreferrer">
                {h.formName ?? t('column.form')}
              </a>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
