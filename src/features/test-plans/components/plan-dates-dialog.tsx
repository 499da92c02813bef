import { useEffect } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { TriangleAlert } from 'lucide-react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { OK_MSG } from '@/domain/errors';
import { planDatesWarning } from '@/domain/test-plans/access';
import { planDatesSchema, type PlanDatesRequest } from '@/domain/test-plans/schemas';
import { localDate } from '@/domain/test-plans/status';
import type { PlanRow } from '@/domain/test-plans/types';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/form/form';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { DatePicker } from '@/components/ui/date-picker';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { useChangePlanDatesMutation } from '../api/reopen-plan';
import type { Family } from '@/domain/menus/access';

interface DatesValues extends PlanDatesRequest {
  reopen: boolean;
}

export interface PlanDatesDialogProps {
  family: Family;
  /** The ended plan whose dates are changed; null = closed. */
  plan: Pick<PlanRow, 'id' | 'name' | 'startDate' | 'endDate' | 'endedAt'> | null;
  onClose(): void;
}

/**
 * An administrator changes an ended plan's dates (src/domain/test-plans/access.ts); for a plan ended early,
 * optionally undoing the early end too. The server records either in the plan's history.
 */
export function PlanDatesDialog({ family, plan, onClose }: PlanDatesDialogProps) {
  const { t } = useTranslation(['testPlanUi', 'common']);
  const change = useChangePlanDatesMutation(family);
  const form = useForm<DatesValues>({
    // The schema checks the dates and drops `reopen`, which is read from the form itself.
    resolver: zodResolver(planDatesSchema) as unknown as Resolver<DatesValues>,
    defaultValues: { startDate: '', endDate: '', reopen: true },
  });
  useEffect(() => {
    if (plan) form.reset({ startDate: plan.startDate, endDate: plan.endDate, reopen: plan.endedAt !== null });
  }, [plan, form]);
  const [startDate, endDate, reopen] = useWatch({ control: form.control, name: ['startDate', 'endDate', 'reopen'] });
  const warning = planDatesWarning({ startDate, endDate }, localDate(new Date()));

  const submit = form.handleSubmit(async (values) => {
    if (!plan) return;
    await change.mutateAsync({ id: plan.id, dates: { startDate: values.startDate, endDate: values.endDate }, reopen: plan.endedAt !== null && reopen });
    toast.success(t(OK_MSG.saved));
    onClose();
  });

  return (
    <Dialog open={plan !== null} onOpenChange={(open) => (!open && !change.isPending ? onClose() : undefined)}>
      <DialogContent className="sm:max-w-md" data-testid="plan-dates-dialog">
        <DialogHeader>
          <DialogTitle>{t('datesDialog.title')}</DialogTitle>
          <DialogDescription>{t('datesDialog.description', { name: plan?.name ?? '' })}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form className="grid gap-4" onSubmit={(e) => void submit(e)} noValidate>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                control={form.control}
                name="startDate"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel required>{t('form.startDate')}</FormLabel>
                    <FormControl>
                      <DatePicker value={field.value || undefined} onChange={(v) => field.onChange(v ?? '')} onBlur={field.onBlur} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="endDate"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel required>{t('form.endDate')}</FormLabel>
                    <FormControl>
                      <DatePicker value={field.value || undefined} onChange={(v) => field.onChange(v ?? '')} onBlur={field.onBlur} min={startDate || undefined} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            </div>
            {plan?.endedAt ? (
              <label className="flex items-center gap-2 text-sm">
                <Checkbox checked={reopen} onCheckedChange={(c) => form.setValue('reopen', c === true)} data-testid="plan-dates-reopen" />
                {t('datesDialog.reopen')}
              </label>
            ) : null}
            {warning ? (
              <p role="status" className="flex items-start gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm" data-testid="plan-dates-warning">
                <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />
                {t(`warning.${warning}`, { end: endDate })}
              </p>
            ) : null}
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline" disabled={change.isPending}>
                  {t('common:action.cancel')}
                </Button>
              </DialogClose>
              <Button type="submit" loading={change.isPending} data-testid="plan-dates-save">
                {t('datesDialog.save')}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
