import { useId, useMemo, useState } from 'react';
import { ArrowRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatRaw } from '@/domain/physique-results/export-layout';
import type { SyncChange } from '@/domain/physique-results/types';
import type { PlanDetail } from '@/domain/test-plans/types';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/lib/toast';
import { useSyncPlanMutation, useSyncPreviewQuery } from '../api/sync-plan';
import type { Family } from '@/domain/menus/access';

const col = createDataTableColumnHelper<SyncChange>();
const changeKey = (c: SyncChange) => `${c.studentId}:${c.field}`;
const shown = (c: SyncChange, v: number | null) => (v == null ? '—' : String(formatRaw(c.field, v, 'display')));

export interface SyncDialogProps {
  family: Family;
  plan: PlanDetail;
  open: boolean;
  onOpenChange(open: boolean): void;
  onSynced(): void;
}

/**
 * Sync of a plan (docs/product-rules.md#plan-states) with a preview: what the latest device records would change (who, item, old → new, where
 * the old value came from), and the choice whether they may replace imported or hand-edited values (default: no).
 * Long lists scroll in a virtual table.
 */
export function SyncDialog({ open, onOpenChange, ...rest }: SyncDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-5xl" data-testid="sync-dialog">
        {open ? <SyncDialogBody {...rest} close={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function SyncDialogBody({ family, plan, onSynced, close }: Omit<SyncDialogProps, 'open' | 'onOpenChange'> & { close(): void }) {
  const { t } = useTranslation(['testPlansUi', 'physique', 'common']);
  const preview = useSyncPreviewQuery(family, plan.id, true);
  const sync = useSyncPlanMutation(family);
  const [replaceManual, setReplaceManual] = useState(false);
  const checkboxId = useId();
  const data = preview.data;

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('signUp.name'), meta: { width: 96 }, cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('regNo', { header: t('signUp.regNo'), meta: { width: 200 }, cell: ({ getValue }) => <span className="tabular-nums">{getValue()}</span> }),
        col.accessor('className', { header: t('signUp.className'), meta: { width: 110 } }),
        col.accessor('field', { header: t('sync.item'), meta: { width: 130 }, cell: ({ getValue }) => t(`physique:template.column.${getValue()}`) }),
        col.display({
          id: 'change',
          header: t('sync.change'),
          meta: { width: 150 },
          cell: ({ row }) => {
            const c = row.original;
            const kept = c.manual && !replaceManual;
            return (
              <span className="flex items-center gap-1.5 tabular-nums whitespace-nowrap" data-kept={kept || undefined}>
                <span className={kept ? 'font-medium' : 'text-muted-foreground line-through'}>{shown(c, c.oldValue)}</span>
                <ArrowRight aria-hidden className="size-3.5 text-muted-foreground" />
                <span className={kept ? 'text-muted-foreground line-through' : 'font-medium'}>{shown(c, c.newValue)}</span>
              </span>
            );
          },
        }),
        col.display({
          id: 'source',
          header: t('sync.oldSource'),
          meta: { width: 170 },
          cell: ({ row }) => {
            const c = row.original;
            if (!c.oldSource) return <span className="text-muted-foreground">{t('sync.source.empty')}</span>;
            return (
              <span className="flex items-center gap-1.5 whitespace-nowrap">
                <Badge variant={c.manual ? 'warning' : 'outline'}>{t(`sync.source.${c.oldSource}`)}</Badge>
                {c.manual && !replaceManual ? <span className="text-xs text-muted-foreground">{t('sync.kept')}</span> : null}
              </span>
            );
          },
        }),
      ]),
    [t, replaceManual],
  );

  const applied = data ? data.total - (replaceManual ? 0 : data.manual) : 0;
  const confirm = async () => {
    const summary = await sync.mutateAsync({ planId: plan.id, replaceManual }).catch(() => null); // the query client has shown the server's message
    if (!summary) return;
    toast.success(t('sync.done', { students: summary.students, records: summary.records }));
    onSynced();
    close();
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>{t('sync.title')}</DialogTitle>
        <DialogDescription>{t('sync.description')}</DialogDescription>
      </DialogHeader>
      {preview.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : !data ? (
        <p className="text-sm text-destructive">{t('sync.previewFailed')}</p>
      ) : data.total === 0 ? (
        <p className="py-8 text-center text-sm text-muted-foreground" data-testid="sync-nothing">
          {t('sync.nothing')}
        </p>
      ) : (
        <div className="grid min-w-0 gap-3">
          <p className="text-sm" data-testid="sync-summary">
            {t('sync.summary', { total: data.total, students: data.students, manual: data.manual })}
            {data.changes.length < data.total ? <span className="text-muted-foreground">{t('sync.listed', { n: data.changes.length })}</span> : null}
          </p>
          {data.manual > 0 ? (
            <div className="flex items-start gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2">
              <Checkbox
                id={checkboxId}
                checked={replaceManual}
                onCheckedChange={(c) => setReplaceManual(c === true)}
                data-testid="sync-replace-manual"
                className="mt-0.5"
              />
              <Label htmlFor={checkboxId} className="grid gap-0.5 font-normal">
                <span className="font-medium">{t('sync.replaceManual')}</span>
                <span className="text-xs text-muted-foreground">{t('sync.replaceManualHint', { n: data.manual })}</span>
              </Label>
            </div>
          ) : null}
          <DataTable aria-label={t('sync.changes')} columns={columns} data={data.changes} rowKey={changeKey} virtual height={320} rowHeight={36} />
        </div>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={close}>
          {t('common:action.cancel')}
        </Button>
        <Button onClick={() => void confirm()} loading={sync.isPending} disabled={!data || applied === 0} data-testid="sync-confirm">
          {t('sync.confirm', { n: applied })}
        </Button>
      </DialogFooter>
    </>
  );
}
