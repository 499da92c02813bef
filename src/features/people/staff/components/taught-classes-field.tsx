import { Plus, X } from 'lucide-react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TEACHING_SUBJECT_TABLE, type TaughtClass } from '@/domain/people/staff';
import { enumOptions } from '@/domain/presentation';
import { FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/form/form';
import { Button } from '@/components/ui/button';
import { Select, type SelectOption } from '@/components/ui/select';

type Row = { classId: string; subject: TaughtClass['subject'] };

/**
 * The classes a staff member teaches, one row per class and subject: a class, a subject and a remove button per row,
 * and a button adding a row. The value is the list the save schema takes.
 */
export function TaughtClassesField({ classes }: { classes: SelectOption[] }) {
  const { t } = useTranslation('people');
  const { control } = useFormContext();
  const subjects = enumOptions(TEACHING_SUBJECT_TABLE, t);
  return (
    <FormField
      control={control}
      name="taughtClasses"
      render={({ field, fieldState }) => {
        const rows = (field.value as Row[] | undefined) ?? [];
        // A row's own refusal (e.g. no class chosen) sits under the list; a refusal of the whole list, under FormMessage.
        const rowErrors = Array.isArray(fieldState.error) ? (fieldState.error as ({ classId?: { message?: string }; subject?: { message?: string } } | undefined)[]) : [];
        const rowError = rowErrors.map((e) => e?.classId?.message ?? e?.subject?.message).find(Boolean);
        const change = (next: Row[]) => field.onChange(next);
        return (
          <FormItem className="md:col-span-2" data-field="taughtClasses" data-testid="staff-taught-classes">
            <FormLabel>{t('staff.taughtClasses')}</FormLabel>
            <div className="grid gap-2">
              {rows.length === 0 ? <p className="text-sm text-muted-foreground">{t('staff.noClasses')}</p> : null}
              {rows.map((row, i) => (
                <div key={i} className="grid grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] items-center gap-2" data-testid="staff-taught-row">
                  <Select
                    aria-label={t('staff.classN', { n: i + 1 })}
                    aria-invalid={rowErrors[i]?.classId ? true : undefined}
                    value={row.classId}
                    options={classes}
                    onValueChange={(classId) => change(rows.map((r, j) => (j === i ? { ...r, classId } : r)))}
                  />
                  <Select
                    aria-label={t('staff.subjectN', { n: i + 1 })}
                    value={row.subject}
                    options={subjects}
                    onValueChange={(subject) => change(rows.map((r, j) => (j === i ? { ...r, subject: subject as Row['subject'] } : r)))}
                  />
                  <Button type="button" variant="ghost" size="icon" aria-label={t('staff.removeN', { n: i + 1 })} onClick={() => change(rows.filter((_, j) => j !== i))}>
                    <X aria-hidden />
                  </Button>
                </div>
              ))}
              <div>
                <Button type="button" variant="outline" size="sm" onClick={() => change([...rows, { classId: '', subject: 'pe' }])} data-testid="staff-add-class">
                  <Plus aria-hidden />
                  {t('staff.addClass')}
                </Button>
              </div>
            </div>
            <FormDescription>{t('staff.taughtClassesHint')}</FormDescription>
            {rowError ? (
              <p role="alert" className="text-sm text-destructive">
                {t(rowError, { defaultValue: rowError })}
              </p>
            ) : (
              <FormMessage />
            )}
          </FormItem>
        );
      }}
    />
  );
}
