import { Plus, Trash2 } from 'lucide-react';
import { useFieldArray, useFormContext, useFormState, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { INTENSITY_TABLE, TASK_CYCLE_TABLE, TASK_ITEMS_MAX, type Intensity, type TaskCycle } from '@/domain/homework/homework';
import { enumLabel, enumOptions } from '@/domain/presentation';
import { ACTIVITY_ITEM_KEYS, ACTIVITY_ITEMS, type ActivityItemKey } from '@/domain/activities/items';
import { TASK_STATUS_TABLE, type PlanStatus } from '@/domain/test-plans/status';
import { SelectField, TextField } from '@/components/form/fields';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { Button } from '@/components/ui/button';

/**
 * Pieces shared by the homework and special-training screens (docs/product-rules.md#homework): the items editor (item,
 * target in the item's unit, intensity), item and status labels.
 */

/** '1分钟跳绳' and its unit '次'. */
export function useItemLabels() {
  const { t } = useTranslation('activities');
  return {
    item: (key: ActivityItemKey | string) => t(`item.${key}`),
    unit: (key: ActivityItemKey | string) => {
      const rule = ACTIVITY_ITEMS.get(key as ActivityItemKey);
      return rule ? t(`unit.${rule.unit}`) : '';
    },
    /** '120 次' */
    value: (key: ActivityItemKey | string, value: number) => {
      const rule = ACTIVITY_ITEMS.get(key as ActivityItemKey);
      return rule ? `${value} ${t(`unit.${rule.unit}`)}` : String(value);
    },
    intensity: (i: Intensity) => enumLabel(INTENSITY_TABLE, i, t),
    cycle: (c: TaskCycle) => enumLabel(TASK_CYCLE_TABLE, c, t),
  };
}

/** One line per item: '1分钟跳绳 ≥ 120 次（中）'. */
export function ItemTargets({ items }: { items: readonly { item: ActivityItemKey; target: number; intensity: Intensity }[] }) {
  const { t } = useTranslation('activities');
  const labels = useItemLabels();
  return (
    <ul className="grid gap-1">
      {items.map((i) => (
        <li key={i.item}>
          {t(ACTIVITY_ITEMS.get(i.item)?.lowerIsBetter ? 'task.targetAtMost' : 'task.targetAtLeast', {
            item: labels.item(i.item),
            value: labels.value(i.item, i.target),
            intensity: labels.intensity(i.intensity),
          })}
        </li>
      ))}
    </ul>
  );
}

/** Not started / in progress / ended, worked out by the server from the dates and an early end. */
export function TaskStatusBadge({ status }: { status: PlanStatus }) {
  return <EnumBadge table={TASK_STATUS_TABLE} value={status} data-status={status} data-testid="task-status" />;
}

/** The items of a homework or plan: item, target and intensity per row; add and remove rows. */
export function TaskItemsField() {
  const { t } = useTranslation('activities');
  const labels = useItemLabels();
  const { control, watch } = useFormContext<FieldValues>();
  const items = useFieldArray({ control, name: 'items' });
  const { errors } = useFormState({ control, name: 'items' });
  const values = (watch('items') ?? []) as { item?: string }[];
  const itemError = errors.items as { message?: string; root?: { message?: string } } | undefined;
  const message = itemError?.message ?? itemError?.root?.message;
  const options = ACTIVITY_ITEM_KEYS.map((k) => ({ value: k, label: labels.item(k) }));
  const intensities = enumOptions(INTENSITY_TABLE, t);
  return (
    <fieldset className="grid gap-3 md:col-span-2" data-testid="task-items" aria-describedby={message ? 'task-items-error' : undefined}>
      <legend className="mb-2 text-sm font-medium">
        {t('task.items')}
        <span aria-hidden className="ml-0.5 text-destructive">
          *
        </span>
      </legend>
      {items.fields.map((f, i) => {
        const key = values[i]?.item;
        const unit = key ? labels.unit(key) : '';
        return (
          <div key={f.id} className="grid items-start gap-3 rounded-md border p-3 md:grid-cols-[1fr_1fr_1fr_auto]" data-testid="task-item">
            <SelectField name={`items.${i}.item`} label={t('task.itemLabel')} required options={options} />
            <TextField name={`items.${i}.target`} label={unit ? t('task.targetWithUnit', { unit }) : t('task.target')} required type="number" inputMode="decimal" />
            <SelectField name={`items.${i}.intensity`} label={t('task.intensity.label')} required options={intensities} />
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="mt-6"
              aria-label={t('task.removeItem', { n: i + 1 })}
              title={t('task.removeItem', { n: i + 1 })}
              onClick={() => items.remove(i)}
            >
              <Trash2 aria-hidden />
            </Button>
          </div>
        );
      })}
      <div>
        <Button
          type="button"
          variant="outline"
          disabled={items.fields.length >= TASK_ITEMS_MAX}
          onClick={() => items.append({ item: '', target: '', intensity: 'medium' })}
          data-testid="task-add-item"
        >
          <Plus aria-hidden />
          {t('task.addItem')}
        </Button>
      </div>
      {message ? (
        <p id="task-items-error" role="alert" className="text-sm text-destructive">
          {t(message)}
        </p>
      ) : null}
    </fieldset>
  );
}
