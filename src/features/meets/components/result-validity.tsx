import { useState } from 'react';
import { Ban, RotateCcw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ResultRow } from '@/domain/meets/results';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { put } from '@/lib/api-client';

/**
 * The invalid / restore cell of a result (docs/product-rules.md#meets): an entered result can be set invalid with a
 * reason (it keeps its mark but has no place, points or record) and restored; each needs its catalogue button.
 */
export function ResultValidity({ base, row, onChanged }: { base: string; row: ResultRow; onChanged(): unknown }) {
  const { t } = useTranslation('meets');
  const access = usePageAccess('single.sportsMeet.score');
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const restoring = row.invalid;
  const allowed = restoring ? access.can('valid') : access.can('invalid');
  const submit = async () => {
    setError(undefined);
    try {
      await put<null>(`${base}/results/${row.id}/invalid`, restoring ? { invalid: false } : { invalid: true, reason });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      throw e;
    }
    await onChanged();
    toast.success(t(restoring ? 'score.restored' : 'score.invalidated'));
  };
  return (
    <span className="flex flex-wrap items-center gap-1">
      {row.invalid ? (
        <Badge variant="destructive" title={row.invalidReason ?? undefined} data-testid="result-invalid">
          {row.invalidReason ? t('score.invalidWithReason', { reason: row.invalidReason }) : t('score.invalid')}
        </Badge>
      ) : null}
      {allowed && row.state !== 'pending' ? (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setReason('');
            setError(undefined);
            setOpen(true);
          }}
          aria-label={t(restoring ? 'score.restoreOf' : 'score.invalidOf', { name: row.studentName })}
          data-testid={restoring ? 'result-restore' : 'result-invalidate'}
        >
          {restoring ? <RotateCcw aria-hidden /> : <Ban aria-hidden />}
          {t(restoring ? 'score.restore' : 'score.setInvalid')}
        </Button>
      ) : null}
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t(restoring ? 'score.restoreTitle' : 'score.invalidTitle', { name: row.studentName })}
        description={t(restoring ? 'score.restoreText' : 'score.invalidText')}
        confirmText={t(restoring ? 'score.restore' : 'score.setInvalid')}
        destructive={!restoring}
        onConfirm={submit}
      >
        {restoring ? null : (
          <label className="grid gap-1 text-sm">
            {t('score.invalidReason')}
            <Input value={reason} maxLength={100} onChange={(e) => setReason(e.target.value)} aria-invalid={!!error} data-testid="invalid-reason" />
            {error ? (
              <span role="alert" className="text-destructive">
                {error}
              </span>
            ) : null}
          </label>
        )}
      </ConfirmDialog>
    </span>
  );
}
