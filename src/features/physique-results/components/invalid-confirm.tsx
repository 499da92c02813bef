import { useTranslation } from 'react-i18next';
import { OK_MSG } from '@/domain/errors';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';

export interface InvalidConfirmProps {
  /** The row to change: set invalid when it is valid, restore when it is invalid. */
  target: { name: string; invalid: boolean } | null;
  onClose(): void;
  onConfirm(): Promise<unknown>;
}

/** Confirms setting a score invalid (kept, excluded from every ranking and aggregate) or restoring it (docs/product-rules.md#score-validity). */
export function InvalidConfirm({ target, onClose, onConfirm }: InvalidConfirmProps) {
  const { t } = useTranslation(['physiqueResultsUi']);
  const restoring = target?.invalid ?? false;
  return (
    <ConfirmDialog
      open={target !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t(restoring ? 'confirm.validTitle' : 'confirm.invalidTitle', { name: target?.name ?? '' })}
      description={t(restoring ? 'confirm.validDescription' : 'confirm.invalidDescription')}
      confirmText={t(restoring ? 'action.valid' : 'action.invalid')}
      destructive={!restoring}
      onConfirm={async () => {
        await onConfirm();
        toast.success(t(OK_MSG.operation));
      }}
    />
  );
}
