import { useTranslation } from 'react-i18next';
import type { Family } from '@/domain/menus/access';
import { QueryState } from '@/components/query-state/query-state';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { cn } from '@/lib/cn';
import { useOperationDetail } from '../api';
import { useDateTime } from '@/lib/date-time';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** The fields of the record before and after one operation, changed ones marked (a whole value when it is not a record). */
export function fieldChanges(before: unknown, after: unknown): { field: string; before: string; after: string; changed: boolean }[] {
  if (!isRecord(before) && !isRecord(after)) {
    if (before == null && after == null) return [];
    return [{ field: '', before: show(before ?? undefined), after: show(after ?? undefined), changed: show(before) !== show(after) }];
  }
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields.map((field) => ({ field, before: show(b[field]), after: show(a[field]), changed: show(b[field]) !== show(a[field]) }));
}

/** One operation log row: who, when, what, and the record before and after. */
export function OperationDetailDialog({ family, id, onClose }: { family: Family; id: string | null; onClose(): void }) {
  const { t } = useTranslation('platform');
  const query = useOperationDetail(family, id);
  const time = useDateTime('seconds');
  return (
    <Dialog open={!!id} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-3xl" data-testid="operation-detail">
        <DialogHeader>
          <DialogTitle>{t('operationLog.detailTitle')}</DialogTitle>
          <DialogDescription>
            {query.data ? `${time(query.data.at)} · ${query.data.userName ?? '—'} · ${query.data.action} · ${query.data.entity}` : '\u00a0'}
          </DialogDescription>
        </DialogHeader>
        <QueryState query={query} data={query.data}>
          {(detail) => {
            const rows = fieldChanges(detail.before, detail.after);
            return rows.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t('operationLog.empty')}</p>
            ) : (
              <div className="max-h-[60vh] overflow-auto rounded-md border">
                <table className="w-full text-sm">
                  <thead className="sticky top-0 bg-muted text-left">
                    <tr>
                      <th className="px-3 py-2 font-medium">{t('operationLog.field')}</th>
                      <th className="px-3 py-2 font-medium">{t('operationLog.before')}</th>
                      <th className="px-3 py-2 font-medium">{t('operationLog.after')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((r) => (
                      <tr key={r.field} className={cn('border-t align-top', r.changed && 'bg-warning/10')}>
                        <td className="px-3 py-1.5 font-mono text-xs">{r.field}</td>
                        <td className="px-3 py-1.5 break-all">{r.before}</td>
                        <td className={cn('px-3 py-1.5 break-all', r.changed && 'font-medium')}>{r.after}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
          }}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}
