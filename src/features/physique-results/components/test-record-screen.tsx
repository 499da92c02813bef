import { useMemo, useState } from 'react';
import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { getCatalogEntry } from '@/domain/menus/catalog';
import type { TestRecordFilter } from '@/domain/physique-results/schemas';
import type { TestRecordRow } from '@/domain/physique-results/types';
import { RESULT_KEYS, type ResultKey } from '@/domain/physique/national-template';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { usePaging } from '@/components/data-table/data-table-pagination';
import { menuLabel } from '@/components/layout/menu-label';
import { PageHeader } from '@/components/page-header/page-header';
import { FilterSelect, FilterText, SearchField, SearchForm } from '@/components/search-form/search-form';
import { usePageActions, validityActions } from '@/components/list/page-actions';
import { rowActionsColumn } from '@/components/list/row-actions';
import { usePermission } from '@/components/permission-gate/permission-gate';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { DatePicker } from '@/components/ui/date-picker';
import { cn } from '@/lib/cn';
import { useExportRecordsMutation } from '../api/export-records';
import { useSchoolOptionsQuery } from '../api/get-filter-options';
import { useRecordsQuery } from '../api/list-records';
import { useSetRecordsInvalidMutation } from '../api/set-records-invalid';
import { canWriteScores } from '@/domain/physique-results/write-access';
import { buttonPermission } from '../family';
import type { Family } from '@/domain/menus/access';
import { showRaw } from '../format';
import { useDateTime } from '@/lib/date-time';

type RecordFilterValues = Partial<TestRecordFilter>;
const col = createDataTableColumnHelper<TestRecordRow>();

