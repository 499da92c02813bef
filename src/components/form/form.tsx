import { createContext, useContext, useId, type ComponentProps } from 'react';
import { Slot } from 'radix-ui';
import {
  Controller,
  FormProvider,
  useFormContext,
  useFormState,
  type ControllerProps,
  type FieldPath,
  type FieldValues,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';
import { Label } from '@/components/ui/label';

/** The react-hook-form provider: `<Form {...form}><form onSubmit={form.handleSubmit(save)}>…</form></Form>`. */
export const Form = FormProvider;

interface FormFieldContextValue {
  name: string;
}

const FormFieldContext = createContext<FormFieldContextValue | null>(null);

/** A Controller that tells the parts below it (label, control, message) which field they belong to. */
export function FormField<TFieldValues extends FieldValues = FieldValues, TName extends FieldPath<TFieldValues> = FieldPath<TFieldValues>, TTransformedValues = TFieldValues>(
  props: ControllerProps<TFieldValues, TName, TTransformedValues>,
) {
  return (
    <FormFieldContext.Provider value={{ name: props.name }}>
      <Controller {...props} />
    </FormFieldContext.Provider>
  );
}

interface FormItemContextValue {
  id: string;
}

const FormItemContext = createContext<FormItemContextValue | null>(null);

/** State and element ids of the surrounding field, for custom parts. */
export function useFormField() {
  const fieldContext = useContext(FormFieldContext);
  const itemContext = useContext(FormItemContext);
  const { getFieldState } = useFormContext();
  const formState = useFormState({ name: fieldContext?.name });
  if (!fieldContext) throw new Error('useFormField must be used inside <FormField>');
  if (!itemContext) throw new Error('useFormField must be used inside <FormItem>');
  const fieldState = getFieldState(fieldContext.name, formState);
  const { id } = itemContext;
  return {
    id,
    name: fieldContext.name,
    formItemId: `${id}-form-item`,
    formDescriptionId: `${id}-form-item-description`,
    formMessageId: `${id}-form-item-message`,
    ...fieldState,
  };
}

export function FormItem({ className, ...props }: ComponentProps<'div'>) {
  const id = useId();
  return (
    <FormItemContext.Provider value={{ id }}>
      <div data-slot="form-item" className={cn('grid content-start gap-2', className)} {...props} />
    </FormItemContext.Provider>
  );
}

export interface FormLabelProps extends ComponentProps<typeof Label> {
  /** Adds a red asterisk (hidden from screen readers, which get aria-required on the control instead). */
  required?: boolean;
}

export function FormLabel({ className, required, children, ...props }: FormLabelProps) {
  const { error, formItemId } = useFormField();
  return (
    <Label data-slot="form-label" data-error={!!error} className={cn('data-[error=true]:text-destructive', className)} htmlFor={formItemId} {...props}>
      {required && (
        <span aria-hidden className="-mr-1 text-destructive">
          *
        </span>
      )}
      {children}
    </Label>
  );
}

/** Passes id, aria-describedby and aria-invalid to its one child control. */
export function FormControl(props: ComponentProps<typeof Slot.Root>) {
  const { error, formItemId, formDescriptionId, formMessageId } = useFormField();
  return (
    <Slot.Root
      data-slot="form-control"
      id={formItemId}
      aria-describedby={error ? `${formDescriptionId} ${formMessageId}` : formDescriptionId}
      aria-invalid={!!error}
      {...props}
    />
  );
}

export function FormDescription({ className, ...props }: ComponentProps<'p'>) {
  const { formDescriptionId } = useFormField();
  return <p data-slot="form-description" id={formDescriptionId} className={cn('text-sm text-muted-foreground', className)} {...props} />;
}

/**
 * The field's validation error, translated. zod messages are i18n keys such as
 * 'validation:login.usernameRequired'; a message that is not a key is shown as it is.
 */
export function FormMessage({ className, children, ...props }: ComponentProps<'p'>) {
  const { t } = useTranslation();
  const { error, formMessageId } = useFormField();
  const raw = error?.message;
  const body = raw ? t(raw, { defaultValue: raw }) : children;
  if (!body) return null;
  return (
    <p data-slot="form-message" id={formMessageId} role={raw ? 'alert' : undefined} className={cn('text-sm text-destructive', className)} {...props}>
      {body}
    </p>
  );
}
