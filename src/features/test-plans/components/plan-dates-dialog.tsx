import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { planDatesSchema } from '@/domain/test-plans/schemas';
import type { PlanRow } from '@/domain/test-plans/types';
import { FormDialog } from '@/components/form/form-dialog';
import { Checkbox } from '@/components/ui/checkbox';
import { useChangePlanDatesMutation } from '../api/reopen-plan';
import type { Family } from '@/domain/menus/access';
import { PlanDateFields } from './plan-date-fields';

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
  const { t } = useTranslation(['testPlansUi', 'common']);
  const change = useChangePlanDatesMutation(family);
  // Undoing the early end is not part of the dates request: it picks the call (reopen or correct).
  const [reopen, setReopen] = useState(true);
  const [shown, setShown] = useState(plan);
  if (shown !== plan) {
    setShown(plan);
    setReopen(plan?.endedAt != null);
  }
  return (
    <FormDialog
      open={plan !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      schema={planDatesSchema}
      defaults={{ startDate: plan?.startDate ?? '', endDate: plan?.endDate ?? '' }}
      title={t('datesDialog.title')}
      description={t('datesDialog.description', { name: plan?.name ?? '' })}
      className="sm:max-w-md"
      submit={(dates) => change.mutateAsync({ id: plan!.id, dates, reopen: plan!.endedAt !== null && reopen })}
      submitText={t('datesDialog.save')}
      submitTestId="plan-dates-save"
      data-testid="plan-dates-dialog"
    >
      {() => (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <PlanDateFields />
          </div>
          {plan?.endedAt ? (
            <label className="flex items-center gap-2 text-sm">
              <Checkbox checked={reopen} onCheckedChange={(c) => setReopen(c === true)} data-testid="plan-dates-reopen" />
              {t('datesDialog.reopen')}
            </label>
          ) : null}
        </>
      )}
    </FormDialog>
  );
}
