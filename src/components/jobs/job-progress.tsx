import { useState } from 'react';
import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { jobPercent, type JobRow } from '@/domain/jobs';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/cn';
import { downloadJobFile } from './api';

const STATE_VARIANT = { queued: 'secondary', running: 'default', done: 'success', failed: 'destructive' } as const;

/** A job's bar, step and outcome (docs/product-rules.md#jobs): the tasks panel and the screen that started it show the same. */
export function JobProgress({ job, className, showKind = false }: { job: JobRow; className?: string; showKind?: boolean }) {
  const { t } = useTranslation('jobs');
  const [saving, setSaving] = useState(false);
  const percent = jobPercent(job);
  const save = async () => {
    setSaving(true);
    try {
      await downloadJobFile(job);
    } catch (e) {
      toast.error(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className={cn('grid gap-1.5 text-sm', className)} data-testid="job-progress" data-state={job.state}>
      <div className="flex items-center justify-between gap-2">
        <span className="min-w-0 truncate font-medium">{showKind || !job.stage ? t(`kind.${job.kind}`) : job.stage}</span>
        <Badge variant={STATE_VARIANT[job.state]}>{t(`state.${job.state}`)}</Badge>
      </div>
      {job.state === 'failed' ? null : (
        <div
          role="progressbar"
          aria-label={t(`kind.${job.kind}`)}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2 overflow-hidden rounded-full bg-muted"
        >
          <div className={cn('h-full bg-primary transition-[width]', job.state === 'done' && 'bg-success')} style={{ width: `${percent}%` }} />
        </div>
      )}
      <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
        <span className="min-w-0 truncate">
          {job.state === 'failed' ? (
            <span role="alert" className="text-destructive">
              {job.error}
            </span>
          ) : job.state === 'done' ? (
            job.result?.message
          ) : (
            [showKind ? job.stage : null, job.total > 0 ? t('progress', { done: job.done, total: job.total }) : null].filter(Boolean).join(' · ')
          )}
        </span>
        {job.state === 'done' && job.result?.fileId ? (
          <Button size="sm" variant="outline" loading={saving} onClick={() => void save()} data-testid="job-download">
            <Download aria-hidden /> {t('download')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
