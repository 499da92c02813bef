import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { OK_MSG } from '@/domain/errors';
import { ValidityDialog } from '@/components/list/validity-dialog';
import { toast } from '@/lib/toast';

export interface InvalidConfirmProps {
  /** The row to change: set invalid when it is valid, restore when it is invalid. */
  target: { name: string; invalid: boolean } | null;
  onClose(): void;
  onConfirm(): Promise<unknown>;
}

/**
 * Confirms setting a score invalid (kept, excluded from every ranking and aggregate) or restoring it
 * (docs/product-rules.md#score-validity): the list kit's validity dialog, without a reason (scores take none).
 */
export function InvalidConfirm({ target, onClose, onConfirm }: InvalidConfirmProps) {
  const { t } = useTranslation(['physiqueResultsUi']);
  const restoring = target?.invalid ?? false;
  // One request per target: the dialog starts afresh when its request changes.
  const request = useMemo(() => (target ? { rows: [target], invalid: !target.invalid } : null), [target]);
  return (
    <ValidityDialog
      request={request}
      onClose={onClose}
      title={t(restoring ? 'confirm.validTitle' : 'confirm.invalidTitle', { name: target?.name ?? '' })}
      description={t(restoring ? 'confirm.validDescription' : 'confirm.invalidDescription')}
      confirmText={t(restoring ? 'action.valid' : 'action.invalid')}
      onConfirm={async () => {
        await onConfirm();
        toast.success(t(OK_MSG.operation));
      }}
    />
  );
}
