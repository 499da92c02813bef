import { useEffect } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { OK_MSG } from '@/domain/errors';
import { planDatesSchema, type PlanDatesRequest } from '@/domain/test-plans/schemas';
import type { PlanRow } from '@/domain/test-plans/types';
import { Form } from '@/components/form/form';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/lib/toast';
import { useChangePlanDatesMutation } from '../api/reopen-plan';
import type { Family } from '@/domain/menus/access';
import { PlanDateFields } from './plan-date-fields';

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
  const reopen = useWatch({ control: form.control, name: 'reopen' });

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
              <PlanDateFields />
            </div>
            {plan?.endedAt ? (
              <label className="flex items-center gap-2 text-sm">
                <Checkbox checked={reopen} onCheckedChange={(c) => form.setValue('reopen', c === true)} data-testid="plan-dates-reopen" />
                {t('datesDialog.reopen')}
              </label>
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
