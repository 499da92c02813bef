import { useState } from 'react';
import { Ban, RotateCcw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { invalidSchema, type ResultRow } from '@/domain/meets/results';
import { ValidityDialog, type ValidityRequest } from '@/components/list/validity-dialog';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { put } from '@/lib/api-client';

/** The reason's longest length (the server's rule in invalidSchema). */
const REASON_MAX = 100;

/**
 * The invalid / restore cell of a result (docs/product-rules.md#meets): an entered result can be set invalid with a
 * reason (it keeps its mark but has no place, points or record) and restored; each needs its catalogue button.
 */
export function ResultValidity({ base, row, onChanged }: { base: string; row: ResultRow; onChanged(): unknown }) {
  const { t } = useTranslation('meets');
  const access = usePageAccess('single.sportsMeet.score');
  const [request, setRequest] = useState<ValidityRequest<ResultRow> | null>(null);
  const restoring = row.invalid;
  const allowed = restoring ? access.can('valid') : access.can('invalid');
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
          onClick={() => setRequest({ rows: [row], invalid: !restoring })}
          aria-label={t(restoring ? 'score.restoreOf' : 'score.invalidOf', { name: row.studentName })}
          data-testid={restoring ? 'result-restore' : 'result-invalidate'}
        >
          {restoring ? <RotateCcw aria-hidden /> : <Ban aria-hidden />}
          {t(restoring ? 'score.restore' : 'score.setInvalid')}
        </Button>
      ) : null}
      <ValidityDialog
        request={request}
        onClose={() => setRequest(null)}
        title={t(restoring ? 'score.restoreTitle' : 'score.invalidTitle', { name: row.studentName })}
        description={t(restoring ? 'score.restoreText' : 'score.invalidText')}
        confirmText={t(restoring ? 'score.restore' : 'score.setInvalid')}
        reason={{
          id: `invalid-reason-${row.id}`,
          label: t('score.invalidReason'),
          max: REASON_MAX,
          required: true,
          checkReason: (reason) => {
            const checked = invalidSchema.safeParse({ invalid: true, reason });
            return checked.success ? null : t(checked.error.issues[0].message);
          },
        }}
        onConfirm={async (reason) => {
          try {
            await put<null>(`${base}/results/${row.id}/invalid`, restoring ? { invalid: false } : { invalid: true, reason });
          } catch (e) {
            toast.warning(e instanceof Error ? e.message : String(e));
            throw e;
          }
          setRequest(null);
          await onChanged();
          toast.success(t(restoring ? 'score.restored' : 'score.invalidated'));
        }}
      />
    </span>
  );
}
