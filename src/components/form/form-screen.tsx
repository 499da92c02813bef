import { useState, type ReactNode } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldValues, type Path, type Resolver, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { OK_MSG } from '@/domain/errors';
import { PageHeader } from '@/components/page-header/page-header';
import { QueryState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { ApiError } from '@/lib/api-client';
import type { Resource } from '@/lib/resource';
import { Form } from './form';
import { FormSchema } from './fields';

export interface FormScreenProps<S extends z.ZodObject, Row> {
  /** The save schema from src/domain (the route validates with the same one). */
  schema: S;
  resource: Resource<Row, z.output<S>>;
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
  /** The fields; the form is passed for fields that depend on others (useWatch). */
  children(form: UseFormReturn<z.input<S>, unknown, z.output<S>>): ReactNode;
  /** After a save, before returning to `backTo` (e.g. refresh what the rest of the app shows of the record). */
  onSaved?(row: Row): unknown;
  'data-testid'?: string;
}

/**
 * An add/edit page (docs/architecture.md "How to add a management screen"): loads the record, validates with the
 * domain schema, saves through the resource, then toasts and returns to the list. A refusal naming a field (400) is
 * shown on that field; a stale save (409) says so and keeps the form. Leaving a changed form asks first, with the same
 * words as every back button (docs/product-rules.md#leaving-a-form).
 */
export function FormScreen<S extends z.ZodObject, Row>(props: FormScreenProps<S, Row>) {
  const { resource, id, title, description } = props;
  const record = resource.useGet(id);
  return (
    <div data-testid={props['data-testid'] ?? 'form-screen'} className="grid grid-cols-[minmax(0,1fr)] gap-4">
      {id ? (
        <QueryState query={record} data={record.data}>
          {(row) => <FormBody key={id} {...props} initial={props.toValues(row)} title={title} description={description} />}
        </QueryState>
      ) : (
        <FormBody key="new" {...props} initial={props.defaults} title={title} description={description} />
      )}
    </div>
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
}: FormScreenProps<S, Row> & { initial: z.input<S> }) {
  const { t } = useTranslation(['components', 'ui', 'common']);
  const navigate = useNavigate();
  const save = resource.useSave(id);
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(schema as never) as unknown as Resolver<z.input<S>, unknown, z.output<S>>,
    defaultValues: initial as never,
    mode: 'onTouched',
  });
  const [leaving, setLeaving] = useState(false);
  const dirty = form.formState.isDirty;
  const leave = () => void navigate(backTo);
  const askLeave = () => (dirty ? setLeaving(true) : leave());

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

  return (
    <>
      <PageHeader title={title} description={description} back={{ safe: !dirty }} className="pb-0" />
      <Form {...(form as unknown as UseFormReturn<FieldValues>)}>
        <FormSchema value={schema}>
          <form noValidate onSubmit={(e) => void form.handleSubmit(submit)(e)}>
            <Card>
              <CardContent className="grid gap-6">{children(form)}</CardContent>
              <CardFooter className="justify-end gap-2">
                <Button type="button" variant="outline" onClick={askLeave} data-testid="form-cancel">
                  {t('ui:cancel')}
                </Button>
                <Button type="submit" loading={save.isPending} data-testid="form-save">
                  {t('components:form.save')}
                </Button>
              </CardFooter>
            </Card>
          </form>
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

