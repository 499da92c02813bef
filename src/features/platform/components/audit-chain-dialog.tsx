import { CircleAlert, CircleCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Family } from '@/domain/menus/access';
import { QueryState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useDateTime } from '@/lib/date-time';
import { useAuditChainCheck } from '../api';

/**
 * system/operationLog's `verify` button: checks the hash chains of the organisation's tree (docs/decisions/050-audit-hash-chain.md)
 * and names, per broken organisation, the first row that was changed or where rows are missing.
 */
export function AuditChainDialog({ family, open, onOpenChange }: { family: Family; open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation('platform');
  const time = useDateTime('seconds');
  const query = useAuditChainCheck(family, open);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl" data-testid="audit-chain">
        <DialogHeader>
          <DialogTitle>{t('operationLog.verify.title')}</DialogTitle>
          <DialogDescription>{t('operationLog.verify.description')}</DialogDescription>
        </DialogHeader>
        <QueryState query={query} data={query.data} loading={<p className="text-sm text-muted-foreground">{t('operationLog.verify.checking')}</p>}>
          {(report) => (
            <div className="space-y-3 text-sm" aria-live="polite">
              {report.breaks.length === 0 ? (
                <p className="flex items-start gap-2 text-success" data-testid="audit-chain-ok">
                  <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden />
                  {t('operationLog.verify.ok', { rows: report.rows, chains: report.chains })}
                </p>
              ) : (
                <>
                  <p className="flex items-start gap-2 font-medium text-destructive" data-testid="audit-chain-broken">
                    <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                    {t('operationLog.verify.broken', { count: report.breaks.length })}
                  </p>
                  <div className="overflow-x-auto rounded-md border">
                    <table className="w-full text-left">
                      <thead className="bg-muted/50">
                        <tr>
                          <th className="px-3 py-1.5 font-medium">{t('operationLog.verify.org')}</th>
                          <th className="px-3 py-1.5 font-medium">{t('operationLog.verify.seq')}</th>
                          <th className="px-3 py-1.5 font-medium">{t('operationLog.verify.kind')}</th>
                          <th className="px-3 py-1.5 font-medium">{t('operationLog.verify.at')}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {report.breaks.map((b) => (
                          <tr key={b.orgId} className="border-t">
                            <td className="px-3 py-1.5">{b.orgName ?? b.orgId}</td>
                            <td className="px-3 py-1.5 tabular-nums">{b.seq}</td>
                            <td className="px-3 py-1.5">{t(`operationLog.verify.kinds.${b.kind}`)}</td>
                            <td className="px-3 py-1.5 whitespace-nowrap tabular-nums">{b.at ? time(b.at) : '—'}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                </>
              )}
              {report.unsealed > 0 && <p className="text-muted-foreground">{t('operationLog.verify.unsealed', { count: report.unsealed })}</p>}
            </div>
          )}
        </QueryState>
        <DialogFooter>
          <Button variant="outline" onClick={() => void query.refetch()} disabled={query.isFetching}>
            {t('operationLog.verify.again')}
          </Button>
          <Button onClick={() => onOpenChange(false)}>{t('operationLog.verify.close')}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
