import { useMemo, useState } from 'react';
import { Download, FileText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { reportPath } from '@/domain/physique-results/report-link';
import { enumOptions } from '@/domain/presentation';
import { SIGN_UP_STATUS_TABLE, type SignUpRow, type SignUpStatus } from '@/domain/test-plans/types';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { usePaging } from '@/components/data-table/data-table-pagination';
import { FilterSelect, FilterText, SearchForm } from '@/components/search-form/search-form';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { useClassCompletionQuery } from '../api/get-class-completion';
import { exportSignUps } from '../api/export-sign-ups';
import { useSignUpsQuery } from '../api/list-sign-ups';
import type { Family } from '@/domain/menus/access';

const col = createDataTableColumnHelper<SignUpRow>();

/** Sign-up tab: every student in the plan's scope with their result status, filtered by class, status and name. */
export function SignUpTable({ family, planId }: { family: Family; planId: string }) {
  const { t } = useTranslation(['testPlansUi', 'testPlans', 'physique', 'common']);
  const [draft, setDraft] = useState<{ classId?: string; status?: SignUpStatus; keyword?: string }>({});
  const [filters, setFilters] = useState(draft);
  const { paging, toFirstPage, pagination } = usePaging();
  const query = useSignUpsQuery(family, planId, { ...paging, ...filters });
  const classes = useClassCompletionQuery(family, planId);

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('signUp.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('regNo', { header: t('signUp.regNo'), cell: ({ getValue }) => <span className="tabular-nums">{getValue()}</span> }),
        col.accessor('gender', { header: t('signUp.gender'), cell: ({ getValue }) => t(`physique:gender.${getValue()}`) }),
        col.accessor('className', { header: t('signUp.className') }),
        col.accessor('status', {
          header: t('signUp.status'),
          cell: ({ getValue }) => <EnumBadge table={SIGN_UP_STATUS_TABLE} value={getValue()} />,
        }),
        col.accessor('total', {
          header: t('signUp.total'),
          meta: { align: 'right' },
          cell: ({ row }) => (
            <span className={row.original.invalid ? 'text-muted-foreground line-through' : 'tabular-nums'}>{row.original.total ?? '—'}</span>
          ),
        }),
        col.accessor('level', {
          header: t('signUp.level'),
          cell: ({ row }) => (
            <span className="flex items-center gap-1.5">
              {row.original.level ? t(`physique:level.${row.original.level}`) : '—'}
              {row.original.invalid ? <Badge variant="destructive">{t('signUp.invalid')}</Badge> : null}
            </span>
          ),
        }),
        col.display({
          id: 'report',
          header: t('column.actions'),
          meta: { align: 'right' },
          cell: ({ row }) =>
            row.original.status === 'notTested' ? null : (
              <Button asChild variant="link" size="sm" className="h-7 px-1.5">
                <Link to={reportPath({ ...row.original, planId })} data-testid="sign-up-report">
                  <FileText aria-hidden />
                  {t('signUp.report')}
                </Link>
              </Button>
            ),
        }),
      ]),
    [t, planId],
  );

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="sign-up-table">
      <SearchForm
        onSearch={() => {
          setFilters({ ...draft, keyword: draft.keyword?.trim() || undefined });
          toFirstPage();
        }}
      >
        <FilterSelect
          label={t('signUp.className')}
          className="w-44"
          value={draft.classId}
          onChange={(v) => setDraft({ ...draft, classId: v })}
          options={(classes.data ?? []).map((c) => ({ value: c.classId, label: c.className }))}
        />
        <FilterSelect
          label={t('signUp.status')}
          className="w-32"
          value={draft.status}
          onChange={(v) => setDraft({ ...draft, status: v as SignUpStatus | undefined })}
          options={enumOptions(SIGN_UP_STATUS_TABLE, t)}
        />
        <FilterText
          id="sign-up-keyword"
          label={t('signUp.keyword')}
          className="w-52"
          value={draft.keyword}
          placeholder={t('signUp.keywordPlaceholder')}
          onChange={(v) => setDraft({ ...draft, keyword: v })}
        />
      </SearchForm>
      <div className="flex justify-end">
        <Button
          variant="outline"
          size="sm"
          onClick={() => void exportSignUps(family, planId).catch((e: unknown) => toast.error(e instanceof Error ? e.message : String(e)))}
          data-testid="sign-up-export"
        >
          <Download aria-hidden />
          {t('signUp.export')}
        </Button>
      </div>
      <DataTable
        aria-label={t('detail.tabs.signUp')}
        columns={columns}
        data={query.data?.records}
        rowKey="studentId"
        loading={query.isFetching}
        pagination={pagination(query.data?.total ?? 0)}
      />
    </div>
  );
}
