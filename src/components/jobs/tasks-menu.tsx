import { useState } from 'react';
import { ListChecks } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { jobFinished } from '@/domain/jobs';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { QueryState } from '@/components/query-state/query-state';
import { useDateTime } from '@/lib/date-time';
import { useJobs } from './api';
import { JobProgress } from './job-progress';

/**
 * The header's 任务 (tasks) popover (docs/product-rules.md#jobs): running and recent jobs with their bars and files, so a
 * user who left the screen that started one finds it here. The count of running jobs shows on the button.
 */
export function TasksMenu() {
  const { t } = useTranslation('jobs');
  const at = useDateTime();
  const [open, setOpen] = useState(false);
  const jobs = useJobs();
  const running = jobs.data?.filter((j) => !jobFinished(j.state)).length ?? 0;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={t('open')} data-testid="tasks-open" className="relative">
          <ListChecks aria-hidden />
          <span className="hidden sm:inline">{t('title')}</span>
          {running > 0 ? (
            <span className="absolute -top-0.5 -right-0.5 grid size-4 place-items-center rounded-full bg-primary text-[10px] text-primary-foreground" data-testid="tasks-running">
              {running}
            </span>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-80 p-0" data-testid="tasks-panel">
        <div className="border-b px-4 py-2.5 text-sm font-semibold">{t('recent')}</div>
        <div className="max-h-[60vh] overflow-y-auto">
          <QueryState query={jobs} data={jobs.data} isEmpty={(d) => d.length === 0} empty={t('empty')}>
            {(list) => (
              <ul className="divide-y">
                {list.map((job) => (
                  <li key={job.id} className="grid gap-1 px-4 py-3" data-testid="tasks-item">
                    <JobProgress job={job} showKind />
                    <span className="text-xs text-muted-foreground">{t('startedBy', { name: job.startedBy, time: at(job.createdAt) })}</span>
                  </li>
                ))}
              </ul>
            )}
          </QueryState>
        </div>
      </PopoverContent>
    </Popover>
  );
}
