import { useMemo, useState } from 'react';
import { FileText, Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE } from '@/domain/constants';
import { SIGN_UP_STATUSES, type SignUpRow, type SignUpStatus } from '@/domain/test-plans/types';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { useClassCompletionQuery } from '../api/get-class-completion';
import { useSignUpsQuery } from '../api/list-sign-ups';
import type { PlanFamily } from '../family';
import { reportPath } from '../report-link';

const col = createDataTableColumnHelper<SignUpRow>();
const ALL = '__all';
const STATUS_VARIANT: Record<SignUpStatus, BadgeProps['variant']> = { notTested: 'outline', incomplete: 'warning', complete: 'success' };

/** Sign-up tab: every student in the plan's scope with their result status, filtered by class, status and name. */
export function SignUpTable({ family, planId, schoolYearId }: { family: PlanFamily; planId: string; schoolYearId: string }) {
  const { t } = useTranslation(['testPlanUi', 'testPlan', 'physique', 'common']);
  const [draft, setDraft] = useState<{ classId?: string; status?: SignUpStatus; keyword?: string }>({});
  const [filters, setFilters] = useState(draft);
  const [paging, setPaging] = useState({ current: 1, size: DEFAULT_PAGE_SIZE });
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
          cell: ({ getValue }) => <Badge variant={STATUS_VARIANT[getValue()]}>{t(`testPlan:signUpStatus.${getValue()}`)}</Badge>,
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
                <Link to={reportPath(row.original, schoolYearId)} data-testid="sign-up-report">
                  <FileText aria-hidden />
                  {t('signUp.report')}
                </Link>
              </Button>
            ),
        }),
      ]),
    [t, schoolYearId],
  );

  const all = { value: ALL, label: t('filter.all') };
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="sign-up-table">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ ...draft, keyword: draft.keyword?.trim() || undefined });
          setPaging((p) => ({ ...p, current: 1 }));
        }}
      >
        <div className="grid gap-1.5">
          <Label>{t('signUp.className')}</Label>
          <Select
            className="w-44"
            aria-label={t('signUp.className')}
            value={draft.classId ?? ALL}
            onValueChange={(v) => setDraft({ ...draft, classId: v === ALL ? undefined : v })}
            options={[all, ...(classes.data ?? []).map((c) => ({ value: c.classId, label: c.className }))]}
          />
        </div>
        <div className="grid gap-1.5">
          <Label>{t('signUp.status')}</Label>
          <Select
            className="w-32"
            aria-label={t('signUp.status')}
            value={draft.status ?? ALL}
            onValueChange={(v) => setDraft({ ...draft, status: v === ALL ? undefined : (v as SignUpStatus) })}
            options={[all, ...SIGN_UP_STATUSES.map((s) => ({ value: s, label: t(`testPlan:signUpStatus.${s}`) }))]}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="sign-up-keyword">{t('signUp.keyword')}</Label>
          <Input
            id="sign-up-keyword"
            className="w-52"
            value={draft.keyword ?? ''}
            placeholder={t('signUp.keywordPlaceholder')}
            onChange={(e) => setDraft({ ...draft, keyword: e.target.value })}
          />
        </div>
        <Button type="submit">
          <Search aria-hidden />
          {t('filter.search')}
        </Button>
      </form>
      <DataTable
        aria-label={t('detail.tabs.signUp')}
        columns={columns}
        data={query.data?.records}
        rowKey="studentId"
        loading={query.isFetching}
        pagination={{
          current: paging.current,
          size: paging.size,
          total: query.data?.total ?? 0,
          onChange: (current, size) => setPaging({ current, size }),
        }}
      />
    </div>
  );
}
