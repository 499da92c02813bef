import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { z } from 'zod';
import { collegeListQuery, collegeSaveSchema, majorListQuery, majorSaveSchema, type CollegeDetail, type MajorDetail } from '@/domain/school/colleges';
import { createDataTableColumnHelper, type DataTableColumns } from '@/components/data-table/data-table';
import { FieldGroup, SelectField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState, type ListFilters } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import type { Resource } from '@/lib/resource';
import { colleges, majors, useMajorOptions } from '../api';

type T = ReturnType<typeof useTranslation<'school'>>['t'];
type CodeNameRow = { id: string; name: string; code: string };

/**
 * A list and an add/edit page of a coded, named record of the university (colleges, majors): the declaration gives
 * its page, texts (`school:<prefix>.*`), calls, schema, filters, columns and fields; name and code come first.
 */
interface CodeNameDeclaration<Row extends CodeNameRow, S extends z.ZodObject, F extends ListFilters> {
  pageKey: string;
  prefix: 'college' | 'major';
  resource: Resource<Row, z.output<S>>;
  listQuery: z.ZodObject;
  schema: S;
  defaults: z.input<S>;
  toValues(row: Row): z.input<S>;
  /** The filters (a hook: options may be loaded). */
  useFilters(t: T): FilterDef<F>[];
  /** Columns after name and code. */
  columns(t: T, col: ReturnType<typeof createDataTableColumnHelper<Row>>): DataTableColumns<Row>;
  /** The form's fields (a component: options may be loaded). */
  Fields(): ReactNode;
}

function codeNameScreens<Row extends CodeNameRow, S extends z.ZodObject, F extends ListFilters>(d: CodeNameDeclaration<Row, S, F>) {
  const col = createDataTableColumnHelper<Row>();
  const filterNames = (filters: FilterDef<F>[]) => filters.map((f) => f.name);

  function List() {
    const { t } = useTranslation('school');
    const navigate = useNavigate();
    const access = usePageAccess(d.pageKey);
    const filters = d.useFilters(t);
    const state = useListState<F>(filterNames(filters));
    const query = d.resource.useList(state.query);
    const { mutateAsync: remove } = d.resource.useDelete();
    const columns = useMemo(
      () =>
        col.columns([
          col.display({ id: 'name', header: t(`${d.prefix}.name`), cell: ({ row }) => <span className="font-medium">{row.original.name}</span> }),
          col.display({ id: 'code', header: t(`${d.prefix}.code`), cell: ({ row }) => row.original.code }),
          ...d.columns(t, col),
          rowActionsColumn<Row>({
            pageKey: d.pageKey,
            header: t('components:list.actions'),
            actions: [
              editAction((r) => void navigate(access.paths.edit!(r.id))),
              deleteAction((r) => ({ title: t(`${d.prefix}.deleteTitle`, { name: r.name }), description: t(`${d.prefix}.deleteText`) }), (r) => remove(r.id)),
            ],
          }),
        ]),
      [t, navigate, access.paths, remove],
    );
    return (
      <ListScreen
        pageKey={d.pageKey}
        state={state}
        querySchema={d.listQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        onAdd={() => void navigate(access.paths.add!)}
        data-testid={`${d.prefix}-list`}
      />
    );
  }

  /** addEdit (?id= edits). */
  function Form() {
    const { t } = useTranslation('school');
    const [params] = useSearchParams();
    const id = params.get('id') ?? undefined;
    const access = usePageAccess(d.pageKey);
    return (
      <FormScreen
        schema={d.schema}
        resource={d.resource}
        id={id}
        defaults={d.defaults}
        toValues={d.toValues}
        title={id ? t(`${d.prefix}.editTitle`) : t(`${d.prefix}.addTitle`)}
        description={t(`${d.prefix}.formHint`)}
        backTo={access.paths.list}
        data-testid={`${d.prefix}-form`}
      >
        {() => (
          <FieldGroup>
            <d.Fields />
          </FieldGroup>
        )}
      </FormScreen>
    );
  }
  return { List, Form };
}

/** gx org/college: the university's colleges (docs/product-rules.md#colleges-and-majors). */
const collegeScreens = codeNameScreens({
  pageKey: 'gx.org.college',
  prefix: 'college',
  resource: colleges,
  listQuery: collegeListQuery,
  schema: collegeSaveSchema,
  defaults: { name: '', code: '' },
  toValues: (r: CollegeDetail) => ({ name: r.name, code: r.code, version: r.version }),
  useFilters: (t): FilterDef<{ name?: string }>[] => [{ name: 'name', type: 'text', label: t('college.name') }],
  columns: (t, col) => col.columns([col.accessor('majorCount', { header: t('college.majorCount'), meta: { align: 'right' } })]),
  Fields: function CollegeFields() {
    const { t } = useTranslation('school');
    return (
      <>
        <TextField name="name" label={t('college.name')} required />
        <TextField name="code" label={t('college.code')} required inputMode="numeric" maxLength={2} placeholder="01" />
      </>
    );
  },
});

/** gx org/major: majors by college. */
const majorScreens = codeNameScreens({
  pageKey: 'gx.org.major',
  prefix: 'major',
  resource: majors,
  listQuery: majorListQuery,
  schema: majorSaveSchema,
  defaults: { collegeId: '', name: '', code: '', schoolLength: '4' },
  toValues: (r: MajorDetail) => ({ collegeId: r.collegeId, name: r.name, code: r.code, schoolLength: String(r.schoolLength), version: r.version }),
  useFilters: function useMajorFilters(t): FilterDef<{ collegeId?: string; name?: string }>[] {
    const options = useMajorOptions();
    return [
      { name: 'collegeId', type: 'select', label: t('major.college'), options: (options.data?.colleges ?? []).map((c) => ({ value: c.id, label: c.name })) },
      { name: 'name', type: 'text', label: t('major.name') },
    ];
  },
  columns: (t, col) =>
    col.columns([
      col.accessor('collegeName', { header: t('major.college') }),
      col.accessor('schoolLength', { header: t('major.schoolLength'), meta: { align: 'right' } }),
      col.accessor('classCount', { header: t('major.classCount'), meta: { align: 'right' } }),
    ]),
  Fields: function MajorFields() {
    const { t } = useTranslation('school');
    const options = useMajorOptions();
    return (
      <>
        <SelectField name="collegeId" label={t('major.college')} required options={(options.data?.colleges ?? []).map((c) => ({ value: c.id, label: `${c.code} ${c.name}` }))} />
        <TextField name="name" label={t('major.name')} required />
        <TextField name="code" label={t('major.code')} required inputMode="numeric" maxLength={2} placeholder="01" />
        <TextField name="schoolLength" label={t('major.schoolLength')} required type="number" inputMode="numeric" />
      </>
    );
  },
});

export const CollegeListScreen = collegeScreens.List;
export const CollegeFormScreen = collegeScreens.Form;
export const MajorListScreen = majorScreens.List;
export const MajorFormScreen = majorScreens.Form;
