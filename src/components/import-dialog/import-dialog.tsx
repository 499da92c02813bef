import { useCallback, useEffect, useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleCheck, Download, FileSpreadsheet, Upload as UploadIcon } from 'lucide-react';
import { IMPORT_PROGRESS_INTERVAL_MS, IMPORT_PROGRESS_MAX, IMPORT_PROGRESS_STEP } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import type { RowUpdate } from '@/domain/people/import-updates';
import { parseImportCounts, type ImportCounts } from '@/domain/uploads/import-result';
import { acceptAttribute, checkUpload } from '@/domain/uploads/rules';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/cn';
import type { JobKind, JobRow } from '@/domain/jobs';
import { downloadJobFile, useFollowJob } from '@/components/jobs/api';
import { JobProgress } from '@/components/jobs/job-progress';
import { saveBlob } from './save-blob';

/** What the import call answers: the failure-records file and its name `<prefix>_<success>_<failure>.xlsx` (docs/product-rules.md#import-files, #calls). */
export interface ImportResult {
  blob: Blob;
  fileName: string;
}

/**
 * An import run as a job (docs/product-rules.md#jobs): the call answers the job's id and the dialog follows the job
 * (its bar and step), which the user may leave to the tasks menu; its result holds the counts and the failures file.
 */
export interface StartedJob {
  jobId: string;
}

const isJob = (answer: ImportResult | StartedJob): answer is StartedJob => 'jobId' in answer;

/** A dry run's answer (docs/product-rules.md#people-import): what the commit would create, update and reject. */
export interface ImportPreview {
  create: number;
  update: number;
  rejected: number;
  /** The first rejected rows with their reasons. */
  failures: readonly { row: number; reason: string }[];
  /** Rows matching an existing record that would change nothing (skipped). */
  unchanged?: number;
  /** The rows that would update an existing record, with each field before → after (docs/product-rules.md#import-updates). */
  updates?: readonly RowUpdate[];
}

/** Dry run first: the file is checked, the dialog shows the check, and only the person's confirmation writes. */
export interface ImportReview<P extends ImportPreview> {
  preview(file: File, onProgress?: (percent: number) => void): Promise<P>;
  /** Writes what the preview checked; resolves with the failures file as `upload` does, or with the job that writes. */
  commit(preview: P): Promise<ImportResult | StartedJob>;
  /** The person cancelled after the preview (the server may drop the kept file). */
  cancel?(preview: P): void;
  /** More lines under the counts (e.g. the parents a student file creates). */
  details?(preview: P): ReactNode;
}

export interface ImportDialogProps<P extends ImportPreview = ImportPreview> {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  description?: ReactNode;
  /** Sends the file (plus whatever `extra` chose) and resolves with the result file. Rejecting shows its message. */
  upload?(file: File, onProgress?: (percent: number) => void): Promise<ImportResult | StartedJob>;
  /**
   * The kind of job `upload` or `commit` starts: the dialog follows it, and opened again while one runs, picks it up
   * (docs/product-rules.md#jobs).
   */
  jobKind?: JobKind;
  /** Dry run first (instead of `upload`): choose → uploading → review (counts, first rejected rows; commit or cancel) → writing → finished. */
  review?: ImportReview<P>;
  /** Link to the template workbook… */
  templateUrl?: string;
  /** …or a handler that downloads it. */
  onDownloadTemplate?(): void;
  /** Fields the import needs first, e.g. school year and semester selects. */
  extra?: ReactNode;
  /** False blocks choosing a file (e.g. year and semester not chosen yet); `blockedReason` says why. */
  canUpload?: boolean;
  blockedReason?: ReactNode;
  /** Called when an import finished, e.g. to refetch the list. */
  onImported?(counts: ImportCounts | null): void;
  /**
   * The 更新已存在的数据 option (docs/product-rules.md#import-updates): shown before choosing a file, off by default;
   * unticked, rows matching existing records are refused and nothing existing changes.
   */
  updateExisting?: { checked: boolean; onChange(checked: boolean): void };
}

/** Dialog states (docs/product-rules.md#import-files): 0 choose file, 1 uploading, 2 finished; 'review' shows a dry run between 1 and 2. */
type Status = 0 | 1 | 'review' | 'job' | 2;

