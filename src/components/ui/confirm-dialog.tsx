import { useState, type ReactNode } from 'react';
import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  description?: ReactNode;
  /** Defaults to the translated "OK". */
  confirmText?: ReactNode;
  /** Defaults to the translated "Cancel". */
  cancelText?: ReactNode;
  /** Red confirm button and a warning icon, for deletes and other irreversible actions. */
  destructive?: boolean;
  /** May return a promise: the button shows a spinner until it settles, then the dialog closes. It stays open if it throws. */
  onConfirm(): void | Promise<void>;
  /** Inputs the confirmation needs (e.g. a reason), between the text and the buttons. */
  children?: ReactNode;
}

/** "Are you sure?" dialog. role=alertdialog semantics come from Radix Dialog with the title and description wired. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmText,
  cancelText,
  destructive = false,
  onConfirm,
  children,
}: ConfirmDialogProps) {
  const { t } = useTranslation('ui');
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch {
      // The caller reports the failure (usually a toast); keeping the dialog open lets the person retry.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => (busy ? undefined : onOpenChange(next))}>
      <DialogContent
        data-slot="confirm-dialog"
        role="alertdialog"
        showCloseButton={false}
        className="sm:max-w-md"
        {...(description ? {} : { 'aria-describedby': undefined })}
      >
        <DialogHeader className="flex-row items-start gap-3 text-left">
          {destructive && (
            <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-destructive/10 text-destructive">
              <TriangleAlert aria-hidden className="size-5" />
            </span>
          )}
          <div className={cn('flex flex-col gap-2', destructive && 'pt-1.5')}>
            <DialogTitle>{title}</DialogTitle>
            {description && <DialogDescription>{description}</DialogDescription>}
          </div>
        </DialogHeader>
        {children}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={busy}>
              {cancelText ?? t('cancel')}
            </Button>
          </DialogClose>
          <Button variant={destructive ? 'destructive' : 'default'} loading={busy} onClick={() => void confirm()}>
            {confirmText ?? t('ok')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
