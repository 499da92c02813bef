import { useState } from 'react';
import { ArrowRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Family } from '@/domain/menus/access';
import { auditActionLabel, auditEntityLabel, auditFieldChanges, auditFieldKey, type AuditFieldChange } from '@/domain/platform/audit';
import { QueryState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { cn } from '@/lib/cn';
import { useOperationDetail } from '../api';
import { useDateTime } from '@/lib/date-time';

/** An instant as the server writes it into a row ('2026-11-28T08:00:00.000Z'). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Fields whose values are codes with words of their own (namespace.group of the code). */
const VALUE_WORDS: Record<string, string> = { gender: 'physique:gender', stage: 'physique:stage' };

/** A logged value in words: yes/no, times in the reader's format, lists joined, records as compact JSON. */
export function showValue(t: TFunction, time: (iso: string) => string, field: string, v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return t(v ? 'platform:operationLog.yes' : 'platform:operationLog.no');
  if (typeof v === 'string') {
    if (INSTANT.test(v)) return time(v);
    const words = VALUE_WORDS[field];
    if (words) return t(`${words}.${v}`, { defaultValue: v });
    return v;
  }
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null)) return v.map(String).join('、');
  return JSON.stringify(v);
}

/** A field of the logged record by its label (its key when the table has none; the whole value when not a record). */
export const fieldLabel = (t: TFunction, field: string): string => {
  if (!field) return t('platform:operationLog.whole');
  const key = auditFieldKey(field);
  return key ? t(key) : field;
};

function ChangeRow({ change, t, time }: { change: AuditFieldChange; t: TFunction; time: (iso: string) => string }) {
  const known = !change.field || auditFieldKey(change.field) !== null;
  return (
    <tr className={cn('border-t align-top', change.changed && 'bg-warning/10')} data-changed={change.changed || undefined}>
      <th scope="row" className={cn('px-3 py-1.5 text-left font-medium whitespace-nowrap', !known && 'font-mono text-xs')}>
        {fieldLabel(t, change.field)}
      </th>
      <td className="px-3 py-1.5 break-all text-muted-foreground">{showValue(t, time, change.field, change.before)}</td>
      <td className="px-1 py-1.5 text-muted-foreground" aria-hidden>
        {change.changed ? <ArrowRight className="size-3.5" /> : null}
      </td>
      <td className={cn('px-3 py-1.5 break-all', change.changed && 'font-medium')}>{showValue(t, time, change.field, change.after)}</td>
    </tr>
  );
}

/** One operation log row: who, when, what, on which record, and its fields before → after (changed ones first). */
export function OperationDetailDialog({ family, id, onClose }: { family: Family; id: string | null; onClose(): void }) {
  const { t } = useTranslation('platform');
  const query = useOperationDetail(family, id);
  const time = useDateTime('seconds');
  const [showAll, setShowAll] = useState(false);
  const d = query.data;
  return (
    <Dialog
      open={!!id}
      onOpenChange={(open) => {
        if (open) return;
        setShowAll(false);
        onClose();
      }}
    >
      <DialogContent className="sm:max-w-3xl" data-testid="operation-detail">
        <DialogHeader>
          <DialogTitle>{t('operationLog.detailTitle')}</DialogTitle>
          <DialogDescription>
            {d
              ? [time(d.at), d.userName ?? '—', auditActionLabel(t, d.action), auditEntityLabel(t, d.entity), d.entityName ?? d.entityId ?? ''].filter(Boolean).join(' · ')
              : '\u00a0'}
          </DialogDescription>
        </DialogHeader>
        <QueryState query={query} data={d}>
          {(detail) => {
            const rows = auditFieldChanges(detail.before, detail.after);
            const changed = rows.filter((r) => r.changed);
            const unchanged = rows.length - changed.length;
            const shown = showAll ? rows : changed;
            return (
              <div className="space-y-2">
                {rows.length === 0 || (changed.length === 0 && !showAll) ? (
                  <p className="text-sm text-muted-foreground">{rows.length === 0 ? t('operationLog.empty') : t('operationLog.noChange')}</p>
                ) : (
                  <div className="max-h-[60vh] overflow-auto rounded-md border">
                    <table className="w-full text-sm" data-testid="operation-changes">
                      <thead className="sticky top-0 bg-muted text-left">
                        <tr>
                          <th className="px-3 py-2 font-medium">{t('operationLog.field')}</th>
                          <th className="px-3 py-2 font-medium">{t('operationLog.before')}</th>
                          <td className="w-6" aria-hidden />
                          <th className="px-3 py-2 font-medium">{t('operationLog.after')}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {shown.map((r) => (
                          <ChangeRow key={r.field} change={r} t={t} time={time} />
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
                <div className="flex items-center justify-between gap-2">
                  <p className="text-xs text-muted-foreground">{t('operationLog.secretsNote')}</p>
                  {unchanged > 0 ? (
                    <Button type="button" variant="ghost" size="sm" onClick={() => setShowAll((v) => !v)}>
                      {showAll ? t('operationLog.hideUnchanged') : t('operationLog.showUnchanged', { count: unchanged })}
                    </Button>
                  ) : null}
                </div>
              </div>
            );
          }}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}
