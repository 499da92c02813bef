import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AlertTriangle } from 'lucide-react';
import { WARNING_KINDS, type DistrictWarningRow, type WarningCounts } from '@/domain/warnings/warnings';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { PermissionGate, usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useDistrictWarnings, useWarningSummary, warningKey, type WarningFamily } from '../api';

function Figure({ label, value, testId }: { label: string; value: number; testId?: string }) {
  const { i18n } = useTranslation();
  return (
    <div className="grid gap-1 rounded-md border px-3 py-2" data-testid={testId}>
      <span className="text-xs text-muted-foreground">{label}</span>
      <span className="text-xl font-semibold tabular-nums">{value.toLocaleString(i18n.language.replace('_', '-'))}</span>
    </div>
  );
}

function Counts({ counts }: { counts: WarningCounts }) {
  const { t } = useTranslation('warnings');
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 xl:grid-cols-7">
      {WARNING_KINDS.map((k) => (
        <Figure key={k} label={t(`kind.${k}`)} value={counts.byKind[k]} testId={`warning-count-${k}`} />
      ))}
      <Figure label={t('summary.students')} value={counts.students} testId="warning-count-students" />
      <Figure label={t('summary.openCases')} value={counts.openCases} testId="warning-count-open" />
      <Figure label={t('summary.closedCases')} value={counts.closedCases} testId="warning-count-closed" />
    </div>
  );
}

/**
 * The principal's card on the school data centre (docs/product-rules.md#warnings): warnings by kind, students warned
 * and cases open and closed in the current school year, linking to the warning list for those who may open it.
 */
export function WarningSummaryCard({ family }: { family: WarningFamily }) {
  const { t } = useTranslation('warnings');
  const query = useWarningSummary(family);
  const access = usePageAccess(warningKey(family));
  const s = query.data;
  return (
    <Card data-testid="warning-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <AlertTriangle aria-hidden className="size-4 text-warning" />
          {t('card.title')}
        </CardTitle>
        <CardDescription>{s?.academicYear ? t('card.description', { year: s.academicYear }) : null}</CardDescription>
        <PermissionGate permission={access.view}>
          <CardAction>
            <Button asChild variant="outline" size="sm">
              <Link to={access.paths.list} data-testid="warning-card-link">
                {t('card.openList')}
              </Link>
            </Button>
          </CardAction>
        </PermissionGate>
      </CardHeader>
      <CardContent>
        <QueryState query={query} data={s}>
          {(s) => <Counts counts={s} />}
        </QueryState>
      </CardContent>
    </Card>
  );
}

const col = createDataTableColumnHelper<DistrictWarningRow>();

/** The district overview's warnings per school (counts only): warned students, each kind, open and closed cases. */
export function DistrictWarningsCard() {
  const { t } = useTranslation('warnings');
  const query = useDistrictWarnings();
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('orgName', { header: t('card.school') }),
        col.accessor('students', { header: t('card.total'), meta: { align: 'right' }, cell: ({ getValue }) => <span className="tabular-nums">{getValue()}</span> }),
        ...WARNING_KINDS.map((k) =>
          col.display({ id: k, header: t(`kind.${k}`), meta: { align: 'right' }, cell: ({ row }) => <span className="tabular-nums">{row.original.byKind[k]}</span> }),
        ),
        col.accessor('openCases', { header: t('card.open'), meta: { align: 'right' }, cell: ({ getValue }) => <span className="tabular-nums">{getValue()}</span> }),
        col.accessor('closedCases', { header: t('card.closed'), meta: { align: 'right' }, cell: ({ getValue }) => <span className="tabular-nums">{getValue()}</span> }),
      ]),
    [t],
  );
  return (
    <Card data-testid="district-warnings">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <AlertTriangle aria-hidden className="size-4 text-warning" />
          {t('card.schools')}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <QueryState query={query} data={query.data}>
          {(rows) => <DataTable columns={columns} data={rows} rowKey="orgId" phone={{ mode: 'scroll' }} />}
        </QueryState>
      </CardContent>
    </Card>
  );
}