/**
 * The import dialog of docs/product-rules.md#import-files: .xlsx only; while uploading the bar rises 10 every 500 ms and stops at
 * 90; then success and failure counts read from the result file name, with an export of the failures.
 * Cancel or OK closes it and it starts again at state 0.
 */
export function ImportDialog<P extends ImportPreview = ImportPreview>({ open, onOpenChange, title, description, ...body }: ImportDialogProps<P>) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-slot="import-dialog" className={body.review ? 'sm:max-w-2xl' : 'sm:max-w-lg'}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description ? <DialogDescription>{description}</DialogDescription> : null}
        </DialogHeader>
        {/* Mounted only while open, so closing always resets to state 0. */}
        {open ? body.jobKind ? <JobImportBody<P> {...body} jobKind={body.jobKind} close={() => onOpenChange(false)} /> : <ImportDialogBody<P> {...body} follow={null} close={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

type BodyProps<P extends ImportPreview> = Omit<ImportDialogProps<P>, 'open' | 'onOpenChange' | 'title' | 'description'> & { close(): void };

/** The job this dialog follows (useFollowJob) and where its end is reported. */
interface Follow {
  job: JobRow | null;
  working: boolean;
  start(id: string): void;
  /** Names what runs when the job is over. */
  onFinished(handler: (job: JobRow) => void): void;
}

/** A dialog whose import runs as a job: follows the job of its kind, the one started here or one still running. */
function JobImportBody<P extends ImportPreview>(props: BodyProps<P> & { jobKind: JobKind }) {
  const onFinished = useRef<((job: JobRow) => void) | null>(null);
  const report = useCallback((job: JobRow) => onFinished.current?.(job), []);
  const register = useCallback((handler: (job: JobRow) => void) => {
    onFinished.current = handler;
  }, []);
  const { job, working, start } = useFollowJob(props.jobKind, report);
  return <ImportDialogBody<P> {...props} follow={{ job, working, start, onFinished: register }} />;
}

function ImportDialogBody<P extends ImportPreview>({
  upload,
  review,
  follow,
  templateUrl,
  onDownloadTemplate,
  extra,
  canUpload = true,
  blockedReason,
  onImported,
  updateExisting,
  close,
}: BodyProps<P> & { follow: Follow | null }) {
  const { t } = useTranslation(['components', 'errors', 'jobs']);
  const inputId = useId();
  const updateHintId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<Status>(0);
  const [progress, setProgress] = useState(0);
  const [fileName, setFileName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [checked, setChecked] = useState<P | null>(null);
  const [dragging, setDragging] = useState(false);
  // Set when the dialog closes mid-upload: the late answer is then ignored.
  const gone = useRef(false);
  useEffect(() => {
    gone.current = false;
    return () => {
      gone.current = true;
    };
  }, []);

  const [finishedJob, setFinishedJob] = useState<JobRow | null>(null);
  const onJobFinished = useCallback(
    (job: JobRow) => {
      if (gone.current) return;
      if (job.state === 'failed') {
        toast.error(job.error ?? t(ERR.uploadFailed));
        setStatus(0);
        setProgress(0);
        return;
      }
      const counts = job.result?.counts;
      setFinishedJob(job);
      setResult(null);
      setProgress(100);
      setStatus(2);
      onImported?.(counts ? { success: counts.success ?? 0, failure: counts.failure ?? 0 } : null);
    },
    [onImported, t],
  );
  // The job of this screen, started here or still running from an earlier visit (docs/product-rules.md#jobs).
  useEffect(() => {
    follow?.onFinished(onJobFinished);
  }, [follow, onJobFinished]);
  const jobStep = !!follow && (status === 'job' || (status === 0 && follow.working));

  // +10 every 500 ms, stopping at 90 until the server answers (docs/product-rules.md#import-files).
  useEffect(() => {
    if (status !== 1) return;
    const id = setInterval(() => setProgress((p) => Math.min(p + IMPORT_PROGRESS_STEP, IMPORT_PROGRESS_MAX)), IMPORT_PROGRESS_INTERVAL_MS);
    return () => clearInterval(id);
  }, [status]);

  const start = async (file: File) => {
    setError(null);
    if (!canUpload) {
      if (blockedReason) toast.warning(blockedReason);
      return;
    }
    const problem = checkUpload('excel', file);
    if (problem) {
      setError(t(problem));
      return;
    }
    setFileName(file.name);
    setProgress(0);
    setStatus(1);
    const onProgress = (p: number) => setProgress((cur) => Math.max(cur, Math.min(p, IMPORT_PROGRESS_MAX)));
    try {
      if (review) {
        const answer = await review.preview(file, onProgress);
        if (gone.current) return;
        setChecked(answer);
        setStatus('review');
        return;
      }
      finish(await upload!(file, onProgress));
    } catch (e) {
      failed(e);
    }
  };

  const finish = (answer: ImportResult | StartedJob) => {
    if (gone.current) return;
    if (isJob(answer)) {
      follow?.start(answer.jobId);
      setStatus('job');
      return;
    }
    setResult(answer);
    setProgress(100);
    setStatus(2);
    onImported?.(parseImportCounts(answer.fileName));
  };
  const failed = (e: unknown) => {
    if (gone.current) return;
    toast.error(e instanceof Error && e.message ? e.message : t(ERR.uploadFailed));
    setStatus(0);
    setProgress(0);
  };

  const commit = async () => {
    if (!review || !checked) return;
    setProgress(0);
    setStatus(1);
    try {
      finish(await review.commit(checked));
    } catch (e) {
      failed(e);
    }
  };
  const cancel = () => {
    if (status === 'review' && checked) review?.cancel?.(checked);
    close();
  };

  const pick = (files: FileList | null) => {
    const file = files?.[0];
    if (inputRef.current) inputRef.current.value = '';
    if (file) void start(file);
  };

  const onDrop = (e: DragEvent<HTMLLabelElement>) => {
    e.preventDefault();
    setDragging(false);
    pick(e.dataTransfer.files);
  };

  const jobCounts = finishedJob?.result?.counts;
  const counts = result ? parseImportCounts(result.fileName) : jobCounts ? { success: jobCounts.success ?? 0, failure: jobCounts.failure ?? 0 } : null;
  const saveFailures = () => {
    if (result) saveBlob(result.blob, result.fileName);
    else if (finishedJob) void downloadJobFile(finishedJob).catch((e: unknown) => toast.error(e instanceof Error ? e.message : String(e)));
  };

  return (
    <>
      {jobStep ? (
        <div className="flex flex-col gap-3 py-2" data-slot="import-job">
          {fileName ? (
            <div className="flex items-center gap-2 text-sm text-foreground">
              <FileSpreadsheet aria-hidden className="size-4 shrink-0 text-success" />
              <span className="truncate">{fileName}</span>
            </div>
          ) : null}
          {follow?.job ? <JobProgress job={follow.job} /> : <p className="text-sm text-muted-foreground">{t('jobs:state.queued')}</p>}
          <p className="text-xs text-muted-foreground">{t('jobs:leaveHintResult')}</p>
        </div>
      ) : null}

      {status === 0 && !jobStep ? (
        <div className="flex flex-col gap-4">
          {extra ? <div className="flex flex-col gap-3">{extra}</div> : null}
          {updateExisting ? (
            <div className="flex flex-col gap-1" data-slot="import-update-existing">
              <label className="flex items-center gap-2 text-sm font-medium text-foreground">
                <Checkbox
                  checked={updateExisting.checked}
                  onCheckedChange={(c) => updateExisting.onChange(c === true)}
                  aria-describedby={updateHintId}
                  data-testid="import-update-existing"
                />
                {t('importDialog.updateExisting')}
              </label>
              <p id={updateHintId} className="pl-6 text-xs text-muted-foreground">
                {t('importDialog.updateExistingHint')}
              </p>
            </div>
          ) : null}
          <label
            htmlFor={inputId}
            data-slot="import-dropzone"
            aria-disabled={!canUpload || undefined}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            onClick={(e) => {
              if (!canUpload) {
                e.preventDefault();
                if (blockedReason) toast.warning(blockedReason);
              }
            }}
            className={cn(
              'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed border-border px-6 py-8 text-center transition-colors hover:border-primary/60 hover:bg-accent/40',
              dragging && 'border-primary bg-accent/60',
              !canUpload && 'cursor-not-allowed opacity-60 hover:border-border hover:bg-transparent',
            )}
          >
            <UploadIcon aria-hidden className="size-8 text-primary" />
            <span className="text-sm font-medium text-foreground">{t('importDialog.choose')}</span>
            <span className="text-xs text-muted-foreground">{t('importDialog.onlyXlsx')}</span>
          </label>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            className="sr-only"
            accept={acceptAttribute('excel')}
            disabled={!canUpload}
            aria-label={t('importDialog.fileInput')}
            onChange={(e) => pick(e.target.files)}
          />
          {!canUpload && blockedReason ? <p className="text-sm text-warning">{blockedReason}</p> : null}
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
          {templateUrl || onDownloadTemplate ? (
            <div className="text-sm text-muted-foreground">
              {templateUrl ? (
                <Button variant="link" className="h-auto p-0" asChild>
                  <a href={templateUrl} download>
                    <Download aria-hidden className="size-4" />
                    {t('importDialog.template')}
                  </a>
                </Button>
              ) : (
                <Button variant="link" className="h-auto p-0" onClick={onDownloadTemplate}>
                  <Download aria-hidden className="size-4" />
                  {t('importDialog.template')}
                </Button>
              )}
            </div>
          ) : null}
        </div>
      ) : null}

      {status === 1 ? (
        <div className="flex flex-col gap-3 py-2" data-slot="import-uploading">
          <div className="flex items-center gap-2 text-sm text-foreground">
            <FileSpreadsheet aria-hidden className="size-4 shrink-0 text-success" />
            <span className="truncate">{fileName}</span>
          </div>
          <div
            role="progressbar"
            aria-label={t('importDialog.progress')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
            className="h-2 w-full overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full rounded-full bg-primary transition-[width] duration-300" style={{ width: `${progress}%` }} />
          </div>
          <p className="text-sm text-muted-foreground">{checked ? t('importDialog.review.committing') : t('importDialog.uploading', { progress })}</p>
        </div>
      ) : null}

      {status === 'review' && checked && review ? (
        <ReviewStep preview={checked} details={review.details?.(checked)} fileName={fileName} updatesOff={updateExisting ? !updateExisting.checked : false} />
      ) : null}

      {status === 2 ? (
        <div className="flex flex-col items-center gap-3 py-4 text-center" data-slot="import-finished">
          <CircleCheck aria-hidden className="size-10 text-success" />
          <p className="text-base font-medium text-foreground">{t('importDialog.finished')}</p>
          {counts ? (
            <p className="text-sm text-muted-foreground">
              <span>{t('importDialog.successLabel')}</span>
              <strong data-slot="import-success" className="mx-1 text-success">
                {counts.success}
              </strong>
              <span className="mr-3">{t('importDialog.rows')}</span>
              <span>{t('importDialog.failureLabel')}</span>
              <strong data-slot="import-failure" className={cn('mx-1', counts.failure > 0 ? 'text-destructive' : 'text-foreground')}>
                {counts.failure}
              </strong>
              <span>{t('importDialog.rows')}</span>
            </p>
          ) : null}
          {counts && counts.failure > 0 && (result || finishedJob?.result?.fileId) ? (
            <Button variant="outline" onClick={saveFailures}>
              <Download aria-hidden className="size-4" />
              {t('importDialog.exportFailures')}
            </Button>
          ) : null}
        </div>
      ) : null}

      <DialogFooter>
        {status === 2 ? (
          <Button onClick={close}>{t('importDialog.ok')}</Button>
        ) : jobStep ? (
          <Button variant="outline" onClick={close} data-testid="import-job-close">
            {t('jobs:close')}
          </Button>
        ) : (
          <Button variant="outline" onClick={cancel}>
            {t('importDialog.cancel')}
          </Button>
        )}
        {status === 'review' && checked ? (
          <Button onClick={() => void commit()} disabled={checked.create + checked.update === 0} data-testid="import-commit">
            {t('importDialog.review.commit')}
          </Button>
        ) : null}
      </DialogFooter>
    </>
  );
}

/** The dry run's counts, every row it would update (fields before → after) and its first rejected rows. */
function ReviewStep({ preview, details, fileName, updatesOff }: { preview: ImportPreview; details: ReactNode; fileName: string; updatesOff: boolean }) {
  const { t } = useTranslation('components');
  const counts = [
    { key: 'create', value: preview.create, tone: 'text-success' },
    { key: 'update', value: preview.update, tone: 'text-primary' },
    { key: 'rejected', value: preview.rejected, tone: preview.rejected > 0 ? 'text-destructive' : 'text-foreground' },
  ] as const;
  return (
    <div className="flex min-w-0 flex-col gap-3" data-slot="import-review">
      <div className="flex items-center gap-2 text-sm text-foreground">
        <FileSpreadsheet aria-hidden className="size-4 shrink-0 text-success" />
        <span className="truncate">{fileName}</span>
      </div>
      <p className="text-sm font-medium text-foreground">{t('importDialog.review.summary')}</p>
      <dl className="grid grid-cols-3 gap-2">
        {counts.map((c) => (
          <div key={c.key} className="rounded-md border border-border px-3 py-2" data-slot={`import-review-${c.key}`}>
            <dt className="text-xs text-muted-foreground">{t(`importDialog.review.${c.key}`)}</dt>
            <dd className={cn('text-xl font-semibold tabular-nums', c.tone)}>
              {c.value}
              <span className="ml-1 text-xs font-normal text-muted-foreground">{t('importDialog.review.rows')}</span>
            </dd>
          </div>
        ))}
      </dl>
      {details || preview.unchanged ? (
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
          {details}
          {preview.unchanged ? (
            <span data-slot="import-review-unchanged">{t('importDialog.review.unchanged', { count: preview.unchanged })}</span>
          ) : null}
        </div>
      ) : null}
      {updatesOff ? <p className="text-xs text-muted-foreground">{t('importDialog.review.updatesOff')}</p> : null}
      {preview.updates && preview.updates.length > 0 ? <UpdatedRows updates={preview.updates} total={preview.update} /> : null}
      {preview.create + preview.update === 0 ? <p className="text-sm text-warning">{t('importDialog.review.nothingToImport')}</p> : null}
      {preview.failures.length > 0 ? (
        <section aria-labelledby="import-review-rejected" className="flex min-w-0 flex-col gap-1">
          <h3 id="import-review-rejected" className="text-sm font-medium text-foreground">
            {t('importDialog.review.firstRejected', { count: preview.failures.length })}
          </h3>
          <ul className="max-h-56 overflow-y-auto rounded-md border border-border text-sm" data-slot="import-review-failures">
            {preview.failures.map((f) => (
              <li key={f.row} className="border-b border-border px-3 py-1.5 break-words text-destructive last:border-b-0">
                {f.reason}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** The rows a commit would update: row number, whom, and each changed field before → after. */
function UpdatedRows({ updates, total }: { updates: readonly RowUpdate[]; total: number }) {
  const { t } = useTranslation('components');
  const listed = updates.length;
  return (
    <section aria-labelledby="import-review-updates" className="flex min-w-0 flex-col gap-1">
      <h3 id="import-review-updates" className="text-sm font-medium text-foreground">
        {total > listed ? t('importDialog.review.updatesListed', { count: total, listed }) : t('importDialog.review.updates', { count: Math.max(total, listed) })}
      </h3>
      <ul className="max-h-56 overflow-y-auto rounded-md border border-border text-sm" data-slot="import-review-updates">
        {updates.map((u) => (
          <li key={u.row} className="border-b border-border px-3 py-1.5 last:border-b-0">
            <div className="flex flex-wrap gap-x-2 font-medium text-foreground">
              <span className="text-muted-foreground tabular-nums">{t('importDialog.review.row', { row: u.row })}</span>
              <span className="break-all">{u.who}</span>
            </div>
            <dl className="mt-0.5 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
              {u.changes.map((c) => (
                <div key={c.field} className="contents">
                  <dt className="text-muted-foreground">{c.label}</dt>
                  <dd className="break-words text-foreground">
                    <span className="text-muted-foreground line-through">{c.before || t('importDialog.review.empty')}</span>
                    <span className="mx-1.5 text-muted-foreground">→</span>
                    <span className="font-medium text-primary">{c.after || t('importDialog.review.empty')}</span>
                  </dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
