import { ListOrdered } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { monitorBandsSchema, type MonitorBands, type MonitorBandsForm, type MonitorBandsView, type MonitorRow } from '@/domain/lesson-load/monitor';
import { SelectField } from '@/components/form/fields';
import { FormDialog } from '@/components/form/form-dialog';
import type { ActionDialogProps } from '@/components/list/page-actions';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useMonitorBands, useMonitorWrites, type MonitorFamily } from './api';

/**
 * The bands of the school not yet lent in the form, given in serial order to the students (roster order) who have
 * none: the teacher hands the bands out in that order.
 */
export function assignInOrder(values: MonitorBandsForm['bindings'], bands: readonly string[]): MonitorBandsForm['bindings'] {
  const taken = new Set(values.map((b) => b.band).filter(Boolean));
  const free = bands.filter((b) => !taken.has(b));
  return values.map((b) => (b.band || free.length === 0 ? b : { ...b, band: free.shift()! }));
}

/** Lends bands to the lesson's students: the roster with a band each (none to take one back); audited on the lesson. */
export function BandsDialog({ family, rows, open, onOpenChange, done }: { family: MonitorFamily } & ActionDialogProps<MonitorRow>) {
  const { t } = useTranslation('lessonLoad');
  const [lesson] = rows;
  const view = useMonitorBands(family, lesson.id, open);
  const writes = useMonitorWrites(family);
  if (!view.data) {
    return open ? (
      <FormDialog open={open} onOpenChange={onOpenChange} schema={monitorBandsSchema} defaults={{ bindings: [], version: lesson.version }} title={t('bands.title', { name: lesson.className })} submit={() => Promise.resolve(null)} ready={() => false}>
        {() => <Skeleton className="h-40 w-full" />}
      </FormDialog>
    ) : null;
  }
  return <BandsForm view={view.data} lesson={lesson} open={open} onOpenChange={onOpenChange} done={done} lend={(body) => writes.lend.mutateAsync({ lessonId: lesson.id, ...body })} />;
}

function BandsForm({ view, lesson, open, onOpenChange, done, lend }: { view: MonitorBandsView; lesson: MonitorRow; open: boolean; onOpenChange(open: boolean): void; done(): void; lend(body: MonitorBands): Promise<MonitorBandsView> }) {
  const { t } = useTranslation('lessonLoad');
  const options = view.bands.map((b) => ({ value: b.serialNo, label: b.name === b.serialNo ? b.serialNo : `${b.serialNo} ${b.name}` }));
  const defaults: MonitorBandsForm = { bindings: view.students.map((s) => ({ studentId: s.id, band: s.band ?? '' })), version: view.version };
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={monitorBandsSchema}
      defaults={defaults}
      title={t('bands.title', { name: lesson.className })}
      description={view.bands.length ? t('bands.hint') : t('bands.noBands')}
      submit={(body) => lend(body)}
      success={(r) => t('bands.lent', { count: r.students.filter((s) => s.band).length })}
      onDone={done}
      submitText={t('bands.lend')}
      className="sm:max-w-2xl"
      data-testid="bands-dialog"
    >
      {(form) => (
        <div className="flex flex-col gap-3">
          <div>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={view.bands.length === 0}
              onClick={() => form.setValue('bindings', assignInOrder(form.getValues('bindings'), view.bands.map((b) => b.serialNo)), { shouldDirty: true })}
              data-testid="bands-assign"
            >
              <ListOrdered aria-hidden />
              {t('bands.assignInOrder')}
            </Button>
          </div>
          <div className="grid max-h-[55vh] grid-cols-1 gap-x-4 gap-y-2 overflow-y-auto pr-1 sm:grid-cols-2">
            {view.students.map((s, i) => (
              <SelectField key={s.id} name={`bindings.${i}.band`} label={s.name} placeholder={t('bands.none')} options={options} />
            ))}
          </div>
        </div>
      )}
    </FormDialog>
  );
}
