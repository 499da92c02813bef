import type { SchoolFamily } from '@/domain/menus/access';
import { useMemo } from 'react';
import { CalendarDays, Eye, Images, LayoutGrid, Plus, Square, Trash2 } from 'lucide-react';
import { useFieldArray, useFormContext, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import {
  EVENT_TYPE_TABLE,
  GROUP_GENDER_TABLE,
  MEET_STATUS_TABLE,
  ROUND_PLAN_TABLE,
  meetListQuery,
  meetSaveSchema,
  usesLanes,
  DEFAULT_RELAY_LEGS,
  type MeetDetail,
  type MeetForm,
  type MeetRow,
} from '@/domain/meets/meets';
import { RESULT_KIND_TABLE } from '@/domain/meets/marks';
import { enumOptions } from '@/domain/presentation';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { CheckboxGroupField, DateField, FieldGroup, SelectField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { Button } from '@/components/ui/button';
import { meets, useMeetOptions } from '../api';
import { localDate } from '@/domain/dates';
import { gradeNameKey } from '@/domain/school/grade-name';

type Filters = { name?: string; status?: string };
const col = createDataTableColumnHelper<MeetRow>();


/** sportsMeet: the meets with their status and arrangement state; add, detail (edit), arrange, calendar, end, delete. */
export function MeetListScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const navigate = useNavigate();
  const key = `${family}.sportsMeet.manage`;
  const access = usePageAccess(key);
  const api = meets(family);
  const state = useListState<Filters>(['name', 'status']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const filters: FilterDef<Filters>[] = [
    { name: 'name', type: 'text', label: t('meet.name'), placeholder: t('meet.namePlaceholder') },
    { name: 'status', type: 'select', label: t('meet.status'), options: enumOptions(MEET_STATUS_TABLE, t) },
  ];
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('meet.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.display({ id: 'dates', header: t('meet.dates'), cell: ({ row }) => `${row.original.startDate} ~ ${row.original.endDate}` }),
        col.display({ id: 'signup', header: t('meet.signup'), cell: ({ row }) => `${row.original.signupStart} ~ ${row.original.signupEnd}` }),
        col.accessor('status', { header: t('meet.status'), cell: ({ getValue }) => <EnumBadge table={MEET_STATUS_TABLE} value={getValue()} /> }),
        col.accessor('arrangeState', { header: t('meet.arrangeState'), cell: ({ getValue }) => t(`arrange.${getValue()}`) }),
        col.accessor('eventCount', { header: t('meet.eventCount'), meta: { align: 'right' } }),
        col.accessor('entryCount', { header: t('meet.entryCount'), meta: { align: 'right' } }),
        rowActionsColumn<MeetRow>({
          pageKey: key,
          header: t('components:list.actions'),
          width: 260,
          actions: [
            { action: 'detail', icon: <Eye aria-hidden />, onClick: (r) => void navigate(access.paths.detail!(r.id)) },
            { action: 'arrange', icon: <LayoutGrid aria-hidden />, onClick: (r) => void navigate(access.paths.route('arrange', r.id)) },
            { action: 'calendar', icon: <CalendarDays aria-hidden />, onClick: (r) => void navigate(access.paths.route('calendar', r.id)) },
            { action: 'demeanor', icon: <Images aria-hidden />, onClick: (r) => void navigate(access.paths.route('demeanor', r.id)) },
            {
              action: 'end',
              icon: <Square aria-hidden />,
              hidden: (r) => r.status === 'ended',
              confirm: (r) => ({ title: t('meet.endTitle', { name: r.name }), description: t('meet.endText') }),
              onClick: async (r) => {
                const { post } = await import('@/lib/api-client');
                await post(`${api.base}/${r.id}/end`);
                await query.refetch();
              },
            },
            deleteAction((r) => ({ title: t('meet.deleteTitle', { name: r.name }), description: t('meet.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, key, navigate, access.paths, remove, api.base, query],
  );
  return (
    <ListScreen
      pageKey={key}
      state={state}
      querySchema={meetListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      onAdd={() => void navigate(access.paths.add!)}
      data-testid="meet-list"
    />
  );
}

export const emptyEvent = (): MeetForm['groups'] extends (infer G)[] | undefined ? (G extends { events: (infer E)[] } ? E : never) : never => ({
  name: '',
  type: 'track',
  resultKind: 'time',
  lanes: 8,
  heatSize: 8,
  classCap: 2,
  rounds: 'final',
  advanceByPlace: 0,
  finalSize: 0,
  attempts: 3,
  relayLegs: DEFAULT_RELAY_LEGS,
  duration: 10,
  venueId: null,
});

function defaults(): MeetForm {
  const day = (n: number) => localDate(new Date(Date.now() + n * 86400000));
  return {
    name: '',
    signupStart: day(0),
    signupEnd: day(7),
    startDate: day(10),
    endDate: day(11),
    morning: { start: '08:00', end: '11:30' },
    afternoon: { start: '14:00', end: '17:30' },
    venueIds: [],
    athleteCap: 2,
    pointsTable: [9, 7, 6, 5, 4, 3, 2, 1],
    relayFactor: 2,
    recordBonus: 0,
    changeover: 10,
    minRest: 30,
    groups: [{ name: '', gender: 'male', gradeIds: [], bibStart: 1001, events: [emptyEvent()] }],
  };
}

const toValues = (m: MeetDetail): MeetForm => ({
  name: m.name,
  startDate: m.startDate,
  endDate: m.endDate,
  signupStart: m.signupStart,
  signupEnd: m.signupEnd,
  morning: m.morning,
  afternoon: m.afternoon,
  venueIds: m.venueIds,
  athleteCap: m.athleteCap,
  pointsTable: m.pointsTable,
  relayFactor: m.relayFactor,
  recordBonus: m.recordBonus,
  changeover: m.changeover,
  minRest: m.minRest,
  groups: m.groups.map((g) => ({ ...g, events: g.events.map(({ entryCount: _e, heatCount: _h, groupId: _g, ...e }) => e) })),
  version: m.version,
});

/** sportsMeet/add and detail/:meetId: the meet, its sessions and rules, groups and their events. */
export function MeetFormScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('meets');
  const { meetId } = useParams();
  const access = usePageAccess(`${family}.sportsMeet.manage`);
  const options = useMeetOptions(family);
  const venueOptions = (options.data?.venues ?? []).map((v) => ({ value: v.id, label: v.name }));
  return (
    <FormScreen
      schema={meetSaveSchema}
      resource={meets(family)}
      id={meetId}
      defaults={defaults()}
      toValues={toValues}
      title={meetId ? t('meet.detailTitle') : t('meet.addTitle')}
      description={t('meet.formHint')}
      backTo={access.paths.list}
      data-testid="meet-form"
    >
      {(form) => (
        <>
          <FieldGroup title={t('meet.basics')}>
            <TextField name="name" label={t('meet.name')} required />
            <DateField name="signupStart" label={t('meet.signupStart')} required />
            <DateField name="signupEnd" label={t('meet.signupEnd')} required />
            <DateField name="startDate" label={t('meet.startDate')} required />
            <DateField name="endDate" label={t('meet.endDate')} required />
            <TextField name="morning.start" label={t('meet.morningStart')} placeholder="08:00" />
            <TextField name="morning.end" label={t('meet.morningEnd')} placeholder="11:30" />
            <TextField name="afternoon.start" label={t('meet.afternoonStart')} placeholder="14:00" />
            <TextField name="afternoon.end" label={t('meet.afternoonEnd')} placeholder="17:30" />
            <TextField name="athleteCap" type="number" label={t('meet.athleteCap')} required />
            <TextField name="changeover" type="number" label={t('meet.changeover')} />
            <TextField name="minRest" type="number" label={t('meet.minRest')} />
            <TextField name="relayFactor" type="number" label={t('meet.relayFactor')} />
            <TextField name="recordBonus" type="number" label={t('meet.recordBonus')} />
            {venueOptions.length ? <CheckboxGroupField name="venueIds" label={t('meet.venues')} options={venueOptions} /> : null}
          </FieldGroup>
          <PointsTableField />
          <Groups form={form} venueOptions={venueOptions} grades={options.data?.grades ?? []} />
        </>
      )}
    </FormScreen>
  );
}

function PointsTableField() {
  const { t } = useTranslation('meets');
  const { watch, setValue } = useFormContext<MeetForm>();
  const table = (watch('pointsTable') ?? []) as number[];
  return (
    <FieldGroup title={t('meet.pointsTable')}>
      <label className="grid gap-2 text-sm sm:col-span-2">
        <span>{t('meet.pointsTableHint')}</span>
        <input
          className="h-9 rounded-md border bg-background px-3"
          data-testid="points-table"
          defaultValue={table.join(', ')}
          onBlur={(e) =>
            setValue(
              'pointsTable',
              e.target.value
                .split(/[,，\s]+/)
                .filter(Boolean)
                .map(Number),
              { shouldDirty: true },
            )
          }
        />
      </label>
    </FieldGroup>
  );
}

type Opt = { value: string; label: string };

function Groups({ form, venueOptions, grades }: { form: UseFormReturn<MeetForm, unknown, unknown>; venueOptions: Opt[]; grades: { id: string; stage: string; gradeNo: number }[] }) {
  const { t } = useTranslation('meets');
  const groups = useFieldArray({ control: form.control, name: 'groups' });
  const gradeOptions = grades.map((g) => ({ value: g.id, label: t(gradeNameKey(g.gradeNo), { defaultValue: String(g.gradeNo) }) }));
  return (
    <div className="grid gap-4" data-testid="meet-groups">
      {groups.fields.map((g, gi) => (
        <div key={g.id} className="grid gap-3 rounded-lg border p-4">
          <div className="flex items-center justify-between gap-2">
            <h3 className="font-semibold">{t('group.title', { no: gi + 1 })}</h3>
            <Button type="button" variant="ghost" size="sm" onClick={() => groups.remove(gi)} aria-label={t('group.remove', { no: gi + 1 })}>
              <Trash2 aria-hidden />
            </Button>
          </div>
          <FieldGroup>
            <TextField name={`groups.${gi}.name`} label={t('group.name')} required placeholder={t('group.namePlaceholder')} />
            <SelectField name={`groups.${gi}.gender`} label={t('group.gender')} required clearable={false} options={enumOptions(GROUP_GENDER_TABLE, t)} />
            <TextField name={`groups.${gi}.bibStart`} type="number" label={t('group.bibStart')} required />
            {gradeOptions.length ? <CheckboxGroupField name={`groups.${gi}.gradeIds`} label={t('group.grades')} options={gradeOptions} /> : null}
          </FieldGroup>
          <Events form={form} gi={gi} venueOptions={venueOptions} />
        </div>
      ))}
      <Button type="button" variant="outline" onClick={() => groups.append({ name: '', gender: 'male', gradeIds: [], bibStart: 1001 + groups.fields.length * 1000, events: [emptyEvent()] })} data-testid="add-group">
        <Plus aria-hidden /> {t('group.add')}
      </Button>
    </div>
  );
}

function Events({ form, gi, venueOptions }: { form: UseFormReturn<MeetForm, unknown, unknown>; gi: number; venueOptions: Opt[] }) {
  const { t } = useTranslation('meets');
  const events = useFieldArray({ control: form.control, name: `groups.${gi}.events` });
  const values = form.watch(`groups.${gi}.events`) ?? [];
  return (
    <div className="grid gap-3">
      {events.fields.map((e, ei) => {
        const p = `groups.${gi}.events.${ei}` as const;
        const v = values[ei];
        const lanes = v ? usesLanes(v.type) : true;
        return (
          <div key={e.id} className="grid gap-2 rounded-md bg-muted/40 p-3" data-testid="meet-event">
            <div className="flex items-center justify-between">
              <span className="text-sm font-medium">{t('event.title', { no: ei + 1 })}</span>
              <Button type="button" variant="ghost" size="sm" onClick={() => events.remove(ei)} aria-label={t('event.remove', { no: ei + 1 })}>
                <Trash2 aria-hidden />
              </Button>
            </div>
            <div className="grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-6">
              <TextField name={`${p}.name`} label={t('event.name')} required />
              <SelectField name={`${p}.type`} label={t('event.type')} required clearable={false} options={enumOptions(EVENT_TYPE_TABLE, t)} />
              <SelectField name={`${p}.resultKind`} label={t('event.resultKind')} required clearable={false} options={enumOptions(RESULT_KIND_TABLE, t)} />
              {lanes ? <TextField name={`${p}.lanes`} type="number" label={t('event.lanes')} required /> : null}
              <TextField name={`${p}.heatSize`} type="number" label={lanes ? t('event.heatSize') : t('event.flightSize')} required />
              <TextField name={`${p}.classCap`} type="number" label={t('event.classCap')} required />
              <SelectField name={`${p}.rounds`} label={t('event.rounds')} required clearable={false} options={enumOptions(ROUND_PLAN_TABLE, t)} />
              {v?.rounds === 'heatsFinal' ? <TextField name={`${p}.advanceByPlace`} type="number" label={t('event.advanceByPlace')} /> : null}
              {v?.rounds === 'heatsFinal' ? <TextField name={`${p}.finalSize`} type="number" label={t('event.finalSize')} /> : null}
              {!lanes ? <TextField name={`${p}.attempts`} type="number" label={t('event.attempts')} /> : null}
              {v?.type === 'relay' ? <TextField name={`${p}.relayLegs`} type="number" label={t('event.relayLegs')} required /> : null}
              <TextField name={`${p}.duration`} type="number" label={t('event.duration')} />
              {venueOptions.length ? <SelectField name={`${p}.venueId`} label={t('event.venue')} options={venueOptions} /> : null}
            </div>
          </div>
        );
      })}
      <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => events.append(emptyEvent())} data-testid="add-event">
        <Plus aria-hidden /> {t('event.add')}
      </Button>
    </div>
  );
}
