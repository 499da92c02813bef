import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { zodResolver } from '@hookform/resolvers/zod';
import { X } from 'lucide-react';
import { useForm, type FieldValues, type Path, type Resolver, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import type { DictionaryCode } from '@/domain/dictionaries/dictionaries';
import { OK_MSG } from '@/domain/errors';
import { useDictionarySchema } from '@/components/dictionary/use-dictionary';
import { PageHeader } from '@/components/page-header/page-header';
import { QueryState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DialogOverlay } from '@/components/ui/dialog';
import { toast } from '@/lib/toast';
import { ApiError } from '@/lib/api-client';
import type { Resource } from '@/lib/resource';
import { Form } from './form';
import { FormSchema, FormUploads, useFormUploads } from './fields';

export interface FormScreenProps<S extends z.ZodObject, Row> {
  /** The save schema from src/domain (the route validates with the same one). */
  schema: S;
  /** What the form calls: `useGet` (what it edits) and `useSave` (answers the same shape); the list rows may differ. */
  resource: Pick<Resource<unknown, z.output<S>, Row>, 'useGet' | 'useSave'>;
  /** The record to edit; undefined adds. */
  id?: string;
  /** Form values of a loaded record, including its `version` (sent back for stale-save detection). */
  toValues(row: Row): z.input<S>;
  /** Values of a new record. */
  defaults: z.input<S>;
  title: ReactNode;
  description?: ReactNode;
  /** Where to go after saving or leaving: normally `usePageAccess(key).paths.list`. */
  backTo: string;
  /**
   * 'page' (default) fills the content area; 'drawer' slides in from the right over what the route shows behind it
   * (e.g. the list), for short forms. Both load, validate, send the version, show server field errors and ask before
   * leaving a changed form; closing the drawer (Esc, the overlay, ×, Cancel) leaves like Cancel.
   */
  presentation?: 'page' | 'drawer';
  /**
   * Fields that hold a dictionary code (`{ type: 'venueType' }`, docs/product-rules.md#dictionaries): the form checks
   * them against the organisation's dictionary as the server does (an enabled entry or the record's own value).
   */
  dictionaries?: Readonly<Record<string, DictionaryCode>>;
  /** The fields; the form is passed for fields that depend on others (useWatch). */
  children(form: UseFormReturn<z.input<S>, unknown, z.output<S>>): ReactNode;
  /** After a save, before returning to `backTo` (e.g. refresh what the rest of the app shows of the record). */
  onSaved?(row: Row): unknown;
  'data-testid'?: string;
}

/**
 * An add/edit page (docs/adding-a-screen.md): loads the record, validates with the
 * domain schema, saves through the resource, then toasts and returns to the list. A refusal naming a field (400) is
 * shown on that field; a stale save (409) says so and keeps the form. Leaving a changed form asks first, with the same
 * words as every back button (docs/product-rules.md#leaving-a-form).
 */
export function FormScreen<S extends z.ZodObject, Row>(props: FormScreenProps<S, Row>) {
  const { resource, id, title, description } = props;
  const { t } = useTranslation('ui');
  const navigate = useNavigate();
  const record = resource.useGet(id);
  const drawer = props.presentation === 'drawer';
  // The body registers its leave-with-confirmation here, so closing the drawer asks like Cancel does.
  const close = useRef<() => void>(() => void navigate(props.backTo));
  const body = id ? (
    <QueryState query={record} data={record.data}>
      {(row) => <FormBody key={id} {...props} initial={props.toValues(row)} title={title} description={description} closeRef={close} />}
    </QueryState>
  ) : (
    <FormBody key="new" {...props} initial={props.defaults} title={title} description={description} closeRef={close} />
  );
  if (!drawer) {
    return (
      <div data-testid={props['data-testid'] ?? 'form-screen'} className="grid grid-cols-[minmax(0,1fr)] gap-4">
        {body}
      </div>
    );
  }
  return (
    <DialogPrimitive.Root open onOpenChange={(open) => (open ? undefined : close.current())}>
      <DialogPrimitive.Portal>
        <DialogOverlay />
        <DialogPrimitive.Content
          data-testid={props['data-testid'] ?? 'form-screen'}
          data-slot="form-drawer"
          className="fixed inset-y-0 right-0 z-50 flex h-full w-full flex-col border-l bg-card text-card-foreground shadow-lg outline-none data-[state=closed]:animate-slide-out-right data-[state=open]:animate-slide-in-right sm:max-w-lg"
        >
          <div className="flex items-start justify-between gap-4 border-b px-6 py-4">
            <div className="grid gap-1">
              <DialogPrimitive.Title className="text-lg leading-none font-semibold">{title}</DialogPrimitive.Title>
              {description ? (
                <DialogPrimitive.Description className="text-sm text-muted-foreground">{description}</DialogPrimitive.Description>
              ) : (
                <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
              )}
            </div>
            <button
              type="button"
              onClick={() => close.current()}
              className="rounded-sm opacity-70 transition-opacity outline-none hover:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/50 [&_svg]:size-4"
            >
              <X aria-hidden />
              <span className="sr-only">{t('close')}</span>
            </button>
          </div>
          <div className="grid min-h-0 flex-1 grid-cols-[minmax(0,1fr)]">
            {body}
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

function FormBody<S extends z.ZodObject, Row>({
  schema,
  resource,
  id,
  initial,
  title,
  description,
  backTo,
  children,
  onSaved,
  presentation,
  dictionaries,
  closeRef,
}: FormScreenProps<S, Row> & { initial: z.input<S>; closeRef: { current: () => void } }) {
  const { t } = useTranslation(['components', 'ui', 'common']);
  const navigate = useNavigate();
  const save = resource.useSave(id);
  const checked = useDictionarySchema(schema, dictionaries, initial as Record<string, unknown>);
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(checked as never) as unknown as Resolver<z.input<S>, unknown, z.output<S>>,
    defaultValues: initial as never,
    mode: 'onTouched',
  });
  const [leaving, setLeaving] = useState(false);
  const dirty = form.formState.isDirty;
  const leave = () => void navigate(backTo);
  const askLeave = () => (dirty ? setLeaving(true) : leave());
  useEffect(() => {
    closeRef.current = askLeave;
  });
  const drawer = presentation === 'drawer';
  const uploads = useFormUploads();

  const submit = async (values: z.output<S>) => {
    let row: Row;
    try {
      row = await save.mutateAsync(values);
    } catch (error) {
      const e = error instanceof ApiError ? error : null;
      if (e?.field && e.status === 400) {
        form.setError(e.field as Path<z.input<S>>, { type: 'server', message: e.message }, { shouldFocus: true });
      } else {
        toast.warning(e?.message ?? String(error));
      }
      return;
    }
    toast.success(t(OK_MSG.saved));
    await onSaved?.(row);
    leave();
  };

  const buttons = (
    <>
      <Button type="button" variant="outline" onClick={askLeave} data-testid="form-cancel">
        {t('ui:cancel')}
      </Button>
      <Button type="submit" loading={save.isPending || uploads.uploading} data-testid="form-save">
        {t('components:form.save')}
      </Button>
    </>
  );

  return (
    <>
      {drawer ? null : <PageHeader title={title} description={description} back={{ safe: !dirty }} className="pb-0" />}
      <Form {...(form as unknown as UseFormReturn<FieldValues>)}>
        <FormSchema value={schema}>
          <FormUploads value={uploads.report}>
            <form noValidate onSubmit={(e) => void form.handleSubmit(submit)(e)} className={drawer ? 'flex min-h-0 flex-col' : undefined}>
              {drawer ? (
                <>
                  <div className="grid flex-1 content-start gap-6 overflow-y-auto px-6 py-5">{children(form)}</div>
                  <div className="flex justify-end gap-2 border-t px-6 py-4">{buttons}</div>
                </>
              ) : (
                <Card>
                  <CardContent className="grid gap-6">{children(form)}</CardContent>
                  <CardFooter className="justify-end gap-2">{buttons}</CardFooter>
                </Card>
              )}
            </form>
          </FormUploads>
        </FormSchema>
      </Form>
      <ConfirmDialog
        open={leaving}
        onOpenChange={setLeaving}
        title={t('components:pageHeader.confirmTitle')}
        description={t('components:pageHeader.confirmContent')}
        onConfirm={leave}
      />
    </>
  );
}

