import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/cn';

/** Rows about to change validity: one row (its action) or the selected rows. */
export interface ValidityRequest<T> {
  rows: T[];
  invalid: boolean;
}

/**
 * The confirm step of "set invalid / valid again" on a list of records: a reason box when setting invalid (required or
 * optional, checked by the caller's `checkReason` with the server's rule; none when the records take no `reason`), the
 * reason's message under it, and `onConfirm(reason)` once it passes. Opens whenever `request` has rows; a new request
 * starts with an empty reason.
 */
export function ValidityDialog<T>({
  request,
  onClose,
  title,
  description,
  confirmText,
  reason,
  onConfirm,
}: {
  request: ValidityRequest<T> | null;
  onClose(): void;
  title: ReactNode;
  description?: ReactNode;
  confirmText?: string;
  reason?: { id: string; label: string; placeholder?: string; max: number; required?: boolean; checkReason?(reason: string): string | null };
  onConfirm(reason: string | undefined): Promise<void>;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A new request starts with an empty reason (state adjusted while rendering, not in an effect).
  const [shown, setShown] = useState(request);
  if (shown !== request) {
    setShown(request);
    setText('');
    setError(null);
  }
  const errorId = `${reason?.id}-error`;
  return (
    <ConfirmDialog
      open={request !== null && request.rows.length > 0}
      onOpenChange={(open) => (open ? undefined : onClose())}
      destructive={request?.invalid}
      title={title}
      description={description}
      confirmText={confirmText}
      onConfirm={async () => {
        if (request?.invalid && reason) {
          const problem = reason.checkReason?.(text) ?? null;
          if (problem) {
            setError(problem);
            throw new Error(problem);
          }
        }
        await onConfirm(request?.invalid && reason ? text.trim() || undefined : undefined);
      }}
    >
      {request?.invalid && reason ? (
        <div className="grid gap-2">
          <Label htmlFor={reason.id} className={cn(error && 'text-destructive')}>
            {reason.required ? (
              <span aria-hidden className="-mr-1 text-destructive">
                *
              </span>
            ) : null}
            {reason.label}
          </Label>
          <Textarea
            id={reason.id}
            value={text}
            required={reason.required}
            maxLength={reason.max}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            placeholder={reason.placeholder}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
            }}
          />
          {error ? (
            <p id={errorId} role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </ConfirmDialog>
  );
}
