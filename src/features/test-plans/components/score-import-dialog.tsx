import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { PLAN_MSG } from '@/domain/test-plans/messages';
import type { PlanDetail } from '@/domain/test-plans/types';
import { ImportDialog, type ImportResult, type StartedJob } from '@/components/import-dialog/import-dialog';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { downloadTemplate } from '../api/download-template';
import { exportSignUps } from '../api/export-sign-ups';
import { importScores } from '../api/import-scores';
import type { Family } from '@/domain/menus/access';

export interface ScoreImportDialogProps {
  family: Family;
  plan: PlanDetail;
  open: boolean;
  onOpenChange(open: boolean): void;
  onImported(): void;
  /** The upload call; the real endpoint unless a test replaces it. */
  upload?: (file: File, onProgress?: (percent: number) => void) => Promise<ImportResult | StartedJob>;
}

const failed = (e: unknown) => toast.error(e instanceof Error ? e.message : String(e));

/**
 * Score import of a plan (docs/product-rules.md#physique-results: score import) in the import dialog of docs/product-rules.md#import-files: national template (.xlsx), counts from the
 * answer's file name, failures to export. Blocked with the server's message while a sync or another import runs.
 * To prepare the file it offers the template pre-filled with the plan's students (codes explained in a notes
 * sheet) and the plan's sign-up list, besides the blank template.
 */
export function ScoreImportDialog({ family, plan, open, onOpenChange, onImported, upload }: ScoreImportDialogProps) {
  const { t } = useTranslation(['testPlansUi', 'testPlans']);
  const job = plan.runningJob;
  const blockedReason = job ? t(job.kind === 'sync' ? PLAN_MSG.syncRunning : PLAN_MSG.importRunning) : undefined;
  return (
    <ImportDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('import.title')}
      description={t('import.description', { name: plan.name })}
      canUpload={!job}
      blockedReason={blockedReason}
      upload={upload ?? ((file, onProgress) => importScores(family, plan.id, file, onProgress))}
      jobKind="physiqueImport"
      onDownloadTemplate={() => {
        downloadTemplate(family).catch(failed);
      }}
      extra={
        <div className="grid gap-1.5 rounded-md border bg-muted/30 px-3 py-2" data-testid="import-prepare">
          <span className="text-xs text-muted-foreground">{t('import.prepare')}</span>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => void downloadTemplate(family, plan.id).catch(failed)} data-testid="import-prefilled">
              <Download aria-hidden />
              {t('import.prefilled')}
            </Button>
            <Button variant="outline" size="sm" onClick={() => void exportSignUps(family, plan.id).catch(failed)} data-testid="import-sign-ups">
              <Download aria-hidden />
              {t('import.signUps')}
            </Button>
          </div>
        </div>
      }
      onImported={onImported}
    />
  );
}
