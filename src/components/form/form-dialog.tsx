import { useState, type ReactNode } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type FieldValues, type Path, type Resolver, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { OK_MSG } from '@/domain/errors';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/lib/toast';
import { ApiError } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { Form } from './form';
import { FormSchema, FormUploads, useFormUploads } from './fields';

export interface FormDialogProps<S extends z.ZodObject, R> {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The request schema from src/domain (the route validates with the same one): checks, maxLength of text fields. */
  schema: S;
  /** Values when the dialog opens (an edit passes the record's, including its `version`). */
  defaults: z.input<S>;
  title: ReactNode;
  description?: ReactNode;
  /** Sends the parsed values (usually a mutation's `mutateAsync`); its answer goes to `success` and `onDone`. */
  submit(values: z.output<S>): Promise<R>;
  /** The toast after a save: a message, a function of the answer, or false; "saved" by default. */
  success?: string | ((result: R) => string) | false;
  /** After a save, before the dialog closes. */
  onDone?(result: R): unknown;
  /** The save button's text; "Save" by default. */
  submitText?: ReactNode;
  /** A red save button, for a form that records something against someone (e.g. a reason for "invalid"). */
  destructive?: boolean;
  /** Whether the save button may be pressed yet (e.g. until a student is picked); the schema still checks on submit. */
  ready?(values: z.input<S>): boolean;
  /** The fields; the form is passed for fields that depend on others (useWatch, setValue). */
  children(form: UseFormReturn<z.input<S>, unknown, z.output<S>>): ReactNode;
  /** Width classes of the dialog (`sm:max-w-lg` by default). */
  className?: string;
  'data-testid'?: string;
  /** Test id of the save button (`form-save` by default). */
  submitTestId?: string;
}

/**
 * A short form in a dialog, the dialog twin of `FormScreen` (docs/adding-a-screen.md): the same field components and
 * domain schema, validated on submit. A refusal naming a field (400) goes under that field; any other refusal (a stale
 * save's 409, a rule the server alone knows) stays in the dialog above the buttons, so the person can correct and
 * retry. The save button is busy while saving, and the dialog cannot be closed then; Esc, ×, the overlay and Cancel
 * close it otherwise. It mounts its form on each opening, so it starts from `defaults` every time.
 */
export function FormDialog<S extends z.ZodObject, R>(props: FormDialogProps<S, R>) {
  const { open, onOpenChange, title, description, className } = props;
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onOpenChange={(next) => (busy ? undefined : onOpenChange(next))}>
      <DialogContent className={cn('sm:max-w-lg', className)} data-testid={props['data-testid']} {...(description ? {} : { 'aria-describedby': undefined })}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description ? <DialogDescription>{description}</DialogDescription> : null}
        </DialogHeader>
        {open ? <FormDialogBody {...props} onBusy={setBusy} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function FormDialogBody<S extends z.ZodObject, R>({
  schema,
  defaults,
  submit,
  success,
  onDone,
  onOpenChange,
  submitText,
  destructive,
  ready,
  children,
  submitTestId,
  onBusy,
}: FormDialogProps<S, R> & { onBusy(busy: boolean): void }) {
  const { t } = useTranslation(['components', 'ui']);
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(schema as never) as unknown as Resolver<z.input<S>, unknown, z.output<S>>,
    defaultValues: defaults as never,
    mode: 'onTouched',
  });
  const [refusal, setRefusal] = useState<string | null>(null);
  const saving = form.formState.isSubmitting;
  // `ready` reads the live values: the body re-renders on every change, which a short dialog form can afford.
  const values = useWatch({ control: form.control }) as z.input<S>;
  const canSubmit = ready ? ready(values) : true;
  const uploads = useFormUploads();

  const save = async (values: z.output<S>) => {
    setRefusal(null);
    onBusy(true);
    let result: R;
    try {
      result = await submit(values);
    } catch (error) {
      const e = error instanceof ApiError ? error : null;
      // An export needing an approval: the shell's request dialog opens over this one with the message.
      if (e?.shown) return;
      if (e?.field && e.status === 400 && hasField(values, e.field)) {
        form.setError(e.field as Path<z.input<S>>, { type: 'server', message: e.message }, { shouldFocus: true });
      } else {
        setRefusal(error instanceof Error ? error.message : String(error));
      }
      return;
    } finally {
      onBusy(false);
    }
    const message = success === undefined ? t(OK_MSG.saved) : typeof success === 'function' ? success(result) : success;
    if (message) toast.success(message);
    await onDone?.(result);
    onOpenChange(false);
  };

  return (
    <Form {...(form as unknown as UseFormReturn<FieldValues>)}>
      <FormSchema value={schema}>
        <FormUploads value={uploads.report}>
          <form noValidate onSubmit={(e) => void form.handleSubmit(save)(e)} className="grid gap-4" data-slot="form-dialog">
            <div className="grid gap-4">{children(form)}</div>
            {refusal ? (
              <p role="alert" className="text-sm text-destructive" data-testid="form-dialog-error">
                {refusal}
              </p>
            ) : null}
            <DialogFooter>
              <Button type="button" variant="outline" disabled={saving} onClick={() => onOpenChange(false)} data-testid="form-cancel">
                {t('ui:cancel')}
              </Button>
              <Button type="submit" variant={destructive ? 'destructive' : 'default'} loading={saving || uploads.uploading} disabled={!canSubmit} data-testid={submitTestId ?? 'form-save'}>
                {submitText ?? t('components:form.save')}
              </Button>
            </DialogFooter>
          </form>
        </FormUploads>
      </FormSchema>
    </Form>
  );
}

/** Whether a server-named field ('legs', 'autumn.startDate') is one of the form's values, so its message has a place. */
function hasField(values: unknown, path: string): boolean {
  let at: unknown = values;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object' || !(part in at)) return false;
    at = (at as Record<string, unknown>)[part];
  }
  return true;
}
