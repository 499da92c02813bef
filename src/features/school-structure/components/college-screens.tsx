import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { collegeListQuery, collegeSaveSchema, majorListQuery, majorSaveSchema, type CollegeDetail, type CollegeForm, type MajorDetail, type MajorForm } from '@/domain/school/colleges';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { FieldGroup, SelectField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { colleges, majors, useMajorOptions } from '../api';

const COLLEGE = 'gx.org.college';
const MAJOR = 'gx.org.major';
const collegeCol = createDataTableColumnHelper<CollegeDetail>();
const majorCol = createDataTableColumnHelper<MajorDetail>();

/** gx org/college: the university's colleges (docs/product-rules.md#colleges-and-majors). */
export function CollegeListScreen() {
  const { t } = useTranslation('school');
  const navigate = useNavigate();
  const access = usePageAccess(COLLEGE);
  const state = useListState<{ name?: string }>(['name']);
  const query = colleges.useList(state.query);
  const remove = colleges.useDelete();
  const filters: FilterDef<{ name?: string }>[] = [{ name: 'name', type: 'text', label: t('college.name') }];
  const columns = useMemo(
    () =>
      collegeCol.columns([
        collegeCol.accessor('name', { header: t('college.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        collegeCol.accessor('code', { header: t('college.code') }),
        collegeCol.accessor('majorCount', { header: t('college.majorCount'), meta: { align: 'right' } }),
        rowActionsColumn<CollegeDetail>({
          pageKey: COLLEGE,
          header: t('components:list.actions'),
          actions: [
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            deleteAction((r) => ({ title: t('college.deleteTitle', { name: r.name }), description: t('college.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, navigate, access.paths, remove],
  );
  return (
    <ListScreen
      pageKey={COLLEGE}
      state={state}
      querySchema={collegeListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      onAdd={() => void navigate(access.paths.add!)}
      data-testid="college-list"
    />
  );
}

/** gx org/college/addEdit (?id= edits). */
export function CollegeFormScreen() {
  const { t } = useTranslation('school');
  const [params] = useSearchParams();
  const id = params.get('id') ?? undefined;
  const access = usePageAccess(COLLEGE);
  const defaults: CollegeForm = { name: '', code: '' };
  return (
    <FormScreen
      schema={collegeSaveSchema}
      resource={colleges}
      id={id}
      defaults={defaults}
      toValues={(r) => ({ name: r.name, code: r.code, version: r.version })}
      title={id ? t('college.editTitle') : t('college.addTitle')}
      description={t('college.formHint')}
      backTo={access.paths.list}
      data-testid="college-form"
    >
      {() => (
        <FieldGroup>
          <TextField name="name" label={t('college.name')} required />
          <TextField name="code" label={t('college.code')} required inputMode="numeric" maxLength={2} placeholder="01" />
        </FieldGroup>
      )}
    </FormScreen>
  );
}

type MajorFilters = { collegeId?: string; name?: string };

/** gx org/major: majors by college. */
export function MajorListScreen() {
  const { t } = useTranslation('school');
  const navigate = useNavigate();
  const access = usePageAccess(MAJOR);
  const options = useMajorOptions();
  const state = useListState<MajorFilters>(['collegeId', 'name']);
  const query = majors.useList(state.query);
  const remove = majors.useDelete();
  const filters: FilterDef<MajorFilters>[] = [
    { name: 'collegeId', type: 'select', label: t('major.college'), options: (options.data?.colleges ?? []).map((c) => ({ value: c.id, label: c.name })) },
    { name: 'name', type: 'text', label: t('major.name') },
  ];
  const columns = useMemo(
    () =>
      majorCol.columns([
        majorCol.accessor('name', { header: t('major.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        majorCol.accessor('code', { header: t('major.code') }),
        majorCol.accessor('collegeName', { header: t('major.college') }),
        majorCol.accessor('schoolLength', { header: t('major.schoolLength'), meta: { align: 'right' } }),
        majorCol.accessor('classCount', { header: t('major.classCount'), meta: { align: 'right' } }),
        rowActionsColumn<MajorDetail>({
          pageKey: MAJOR,
          header: t('components:list.actions'),
          actions: [
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            deleteAction((r) => ({ title: t('major.deleteTitle', { name: r.name }), description: t('major.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, navigate, access.paths, remove],
  );
  return (
    <ListScreen
      pageKey={MAJOR}
      state={state}
      querySchema={majorListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      onAdd={() => void navigate(access.paths.add!)}
      data-testid="major-list"
    />
  );
}

/** gx org/major/addEdit (?id= edits). */
export function MajorFormScreen() {
  const { t } = useTranslation('school');
  const [params] = useSearchParams();
  const id = params.get('id') ?? undefined;
  const access = usePageAccess(MAJOR);
  const options = useMajorOptions();
  const defaults: MajorForm = { collegeId: '', name: '', code: '', schoolLength: '4' };
  return (
    <FormScreen
      schema={majorSaveSchema}
      resource={majors}
      id={id}
      defaults={defaults}
      toValues={(r) => ({ collegeId: r.collegeId, name: r.name, code: r.code, schoolLength: String(r.schoolLength), version: r.version })}
      title={id ? t('major.editTitle') : t('major.addTitle')}
      description={t('major.formHint')}
      backTo={access.paths.list}
      data-testid="major-form"
    >
      {() => (
        <FieldGroup>
          <SelectField name="collegeId" label={t('major.college')} required options={(options.data?.colleges ?? []).map((c) => ({ value: c.id, label: `${c.code} ${c.name}` }))} />
          <TextField name="name" label={t('major.name')} required />
          <TextField name="code" label={t('major.code')} required inputMode="numeric" maxLength={2} placeholder="01" />
          <TextField name="schoolLength" label={t('major.schoolLength')} required type="number" inputMode="numeric" />
        </FieldGroup>
      )}
    </FormScreen>
  );
}
