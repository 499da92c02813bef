import { TriangleAlert } from 'lucide-react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { planDatesWarning } from '@/domain/test-plans/access';
import { localDate } from '@/domain/dates';
import { DateField } from '@/components/form/fields';

/**
 * A plan's start and end dates with the warning about dates in the past or a short window
 * (src/domain/test-plans/access.ts): the plan form and the dialog that changes an ended plan's dates.
 */
export function PlanDateFields() {
  const { t } = useTranslation('testPlansUi');
  const { control } = useFormContext<{ startDate: string; endDate: string }>();
  const [startDate, endDate] = useWatch({ control, name: ['startDate', 'endDate'] });
  const warning = planDatesWarning({ startDate, endDate }, localDate(new Date()));
  return (
    <>
      <DateField name="startDate" label={t('form.startDate')} required />
      <DateField name="endDate" label={t('form.endDate')} required min={startDate || undefined} />
      {warning ? (
        <p role="status" className="flex items-start gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm md:col-span-2 sm:col-span-2" data-testid="plan-dates-warning">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />
          {t(`warning.${warning}`, { end: endDate })}
        </p>
      ) : null}
    </>
  );
}
