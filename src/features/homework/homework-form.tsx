import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { homeworkSaveSchema, TASK_CYCLE_TABLE, type HomeworkForm } from '@/domain/homework/homework';
import { enumOptions } from '@/domain/presentation';
import { localDate } from '@/domain/dates';
import { CheckboxGroupField, DateField, FieldGroup, RadioField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { homework, homeworkKey, useHomeworkOptions } from './api';
import { TaskItemsField } from '../../components/activities/task-items-field';

/** sportsHomework/homeworkManagement/add and edit/:id: name, description, classes, items with targets, cycle and period. */
export function HomeworkFormScreen() {
  const { t } = useTranslation('homework');
  const { id } = useParams();
  const access = usePageAccess(homeworkKey('k12'));
  const options = useHomeworkOptions();
  const [now] = useState(() => Date.now());
  const today = localDate(new Date(now));
  const defaults: HomeworkForm = {
    name: '',
    note: '',
    classIds: [],
    items: [{ item: '' as never, target: '', intensity: 'medium' }],
    cycle: 'daily',
    startDate: today,
    // A week from today: the usual length, changed in two clicks.
    endDate: localDate(new Date(now + 6 * 86_400_000)),
  };
  return (
    <FormScreen
      schema={homeworkSaveSchema}
      resource={homework('k12')}
      id={id}
      defaults={defaults}
      toValues={(r) => ({
        name: r.name,
        note: r.note,
        classIds: r.classIds,
        items: r.items.map((i) => ({ ...i, target: String(i.target) })),
        cycle: r.cycle,
        startDate: r.startDate,
        endDate: r.endDate,
        version: r.version,
      })}
      title={id ? t('editTitle') : t('addTitle')}
      description={t('formHint')}
      backTo={access.paths.list}
      data-testid="homework-form"
    >
      {() => (
        <FieldGroup>
          <TextField name="name" label={t('name')} required />
          <TextField name="note" label={t('note')} />
          <RadioField name="cycle" label={t('activities:task.cycle.label')} required options={enumOptions(TASK_CYCLE_TABLE, t)} />
          <div className="grid gap-4 md:grid-cols-2">
            <DateField name="startDate" label={t('activities:task.startDate')} required />
            <DateField name="endDate" label={t('activities:task.endDate')} required />
          </div>
          <CheckboxGroupField
            name="classIds"
            label={t('classes')}
            required
            className="md:col-span-2"
            options={(options.data?.classes ?? []).map((c) => ({ value: c.id, label: c.name }))}
          />
          <TaskItemsField />
        </FieldGroup>
      )}
    </FormScreen>
  );
}
