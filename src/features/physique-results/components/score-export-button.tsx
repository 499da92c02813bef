import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Family } from '@/domain/menus/access';
import type { ScoreFilter } from '@/domain/physique-results/schemas';
import { JobProgress } from '@/components/jobs/job-progress';
import { Button } from '@/components/ui/button';
import { useScoreExportJob } from '../api/export-results';

/**
 * The score list's export button: starts the export job, shows its bar beside it and saves the file when done. Above
 * the organisation's threshold the server refuses the start (docs/product-rules.md#personal-data-access) and the
 * shell's approval request opens with this filter (src/lib/api-client.ts), as for every export.
 */
export function ScoreExportButton({ family, filter }: { family: Family; filter: Partial<ScoreFilter> }) {
  const { t } = useTranslation('physiqueResultsUi');
  const exporter = useScoreExportJob(family);
  // A refusal is shown by the query client (showFailure); one above the export threshold opens the approval request.
  const start = () => exporter.start.mutate(filter);
  return (
    <div className="flex flex-wrap items-center gap-3">
      {exporter.job ? <JobProgress job={exporter.job} className="w-64" /> : null}
      <Button variant="outline" loading={exporter.start.isPending || exporter.working} onClick={start} data-testid="score-export">
        <Download aria-hidden />
        {t('action.export')}
      </Button>
    </div>
  );
}
