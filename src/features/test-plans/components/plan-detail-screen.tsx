import { useState, type ReactNode } from 'react';
import { CalendarClock, Pencil, RefreshCw, Undo2, Upload } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { OK_MSG } from '@/domain/errors';
import { canCorrectDates, canUndoEnd } from '@/domain/test-plans/access';
import { PLAN_MSG } from '@/domain/test-plans/messages';
import type { PlanDetail } from '@/domain/test-plans/types';
import { PageHeader } from '@/components/page-header/page-header';
import { DetailState } from '@/components/query-state/query-state';
import { usePermission } from '@/components/permission-gate/permission-gate';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/lib/toast';
import { Tooltip } from '@/components/ui/tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { plansKey, usePlanQuery } from '../api/plans';
import { useChangePlanDatesMutation } from '../api/reopen-plan';
import { canWriteScores } from '@/domain/physique-results/write-access';
import { planPaths, planPermissions } from '../family';
import type { Family } from '@/domain/menus/access';
import { ClassCompletion } from './class-completion';
import { PlanDatesDialog } from './plan-dates-dialog';
import { PlanOverview } from './plan-overview';
import { PlanStatusBadge } from './plan-status-badge';
import { ScoreImportDialog } from './score-import-dialog';
import { SignUpTable } from './sign-up-table';
import { SyncDialog } from './sync-dialog';
import { formatDateTime } from '@/lib/date-time';

export interface PlanDetailScreenProps {
  family: Family;
  /** The results tab (composed by the app from the scores feature). */
  renderResults?(plan: PlanDetail, version: number): ReactNode;
}

/** organizeTest/testManage/check/:id: overview, sign-up list, class completion, results; import and sync (docs/product-rules.md#test-plans). */
export function PlanDetailScreen({ family, renderResults }: PlanDetailScreenProps) {
  const { t, i18n } = useTranslation(['testPlansUi', 'testPlans', 'common']);
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const perms = planPermissions(family);
  const can = { edit: usePermission(perms.edit), import: usePermission(perms.import) && canWriteScores(family), admin: usePermission(perms.admin) };
  const query = usePlanQuery(family, id);
  const [importing, setImporting] = useState(false);
  const [confirmSync, setConfirmSync] = useState(false);
  const [confirmUndoEnd, setConfirmUndoEnd] = useState(false);
  const [changingDates, setChangingDates] = useState(false);
  const reopen = useChangePlanDatesMutation(family);
  const [tab, setTab] = useState('overview');
  // Bumped after an import or sync so the composed results tab refetches.
  const [version, setVersion] = useState(0);
  const plan = query.data;

  if (!plan) return <DetailState query={query} title={t('detail.title')} notFound={t('detail.notFound')} />;

  const ended = plan.status === 'ended';
  const job = plan.runningJob;
  const jobReason = job ? t(job.kind === 'sync' ? PLAN_MSG.syncRunning : PLAN_MSG.importRunning) : undefined;
  const refresh = () => {
    setVersion((v) => v + 1);
    void client.invalidateQueries({ queryKey: plansKey(family) });
  };

  return (
    <div data-testid="plan-detail" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader
        title={
          <span className="flex items-center gap-3">
            <span className="truncate" data-testid="plan-detail-name">
              {plan.name}
            </span>
            <PlanStatusBadge status={plan.status} />
          </span>
        }
        description={t('detail.subtitle', { term: `${plan.academicYear} ${t(`semester.${plan.semesterCode}`)}`, start: plan.startDate, end: plan.endDate })}
        back={{ safe: true }}
        className="pb-0"
        actions={
          <>
            {can.edit && plan.editable ? (
              <Button variant="outline" onClick={() => void navigate(planPaths(family).edit(plan.id))}>
                <Pencil aria-hidden />
                {t('action.edit')}
              </Button>
            ) : null}
            {can.admin && canUndoEnd(plan, new Date()) ? (
              <Button variant="outline" onClick={() => setConfirmUndoEnd(true)} data-testid="plan-undo-end">
                <Undo2 aria-hidden />
                {t('actionExtra.undoEnd')}
              </Button>
            ) : null}
            {can.admin && canCorrectDates(plan, new Date()) ? (
              <Button variant="outline" onClick={() => setChangingDates(true)} data-testid="plan-correct-dates">
                <CalendarClock aria-hidden />
                {t('actionExtra.correctDates')}
              </Button>
            ) : null}
            {can.import ? (
              <>
                <Tooltip content={ended ? t('testPlans:error.ended') : jobReason}>
                  <span>
                    <Button variant="outline" disabled={ended || Boolean(job)} loading={job?.kind === 'sync'} onClick={() => setConfirmSync(true)} data-testid="plan-sync">
                      <RefreshCw aria-hidden />
                      {t('action.sync')}
                    </Button>
                  </span>
                </Tooltip>
                <Tooltip content={ended ? t('testPlans:error.ended') : undefined}>
                  <span>
                    <Button disabled={ended} onClick={() => setImporting(true)} data-testid="plan-import">
                      <Upload aria-hidden />
                      {t('action.import')}
                    </Button>
                  </span>
                </Tooltip>
              </>
            ) : null}
          </>
        }
      />
      {job ? (
        <p role="status" className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm" data-testid="plan-job">
          {t('detail.jobRunning', { kind: t(`testPlans:jobKind.${job.kind}`), at: formatDateTime(job.startedAt, i18n.language, 'time') })}
        </p>
      ) : null}
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="overview">{t('detail.tabs.overview')}</TabsTrigger>
          <TabsTrigger value="signUp" data-testid="tab-sign-up">
            {t('detail.tabs.signUp')}
          </TabsTrigger>
          <TabsTrigger value="completion" data-testid="tab-completion">
            {t('detail.tabs.completion')}
          </TabsTrigger>
          {renderResults ? (
            <TabsTrigger value="results" data-testid="tab-results">
              {t('detail.tabs.results')}
            </TabsTrigger>
          ) : null}
        </TabsList>
        <TabsContent value="overview">
          <PlanOverview plan={plan} />
        </TabsContent>
        <TabsContent value="signUp">
          <Card>
            <CardContent className="min-w-0">
              <SignUpTable family={family} planId={plan.id} />
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="completion">
          <Card>
            <CardContent className="min-w-0">
              <ClassCompletion family={family} planId={plan.id} />
            </CardContent>
          </Card>
        </TabsContent>
        {renderResults ? (
          <TabsContent value="results">
            <Card>
              <CardContent>{renderResults(plan, version)}</CardContent>
            </Card>
          </TabsContent>
        ) : null}
      </Tabs>
      <ScoreImportDialog family={family} plan={plan} open={importing} onOpenChange={setImporting} onImported={refresh} />
      <PlanDatesDialog family={family} plan={changingDates ? plan : null} onClose={() => setChangingDates(false)} />
      <ConfirmDialog
        open={confirmUndoEnd}
        onOpenChange={setConfirmUndoEnd}
        title={t('confirmExtra.undoEndTitle', { name: plan.name })}
        description={t('confirmExtra.undoEndDescription')}
        confirmText={t('actionExtra.undoEnd')}
        onConfirm={async () => {
          await reopen.mutateAsync({ id: plan.id, reopen: true });
          toast.success(t(OK_MSG.operation));
        }}
      />
      <SyncDialog family={family} plan={plan} open={confirmSync} onOpenChange={setConfirmSync} onSynced={refresh} />
    </div>
  );
}