/** selfTest/testRecord (docs/product-rules.md#physique-results: test records): single-item test records filtered by item, dates, class and name; invalid/restore; export. */
export function TestRecordScreen({ family }: { family: Family }) {
  const { t } = useTranslation(['physiqueResultsUi', 'physique', 'physiqueResults', 'menus', 'common']);
  const dateTime = useDateTime('medium');
  const page = 'sportData.testRecord';
  const write = canWriteScores(family);
  const can = {
    export: usePermission(buttonPermission(family, page, 'export')),
    invalid: usePermission(buttonPermission(family, page, 'invalid')) && write,
    valid: usePermission(buttonPermission(family, page, 'valid')) && write,
  };
  const [draft, setDraft] = useState<RecordFilterValues>({});
  const [filters, setFilters] = useState<RecordFilterValues>({});
  const { paging, toFirstPage, pagination } = usePaging();
  const query = useRecordsQuery(family, { ...paging, ...filters });
  const options = useSchoolOptionsQuery(family);
  const exporter = useExportRecordsMutation(family);
  const toggle = useSetRecordsInvalidMutation(family);
  // Set invalid / restore on a row (docs/product-rules.md#score-validity): no reason; only roles that write scores.
  const validity = usePageActions<TestRecordRow>(
    `${family}.${page}`,
    validityActions<TestRecordRow>({
      where: 'row',
      isInvalid: (r) => r.invalid,
      run: (rows, invalid) => toggle.mutateAsync({ ids: rows.map((r) => r.id), invalid }),
      title: ([r], invalid) => t(invalid ? 'confirm.invalidTitle' : 'confirm.validTitle', { name: r.name }),
      description: (_rows, invalid) => t(invalid ? 'confirm.invalidDescription' : 'confirm.validDescription'),
      labels: { invalid: t('action.invalid'), valid: t('action.valid') },
      confirmText: (invalid) => t(invalid ? 'action.invalid' : 'action.valid'),
    }),
  );
  const rowActions = validity.rowActions;
  const entry = getCatalogEntry(`${family}.${page}`);
  const fieldName = (f: ResultKey) => (f === 'heightCm' || f === 'weightKg' ? t(`physique:field.${f}`) : t(`physique:item.${f}`));

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: t('column.name'),
          cell: ({ row }) => (
            <span className="flex flex-col leading-tight">
              <span className={cn('font-medium', row.original.invalid && 'text-muted-foreground line-through')}>{row.original.name}</span>
              <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">{row.original.regNo}</span>
            </span>
          ),
        }),
        col.accessor('gender', { header: t('column.gender'), cell: ({ getValue }) => t(`physique:gender.${getValue()}`) }),
        col.accessor('className', { header: t('column.class') }),
        col.accessor('item', { header: t('physiqueResults:record.item'), cell: ({ getValue }) => fieldName(getValue()) }),
        col.accessor('raw', {
          header: t('physiqueResults:record.raw'),
          meta: { align: 'right' },
          cell: ({ row }) => (
            <span className={cn('font-medium tabular-nums', row.original.invalid && 'text-muted-foreground line-through')}>
              {showRaw(row.original.item, row.original.raw)}
              <span className="ml-1 text-xs font-normal text-muted-foreground">{t(`physique:unit.${row.original.item}`)}</span>
            </span>
          ),
        }),
        col.accessor('source', {
          header: t('physiqueResults:record.source'),
          cell: ({ getValue }) => t(`physiqueResults:record.source${getValue().charAt(0).toUpperCase()}${getValue().slice(1)}`),
        }),
        col.accessor('deviceSn', { header: t('physiqueResults:record.deviceSn'), cell: ({ getValue }) => getValue() ?? '—' }),
        col.accessor('testedAt', {
          header: t('physiqueResults:record.testedAt'),
          enableSorting: true,
          cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{dateTime(getValue())}</span>,
        }),
        col.accessor('invalid', {
          header: t('column.validity'),
          cell: ({ row }) =>
            row.original.invalid ? (
              <Badge variant="destructive" title={row.original.invalidAt ? t('invalidSince', { at: dateTime(row.original.invalidAt) }) : undefined}>
                {t('validity.invalid')}
              </Badge>
            ) : (
              <Badge variant="secondary">{t('validity.valid')}</Badge>
            ),
        }),
        // Read-only roles (and the admin family) get no actions column.
        ...(can.invalid || can.valid ? [rowActionsColumn<TestRecordRow>({ pageKey: `${family}.${page}`, header: t('column.actions'), actions: rowActions })] : []),
      ]),
    // fieldName only closes over t.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, dateTime, can.invalid, can.valid, family, rowActions],
  );

  const classes = options.data?.classes ?? [];
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="test-records">
      <PageHeader
        title={entry ? menuLabel(t, entry) : t('records.title')}
        description={t('records.description')}
        className="pb-0"
        actions={
          can.export ? (
            <Button variant="outline" loading={exporter.isPending} onClick={() => exporter.mutate(filters)}>
              <Download aria-hidden />
              {t('action.export')}
            </Button>
          ) : null
        }
      />
      <Card>
        <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
          <SearchForm
            onSearch={() => {
              setFilters({ ...draft, keyword: draft.keyword?.trim() || undefined });
              toFirstPage();
            }}
            onReset={() => {
              setDraft({});
              setFilters({});
            }}
          >
            <FilterSelect
              label={t('physiqueResults:record.item')}
              className="w-40"
              value={draft.item}
              onChange={(v) => setDraft({ ...draft, item: v as ResultKey | undefined })}
              options={RESULT_KEYS.map((k) => ({ value: k, label: fieldName(k) }))}
            />
            <SearchField label={t('filter.from')}>
              <DatePicker className="w-40" value={draft.from} max={draft.to} onChange={(v) => setDraft({ ...draft, from: v })} aria-label={t('filter.from')} />
            </SearchField>
            <SearchField label={t('filter.to')}>
              <DatePicker className="w-40" value={draft.to} min={draft.from} onChange={(v) => setDraft({ ...draft, to: v })} aria-label={t('filter.to')} />
            </SearchField>
            <FilterSelect
              label={t('filter.class')}
              className="w-36"
              value={draft.classId}
              onChange={(v) => setDraft({ ...draft, classId: v })}
              options={classes.map((c) => ({ value: c.id, label: c.name }))}
            />
            <FilterSelect
              label={t('filter.validity')}
              className="w-24"
              value={draft.invalid === undefined ? undefined : draft.invalid ? 'invalid' : 'valid'}
              onChange={(v) => setDraft({ ...draft, invalid: v === undefined ? undefined : v === 'invalid' })}
              options={[
                { value: 'valid', label: t('validity.valid') },
                { value: 'invalid', label: t('validity.invalid') },
              ]}
            />
            <FilterText
              id="record-keyword"
              label={t('filter.keyword')}
              value={draft.keyword}
              placeholder={t('filter.keywordPlaceholder')}
              onChange={(v) => setDraft({ ...draft, keyword: v })}
            />
          </SearchForm>
          <DataTable
            aria-label={t('records.title')}
            columns={columns}
            data={query.data?.records}
            rowKey="id"
            loading={query.isFetching}
            pagination={pagination(query.data?.total ?? 0)}
          />
        </CardContent>
      </Card>
      {validity.dialog}
    </div>
  );
}
