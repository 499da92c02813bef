import { useState } from 'react';
import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Family } from '@/domain/menus/access';
import type { ScoreFilter } from '@/domain/physique-results/schemas';
import { JobProgress } from '@/components/jobs/job-progress';
import { ExportApprovalDialog, type ExportApprovalAsk } from '@/components/list/export-approval-dialog';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useScoreExportJob } from '../api/export-results';

/** The filter as the approval request keeps it (strings; empty values left out). */
const keptQuery = (filter: Partial<ScoreFilter>): Record<string, string> =>
  Object.fromEntries(Object.entries(filter).flatMap(([k, v]) => (v === undefined || v === null || v === '' ? [] : [[k, String(v)]])));

/**
 * The score list's export button: starts the export job, shows its bar beside it and saves the file when done. Above
 * the organisation's threshold the server refuses the start (docs/product-rules.md#personal-data-access) and the
 * button opens the approval request with this filter, as a list's export does.
 */
export function ScoreExportButton({ family, filter }: { family: Family; filter: Partial<ScoreFilter> }) {
  const { t } = useTranslation('physiqueResultsUi');
  const exporter = useScoreExportJob(family);
  const [ask, setAsk] = useState<ExportApprovalAsk | null>(null);
  const start = () =>
    exporter.start.mutate(filter, {
      onError: (error) => {
        if (error instanceof ApiError && error.field === 'exportApproval') setAsk({ message: error.message, query: keptQuery(filter), path: error.path });
        else toast.warning(error.message);
      },
    });
  return (
    <div className="flex flex-wrap items-center gap-3">
      {exporter.job ? <JobProgress job={exporter.job} className="w-64" /> : null}
      <Button variant="outline" loading={exporter.start.isPending || exporter.working} onClick={start} data-testid="score-export">
        <Download aria-hidden />
        {t('action.export')}
      </Button>
      <ExportApprovalDialog pageKey={`${family}.test.scoreSearch`} ask={ask} onClose={() => setAsk(null)} />
    </div>
  );
}
