import { useMemo } from 'react';
import { BarChart3, Eye, Flag, Mountain, Plus, Trophy } from 'lucide-react';
import { useFieldArray, useFormState, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import {
  CONTEST_STATUS_TABLE,
  CONTEST_TYPE_TABLE,
  contestListQuery,
  contestPageKey,
  contestSaveSchema,
  RANKING_RULE_TABLE,
  type ContestForm,
  type ContestRow,
  type ContestStatus,
  type ContestType,
} from '@/domain/contests/contests';
import { enumOptions } from '@/domain/presentation';
import { ACTIVITY_ITEM_KEYS, ACTIVITY_ITEMS, type ActivityItemKey } from '@/domain/activities/items';
import type { Family } from '@/domain/menus/access';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { CheckboxGroupField, DateField, FieldGroup, RadioField, SelectField, TextareaField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef, type ToolbarAction } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { useActivityFormat } from '../../components/activities/format';
import { contestResource, useContestOptions, useEndContest } from './api';
import { gradeNameKey } from '@/domain/school/grade-name';

type Filters = { name?: string; status?: string; type?: string };
const col = createDataTableColumnHelper<ContestRow>();

/** The hidden route of a contest action: a university's challenges have their own add/edit/detail/data routes. */
export const contestRoute = (type: ContestType, action: 'add' | 'edit' | 'detail' | 'data') => `${action}${type === 'challenge' ? 'Challenge' : 'Rank'}`;

export function ContestStatusBadge({ status }: { status: ContestStatus }) {
  return <EnumBadge table={CONTEST_STATUS_TABLE} value={status} />;
}

/**
 * onlineManagement/competitionRank (and competition at a university; docs/product-rules.md#contests): contests with
 * name, status and type filters; add (a ranking contest, or at a university also an obstacle challenge), edit while
 * not ended, detail, data, early end, delete.
 */
export function ContestListScreen({ family }: { family: Family }) {
  const { t } = useTranslation('contests');
  const fmt = useActivityFormat();
  const navigate = useNavigate();
  const key = contestPageKey(family);
  const access = usePageAccess(key);
  const api = contestResource(family);
  const gx = family === 'gx';
  const state = useListState<Filters>(gx ? ['name', 'status', 'type'] : ['name', 'status']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const end = useEndContest(family);
  const go = (type: ContestType, action: 'add' | 'edit' | 'detail' | 'data', id = '') => void navigate(access.paths.route(contestRoute(type, action), id));

  const filters: FilterDef<Filters>[] = [
    { name: 'name', type: 'text', label: t('filter.name'), placeholder: t('filter.namePlaceholder') },
    { name: 'status', type: 'select', label: t('filter.status'), className: 'w-32', options: enumOptions(CONTEST_STATUS_TABLE, t) },
    ...(gx ? [{ name: 'type', type: 'select', label: t('filter.type'), className: 'w-32', options: enumOptions(CONTEST_TYPE_TABLE, t) } as const] : []),
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('column.name'), cell: ({ getValue }) => <span className="inline-block min-w-36 font-medium">{getValue()}</span> }),
        ...(gx ? [col.accessor('type', { header: t('column.type'), cell: ({ getValue }) => t(`type.${getValue()}`) })] : []),
        col.display({
          id: 'period',
          header: t('column.period'),
          cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{`${row.original.startDate} ~ ${row.original.endDate}`}</span>,
        }),
        col.accessor('items', { header: t('column.items'), cell: ({ getValue }) => fmt.list(getValue().map(fmt.item)) }),
        col.accessor('rule', { header: t('column.rule'), cell: ({ row }) => (row.original.type === 'challenge' ? '—' : t(`rule.${row.original.rule}`)) }),
        col.accessor('status', { header: t('column.status'), cell: ({ getValue }) => <ContestStatusBadge status={getValue()} /> }),
        col.accessor('participants', { header: t('column.participants'), meta: { align: 'right' } }),
        rowActionsColumn<ContestRow>({
          pageKey: key,
          header: t('column.actions'),
          actions: [
            { action: 'detail', icon: <Eye aria-hidden />, onClick: (r) => go(r.type, 'detail', r.id) },
            { action: 'data', icon: <BarChart3 aria-hidden />, onClick: (r) => go(r.type, 'data', r.id) },
            { ...editAction<ContestRow>((r) => go(r.type, 'edit', r.id)), hidden: (r) => r.status === 'ended' },
            {
              action: 'end',
              icon: <Flag aria-hidden />,
              destructive: true,
              hidden: (r) => r.status === 'ended',
              confirm: (r) => ({ title: t('end.title', { name: r.name }), description: t('end.text') }),
              done: t('endedNow'),
              onClick: async (r) => void (await end.mutateAsync(r.id)),
            },
            deleteAction((r) => ({ title: t('delete.title', { name: r.name }), description: t('delete.text') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    // go only closes over navigate and the paths.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, fmt, gx, key, remove, end, access.paths],
  );

  const toolbar: ToolbarAction<ContestRow>[] = gx
    ? [
        { action: 'addRank', icon: <Trophy aria-hidden />, variant: 'default', onClick: () => go('rank', 'add') },
        { action: 'addChallenge', icon: <Mountain aria-hidden />, variant: 'default', onClick: () => go('challenge', 'add') },
      ]
    : [];
  return (
    <ListScreen
      pageKey={key}
      description={t('description')}
      state={state}
      querySchema={contestListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      onAdd={gx ? undefined : () => go('rank', 'add')}
      toolbar={toolbar}
      data-testid="contest-list"
    />
  );
}

const itemLabel = (fmt: ReturnType<typeof useActivityFormat>, k: ActivityItemKey) => fmt.withUnit(k);

function ContestFields({ family, type, form, locked }: { family: Family; type: ContestType; form: UseFormReturn<ContestForm>; locked: boolean }) {
  const { t } = useTranslation(['contests', 'school']);
  const fmt = useActivityFormat();
  const options = useContestOptions(family);
  const levels = useFieldArray({ control: form.control, name: 'levels' });
  const [startDate, items, rule] = useWatch({ control: form.control, name: ['startDate', 'items', 'rule'] });
  const o = options.data;
  const itemOptions = ACTIVITY_ITEM_KEYS.map((k) => ({ value: k, label: itemLabel(fmt, k) }));
  const challengeItem = (items?.[0] as ActivityItemKey | undefined) ?? undefined;
  // The error of `items` itself (an empty list), which no field of the challenge form reads; the resolver files it as
  // the list's `root` because a field (items.0) is registered below it.
  const itemsErrors = useFormState({ control: form.control, name: 'items' }).errors.items;
  const itemsError = itemsErrors?.root?.message ?? itemsErrors?.message;
  return (
    <>
      <FieldGroup>
        <TextField name="name" label={t('form.name')} required placeholder={t('form.namePlaceholder')} />
        <DateField name="startDate" label={t('form.startDate')} required disabled={locked} />
        <DateField name="endDate" label={t('form.endDate')} required min={startDate || undefined} />
        {type === 'rank' ? (
          <RadioField
            name="rule"
            label={t('form.rule')}
            required
            options={enumOptions(RANKING_RULE_TABLE, t)}
            description={t(`ruleHint.${rule ?? 'best'}`)}
          />
        ) : null}
      </FieldGroup>
      <FieldGroup title={t('detail.scope')}>
        <CheckboxGroupField
          name="gradeNos"
          label={t('form.grades')}
          description={t('form.scopeHint')}
          options={(o?.grades ?? []).map((g) => ({ value: String(g), label: t(gradeNameKey(g)) }))}
          className="md:col-span-2"
        />
        {family !== 'admin' ? (
          <CheckboxGroupField name="classIds" label={t('form.classes')} options={(o?.classes ?? []).map((c) => ({ value: c.id, label: c.name }))} className="md:col-span-2" />
        ) : null}
        {family === 'gx' ? (
          <CheckboxGroupField name="collegeIds" label={t('form.colleges')} options={(o?.colleges ?? []).map((c) => ({ value: c.id, label: c.name }))} className="md:col-span-2" />
        ) : null}
      </FieldGroup>
      <FieldGroup>
        {type === 'rank' ? (
          <CheckboxGroupField name="items" label={t('form.items')} required options={itemOptions} className="md:col-span-2" />
        ) : (
          <div className="grid gap-2" data-testid="challenge-item">
            <SelectField name="items.0" label={t('form.item')} required clearable={false} options={itemOptions} />
            {itemsError ? (
              <p role="alert" className="text-sm text-destructive">
                {t(itemsError)}
              </p>
            ) : null}
          </div>
        )}
        <TextareaField name="prizes" label={t('form.prizes')} placeholder={t('form.prizesPlaceholder')} className="md:col-span-2" />
      </FieldGroup>
      {type === 'challenge' ? (
        <FieldGroup title={t('form.levels')}>
          <p className="text-sm text-muted-foreground md:col-span-2">
            {t('form.levelsHint')}
            {challengeItem && ACTIVITY_ITEMS.get(challengeItem) ? ` · ${itemLabel(fmt, challengeItem)}` : ''}
          </p>
          {levels.fields.map((f, i) => (
            <div key={f.id} className="grid grid-cols-[1fr_1fr_auto] items-start gap-3 md:col-span-2" data-testid={`level-${i}`}>
              <TextField name={`levels.${i}.name`} label={t('form.levelName')} required />
              <TextField name={`levels.${i}.threshold`} label={t('form.threshold')} required type="number" inputMode="decimal" />
              <Button type="button" variant="ghost" className="mt-6" onClick={() => levels.remove(i)} aria-label={`${t('form.removeLevel')} ${i + 1}`}>
                {t('form.removeLevel')}
              </Button>
            </div>
          ))}
          <div className="md:col-span-2">
            <Button
              type="button"
              variant="outline"
              disabled={levels.fields.length >= 10}
              onClick={() => levels.append({ name: t('form.levelDefault', { n: levels.fields.length + 1 }), threshold: '' as unknown as number })}
            >
              <Plus aria-hidden />
              {t('form.addLevel')}
            </Button>
          </div>
          <TextField name="passLevels" label={t('form.passLevels')} required type="number" inputMode="numeric" />
        </FieldGroup>
      ) : null}
    </>
  );
}

/** addRank / editRank/:id (and addChallenge / editChallenge/:id at a university). */
export function ContestFormScreen({ family, type }: { family: Family; type: ContestType }) {
  const { t } = useTranslation('contests');
  const { id } = useParams();
  const access = usePageAccess(contestPageKey(family));
  const api = contestResource(family);
  const record = api.useGet(id);
  const defaults: ContestForm = {
    type,
    name: '',
    startDate: '',
    endDate: '',
    gradeNos: [],
    classIds: [],
    collegeIds: [],
    items: [],
    rule: 'best',
    prizes: '',
    levels: type === 'challenge' ? [{ name: t('form.levelDefault', { n: 1 }), threshold: '' as unknown as number }] : [],
    passLevels: type === 'challenge' ? 1 : null,
  };
  const title = t(`form.${id ? 'edit' : 'add'}${type === 'challenge' ? 'Challenge' : 'Rank'}`);
  return (
    <FormScreen
      schema={contestSaveSchema}
      resource={api}
      id={id}
      defaults={defaults}
      toValues={(r) => ({
        type: r.type,
        name: r.name,
        startDate: r.startDate,
        endDate: r.endDate,
        gradeNos: r.gradeNos.map(String),
        classIds: r.classIds,
        collegeIds: r.collegeIds,
        items: r.items,
        rule: r.rule,
        prizes: r.prizes ?? '',
        levels: r.levels,
        passLevels: r.passLevels,
        version: r.version,
      })}
      title={title}
      description={t('form.hint')}
      backTo={access.paths.list}
      data-testid="contest-form"
    >
      {(form) => <ContestFields family={family} type={type} form={form as unknown as UseFormReturn<ContestForm>} locked={record.data?.status === 'running'} />}
    </FormScreen>
  );
}

function Term({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium break-words whitespace-pre-wrap">{children}</dd>
    </div>
  );
}

/** detailRank/:id (and detailChallenge/:id): the contest's settings, with links to edit and to its data. */
export function ContestDetailScreen({ family }: { family: Family }) {
  const { t } = useTranslation(['contests', 'school']);
  const fmt = useActivityFormat();
  const { id } = useParams();
  const navigate = useNavigate();
  const key = contestPageKey(family);
  const access = usePageAccess(key);
  const query = contestResource(family).useGet(id);
  const options = useContestOptions(family);
  const c = query.data;
  const classNames = new Map((options.data?.classes ?? []).map((x) => [x.id, x.name]));
  const collegeNames = new Map((options.data?.colleges ?? []).map((x) => [x.id, x.name]));
  const scope = c
    ? [
        ...c.gradeNos.map((g) => t(gradeNameKey(g))),
        ...c.classIds.map((x) => classNames.get(x) ?? x),
        ...c.collegeIds.map((x) => collegeNames.get(x) ?? x),
      ]
    : [];
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="contest-detail">
      <PageHeader
        title={c ? c.name : t('detail.title')}
        back
        actions={
          c ? (
            <>
              {access.can('edit') && c.status !== 'ended' ? (
                <Button variant="outline" onClick={() => void navigate(access.paths.route(contestRoute(c.type, 'edit'), c.id))}>
                  {t('menus:button.edit')}
                </Button>
              ) : null}
              {access.can('data') ? (
                <Button onClick={() => void navigate(access.paths.route(contestRoute(c.type, 'data'), c.id))}>
                  <BarChart3 aria-hidden />
                  {t('detail.data')}
                </Button>
              ) : null}
            </>
          ) : null
        }
      />
      <QueryState query={query} data={c}>
        {(row) => (
          <Card>
            <CardContent>
              <dl className="grid gap-x-8 gap-y-5 sm:grid-cols-2 lg:grid-cols-3">
                <Term label={t('column.type')}>{t(`type.${row.type}`)}</Term>
                <Term label={t('column.status')}>
                  <ContestStatusBadge status={row.status} />
                </Term>
                <Term label={t('column.period')}>{`${row.startDate} ~ ${row.endDate}`}</Term>
                {row.endedAt ? <Term label={t('detail.endedAt')}>{fmt.dateTime(row.endedAt)}</Term> : null}
                <Term label={t('column.items')}>{fmt.list(row.items.map((k) => itemLabel(fmt, k)))}</Term>
                {row.type === 'rank' ? <Term label={t('column.rule')}>{t(`rule.${row.rule}`)}</Term> : null}
                <Term label={t('detail.scope')}>{scope.length ? fmt.list(scope) : t('detail.everyone')}</Term>
                <Term label={t('column.participants')}>{row.participants}</Term>
                <Term label={t('form.prizes')}>{row.prizes || t('detail.noPrizes')}</Term>
                {row.type === 'challenge' ? (
                  <>
                    <Term label={t('form.levels')}>{row.levels.map((l) => t('detail.level', { name: l.name, value: fmt.value(row.items[0], l.threshold) })).join('\n')}</Term>
                    <Term label={t('form.passLevels')}>{row.passLevels}</Term>
                  </>
                ) : null}
              </dl>
            </CardContent>
          </Card>
        )}
      </QueryState>
    </div>
  );
}
