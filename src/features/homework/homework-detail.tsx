import { useEffect, useMemo, useState } from 'react';
import { CheckCircle2, Download, Pencil, Play, Square, XCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { REVIEW_FILTERS, REVIEW_STATE_TABLE, videoReviewSchema, type HomeworkClassCompletion, type HomeworkDetail, type HomeworkStudentCompletion, type HomeworkSubmission } from '@/domain/homework/homework';
import { enumOptions } from '@/domain/presentation';
import { OK_MSG } from '@/domain/errors';
import { filePaths } from '@/domain/uploads/stored-file';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { usePaging } from '@/components/data-table/data-table-pagination';
import { TextareaField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import { PageHeader } from '@/components/page-header/page-header';
import { DetailState } from '@/components/query-state/query-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { FilterSelect } from '@/components/search-form/search-form';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/lib/toast';
import { download } from '@/lib/api-client';
import { exportHomework, homework, homeworkKey, useClassCompletion, useEndHomework, useReviewSubmission, useStudentCompletion, useSubmissions, type HomeworkFamily } from './api';
import { ItemTargets, TaskStatusBadge, useItemLabels } from '../../components/activities/task-items-field';
import { useDateTime } from '@/lib/date-time';

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

/** sportsHomework/homeworkManagement/detail/:id: the homework, completion per class and per student, submissions with video review. */
export function HomeworkDetailScreen({ family }: { family: HomeworkFamily }) {
  const { t } = useTranslation('homework');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const access = usePageAccess(homeworkKey(family));
  const query = homework(family).useGet(id);
  const end = useEndHomework();
  const [ending, setEnding] = useState(false);
  const [exporting, setExporting] = useState(false);
  const labels = useItemLabels();
  const hw = query.data;

  if (!hw) return <DetailState query={query} title={t('detailTitle')} notFound={t('notFound')} />;
  const open = hw.status !== 'ended';
  return (
    <div data-testid="homework-detail" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader
        title={
          <span className="flex items-center gap-3">
            <span className="truncate">{hw.name}</span>
            <TaskStatusBadge status={hw.status} />
          </span>
        }
        description={`${labels.cycle(hw.cycle)} · ${t('activities:task.periodRange', { start: hw.startDate, end: hw.endDate })}${family === 'admin' ? ` · ${hw.schoolName}` : ''}`}
        back={{ safe: true }}
        actions={
          <>
            {access.can('export') ? (
              <Button
                variant="outline"
                loading={exporting}
                onClick={() => {
                  setExporting(true);
                  void exportHomework(family, hw.id).finally(() => setExporting(false));
                }}
                data-testid="homework-export"
              >
                <Download aria-hidden />
                {t('menus:button.export')}
              </Button>
            ) : null}
            {family === 'k12' && open && access.can('edit') ? (
              <Button variant="outline" onClick={() => void navigate(access.paths.edit!(hw.id))}>
                <Pencil aria-hidden />
                {t('menus:button.edit')}
              </Button>
            ) : null}
            {family === 'k12' && open && access.can('end') ? (
              <Button variant="outline" onClick={() => setEnding(true)} data-testid="homework-end">
                <Square aria-hidden />
                {t('menus:button.end')}
              </Button>
            ) : null}
          </>
        }
      />
      <Overview hw={hw} />
      <Tabs defaultValue="classes">
        <TabsList>
          <TabsTrigger value="classes">{t('tab.classes')}</TabsTrigger>
          <TabsTrigger value="students">{t('tab.students')}</TabsTrigger>
          <TabsTrigger value="submissions" data-testid="homework-tab-submissions">
            {t('tab.submissions')}
            {hw.pendingReviews > 0 ? (
              <Badge variant="warning" className="ml-1">
                {hw.pendingReviews}
              </Badge>
            ) : null}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="classes">
          <ClassTable family={family} hw={hw} />
        </TabsContent>
        <TabsContent value="students">
          <StudentTable family={family} hw={hw} />
        </TabsContent>
        <TabsContent value="submissions">
          <SubmissionTable family={family} hw={hw} canReview={family === 'k12' && access.can('edit')} />
        </TabsContent>
      </Tabs>
      <ConfirmDialog
        open={ending}
        onOpenChange={setEnding}
        title={t('endTitle', { name: hw.name })}
        description={t('endText')}
        onConfirm={async () => {
          await end.mutateAsync(hw.id);
          toast.success(t(OK_MSG.operation));
        }}
      />
    </div>
  );
}

function Overview({ hw }: { hw: HomeworkDetail }) {
  const { t } = useTranslation('homework');
  const facts: [string, React.ReactNode][] = [
    [t('classes'), hw.classes.map((c) => c.name).join(t('activities:task.separator'))],
    [t('activities:task.items'), <ItemTargets key="items" items={hw.items} />],
    [t('periodsDue'), t('periodsOf', { due: hw.periodsDue, total: hw.periodsTotal })],
    [t('doneOfStudents'), t('doneRatio', { done: hw.doneCount, total: hw.studentCount })],
    [t('note'), hw.note || t('activities:task.none')],
    [t('createdBy'), hw.createdByName ?? t('activities:task.none')],
  ];
  return (
    <Card>
      <CardContent>
        <dl className="grid gap-x-8 gap-y-3 md:grid-cols-2">
          {facts.map(([label, value]) => (
            <div key={label} className="grid grid-cols-[8rem_minmax(0,1fr)] gap-2 text-sm">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="break-words">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

const classCol = createDataTableColumnHelper<HomeworkClassCompletion>();

function ClassTable({ family, hw }: { family: HomeworkFamily; hw: HomeworkDetail }) {
  const { t } = useTranslation('homework');
  const query = useClassCompletion(family, hw.id);
  const columns = useMemo(
    () =>
      classCol.columns([
        classCol.accessor('className', { header: t('className') }),
        classCol.accessor('students', { header: t('students'), meta: { align: 'right' } }),
        classCol.accessor('submitted', { header: t('submitted'), meta: { align: 'right' } }),
        classCol.accessor('done', { header: t('done'), meta: { align: 'right' } }),
        classCol.accessor('rate', { header: t('rate'), meta: { align: 'right' }, cell: ({ getValue }) => percent(getValue()) }),
      ]),
    [t],
  );
  return (
    <Card>
      <CardContent>
        <DataTable columns={columns} data={query.data} rowKey="classId" loading={query.isPending} aria-label={t('tab.classes')} phone={{ mode: 'scroll' }} />
      </CardContent>
    </Card>
  );
}

const studentCol = createDataTableColumnHelper<HomeworkStudentCompletion>();

function StudentTable({ family, hw }: { family: HomeworkFamily; hw: HomeworkDetail }) {
  const { t } = useTranslation('homework');
  const { paging, pagination, toFirstPage } = usePaging();
  const [classId, setClassId] = useState('');
  const [done, setDone] = useState('');
  const query = useStudentCompletion(family, hw.id, { ...paging, classId, done });
  const columns = useMemo(
    () =>
      studentCol.columns([
        studentCol.accessor('studentName', { header: t('student'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        studentCol.accessor('studentNo', { header: t('studentNo') }),
        studentCol.accessor('className', { header: t('className') }),
        studentCol.accessor('submissions', { header: t('submissions'), meta: { align: 'right' } }),
        studentCol.display({
          id: 'periods',
          header: t('periodsDone'),
          meta: { align: 'right' },
          cell: ({ row }) => t('periodsOf', { due: row.original.periodsDone, total: row.original.periodsDue }),
        }),
        studentCol.accessor('done', {
          header: t('done'),
          cell: ({ getValue }) => <Badge variant={getValue() ? 'success' : 'outline'}>{t(getValue() ? 'doneYes' : 'doneNo')}</Badge>,
        }),
      ]),
    [t],
  );
  return (
    <Card>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap gap-4">
          <FilterSelect
            label={t('className')}
            value={classId}
            onChange={(v) => {
              setClassId(v ?? '');
              toFirstPage();
            }}
            options={hw.classes.map((c) => ({ value: c.id, label: c.name }))}
          />
          <FilterSelect
            label={t('done')}
            value={done}
            onChange={(v) => {
              setDone(v ?? '');
              toFirstPage();
            }}
            options={[
              { value: 'yes', label: t('doneYes') },
              { value: 'no', label: t('doneNo') },
            ]}
          />
        </div>
        <DataTable
          columns={columns}
          data={query.data?.records}
          rowKey="studentId"
          loading={query.isPending}
          pagination={pagination(query.data?.total ?? 0)}
          aria-label={t('tab.students')}
          phone={{ badge: 'done' }}
        />
      </CardContent>
    </Card>
  );
}

const subCol = createDataTableColumnHelper<HomeworkSubmission>();

function SubmissionTable({ family, hw, canReview }: { family: HomeworkFamily; hw: HomeworkDetail; canReview: boolean }) {
  const { t } = useTranslation('homework');
  const labels = useItemLabels();
  const { paging, pagination, toFirstPage } = usePaging();
  const [classId, setClassId] = useState('');
  const [review, setReview] = useState('');
  const query = useSubmissions(family, hw.id, { ...paging, classId, review });
  const [playing, setPlaying] = useState<HomeworkSubmission | null>(null);
  const [judging, setJudging] = useState<HomeworkSubmission | null>(null);
  const mutation = useReviewSubmission();
  const dateTime = useDateTime();
  const columns = useMemo(
    () =>
      subCol.columns([
        subCol.accessor('studentName', { header: t('student'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        subCol.accessor('className', { header: t('className') }),
        subCol.accessor('item', { header: t('activities:task.itemLabel'), cell: ({ getValue }) => labels.item(getValue()) }),
        subCol.accessor('value', {
          header: t('value'),
          meta: { align: 'right' },
          cell: ({ row }) => (
            <span className={row.original.reached ? 'text-success' : undefined}>
              {labels.value(row.original.item, row.original.value)}
              <span className="ml-1 text-xs text-muted-foreground">{t('targetShort', { value: row.original.target })}</span>
            </span>
          ),
        }),
        subCol.accessor('measuredAt', { header: t('measuredAt'), cell: ({ getValue }) => dateTime(getValue()) }),
        subCol.accessor('review', {
          header: t('review'),
          cell: ({ row }) => (
            <span className="flex flex-col gap-0.5">
              <EnumBadge table={REVIEW_STATE_TABLE} value={row.original.review} data-testid="review-state" data-review={row.original.review} />
              {row.original.reviewReason ? <span className="text-xs text-muted-foreground">{row.original.reviewReason}</span> : null}
            </span>
          ),
        }),
        subCol.display({
          id: 'actions',
          header: t('components:list.actions'),
          meta: { align: 'right', className: 'whitespace-nowrap', pin: 'right' },
          cell: ({ row }) => {
            const r = row.original;
            const reviewable = canReview && r.videoFileId !== null && r.review !== 'expired';
            return (
              <div className="flex justify-end gap-1">
                {r.videoFileId ? (
                  <Button variant="ghost" size="sm" onClick={() => setPlaying(r)} data-testid="play-video">
                    <Play aria-hidden />
                    {t('play')}
                  </Button>
                ) : null}
                {reviewable && r.review !== 'valid' ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    data-testid="review-valid"
                    onClick={() =>
                      void mutation.mutateAsync({ recordId: r.id, review: { verdict: 'valid' } }).then(
                        () => toast.success(t(OK_MSG.saved)),
                        (e: unknown) => toast.error(e instanceof Error ? e.message : String(e)),
                      )
                    }
                  >
                    <CheckCircle2 aria-hidden />
                    {t('markValid')}
                  </Button>
                ) : null}
                {reviewable && r.review !== 'invalid' ? (
                  <Button variant="ghost" size="sm" className="text-destructive" onClick={() => setJudging(r)} data-testid="review-invalid">
                    <XCircle aria-hidden />
                    {t('markInvalid')}
                  </Button>
                ) : null}
              </div>
            );
          },
        }),
      ]),
    [t, labels, canReview, mutation, dateTime],
  );
  return (
    <Card>
      <CardContent className="grid gap-4">
        <p className="text-sm text-muted-foreground">{t('videoKept')}</p>
        <div className="flex flex-wrap gap-4">
          <FilterSelect
            label={t('className')}
            value={classId}
            onChange={(v) => {
              setClassId(v ?? '');
              toFirstPage();
            }}
            options={hw.classes.map((c) => ({ value: c.id, label: c.name }))}
          />
          <FilterSelect
            label={t('review')}
            value={review}
            onChange={(v) => {
              setReview(v ?? '');
              toFirstPage();
            }}
            options={enumOptions(REVIEW_STATE_TABLE, t, REVIEW_FILTERS)}
            data-testid="review-filter"
          />
        </div>
        <DataTable
          columns={columns}
          data={query.data?.records}
          rowKey="id"
          loading={query.isPending}
          pagination={pagination(query.data?.total ?? 0)}
          aria-label={t('tab.submissions')}
          // On a phone: the review state beside the name, the play and verdict buttons as the card's last line.
          phone={{ badge: 'review', fields: ['className', 'item', 'value', 'measuredAt'] }}
        />
      </CardContent>
      <VideoDialog submission={playing} onClose={() => setPlaying(null)} />
      <InvalidDialog
        submission={judging}
        onClose={() => setJudging(null)}
        onSubmit={async (reason) => {
          await mutation.mutateAsync({ recordId: judging!.id, review: { verdict: 'invalid', reason } });
          toast.success(t(OK_MSG.saved));
          setJudging(null);
        }}
      />
    </Card>
  );
}

/** Plays a submission's video: fetched with the session (a <video src> would carry no token). */
function VideoDialog({ submission, onClose }: { submission: HomeworkSubmission | null; onClose(): void }) {
  const { t } = useTranslation('homework');
  const dateTime = useDateTime();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const fileId = submission?.videoFileId;
  useEffect(() => {
    if (!fileId) return;
    let gone = false;
    let made: string | null = null;
    download(filePaths.content(fileId)).then(
      (f) => {
        if (gone) return;
        made = URL.createObjectURL(f.blob);
        setUrl(made);
      },
      () => !gone && setFailed(true),
    );
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
      setUrl(null);
      setFailed(false);
    };
  }, [fileId]);
  return (
    <Dialog open={submission !== null} onOpenChange={(o) => (o ? undefined : onClose())}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t('videoTitle', { name: submission?.studentName ?? '' })}</DialogTitle>
          <DialogDescription>{submission?.videoUntil ? t('videoUntil', { date: dateTime(submission.videoUntil) }) : null}</DialogDescription>
        </DialogHeader>
        {failed ? <p role="alert">{t('videoFailed')}</p> : url ? <video src={url} controls className="max-h-[60vh] w-full rounded-md bg-black" /> : <Skeleton className="h-64 w-full" />}
      </DialogContent>
    </Dialog>
  );
}

/** The "invalid" verdict of the review schema: a reason is required (the same rule as the server's). */
const invalidReviewSchema = videoReviewSchema.options[1];

/** Marks a video invalid with its reason; a refusal stays in the dialog. */
function InvalidDialog({ submission, onClose, onSubmit }: { submission: HomeworkSubmission | null; onClose(): void; onSubmit(reason: string): Promise<void> }) {
  const { t } = useTranslation('homework');
  return (
    <FormDialog
      open={submission !== null}
      onOpenChange={(o) => (o ? undefined : onClose())}
      schema={invalidReviewSchema}
      defaults={{ verdict: 'invalid', reason: '' }}
      title={t('invalidTitle', { name: submission?.studentName ?? '' })}
      description={t('invalidText')}
      submit={({ reason }) => onSubmit(reason)}
      success={false}
      destructive
      submitText={t('markInvalid')}
      submitTestId="review-invalid-confirm"
    >
      {() => <TextareaField name="reason" label={t('reason')} required inputTestId="review-reason" />}
    </FormDialog>
  );
}
