import type { SchoolFamily } from '@/domain/menus/access';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListFormat } from '@/lib/list-format';
import { useNavigate, useParams } from 'react-router-dom';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/domain/constants';
import { enumLabel, enumOptions } from '@/domain/presentation';
import { GENDER_TABLE, TEACHING_SUBJECT_TABLE, staffCreateSchema, staffListQuery, staffUpdateSchema, type StaffCreate, type StaffForm, type StaffListRow, type StaffRow, type StaffUpdate } from '@/domain/people/staff';
import { accountActions, ResetPasswordDialog, useAccountWrites } from '@/components/account/account-actions';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { DictionaryField } from '@/components/form/dictionary-field';
import { FieldGroup, RadioField, SelectField, TextField, UploadField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef, type ToolbarAction } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Badge } from '@/components/ui/badge';
import type { Resource } from '@/lib/resource';
import { facePhotosAction, PersonName } from '../../photos/face-photos-dialog';
import { staff, useStaffOptions } from '../api';
import { TaughtClassesField } from './taught-classes-field';
import { usePeopleImport } from '../../import/people-import';

type Filters = { keyword?: string; roleId?: string; classId?: string; enabled?: string };
const col = createDataTableColumnHelper<StaffListRow>();
const keyOf = (family: SchoolFamily) => `${family}.user.teacher`;
const NO_WRAP = { className: 'whitespace-nowrap' };

/**
 * user/teacher: the staff of a school or university with their accounts (docs/product-rules.md#students-and-staff):
 * filters by keyword, role, taught class and status; add, edit, reset password, enable/disable, delete. ID numbers
 * are never listed.
 */
export function StaffListScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('people');
  const list = useListFormat();
  const navigate = useNavigate();
  const key = keyOf(family);
  const access = usePageAccess(key);
  const api = staff(family);
  const options = useStaffOptions(family);
  const state = useListState<Filters>(['keyword', 'roleId', 'classId', 'enabled']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const writes = useAccountWrites<StaffRow>(api);
  const [resetting, setResetting] = useState<StaffListRow | null>(null);
  const io = usePeopleImport(key, 'staff', () => void query.refetch());
  const toolbar: ToolbarAction<StaffListRow>[] = [...io.listProps.toolbar, facePhotosAction('staff', key)];

  const filters: FilterDef<Filters>[] = [
    { name: 'keyword', type: 'text', label: t('staff.keyword'), placeholder: t('staff.keywordPlaceholder'), className: 'w-64' },
    { name: 'roleId', type: 'select', label: t('staff.role'), options: (options.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name })) },
    { name: 'classId', type: 'select', label: t('staff.class'), options: (options.data?.classes ?? []).map((c) => ({ value: c.id, label: c.name })) },
    {
      name: 'enabled',
      type: 'select',
      label: t('staff.status'),
      options: [
        { value: 'true', label: t('staff.enabled') },
        { value: 'false', label: t('staff.disabled') },
      ],
    },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('staff.name'), cell: ({ row, getValue }) => <PersonName name={getValue()} photoFileId={row.original.photoFileId} />, meta: { className: 'min-w-20' } }),
        col.accessor('workNo', { header: t('staff.workNo'), meta: NO_WRAP }),
        col.accessor('accountNum', { header: t('staff.accountNum'), meta: NO_WRAP }),
        col.accessor('gender', { header: t('staff.gender'), cell: ({ getValue }) => enumLabel(GENDER_TABLE, getValue(), t), meta: NO_WRAP }),
        col.accessor('mobile', { header: t('staff.mobile'), meta: NO_WRAP }),
        col.accessor('roleName', { header: t('staff.role'), meta: NO_WRAP }),
        col.display({
          id: 'taughtClasses',
          header: t('staff.taughtClasses'),
          cell: ({ row }) => {
            const names = row.original.taughtClasses.map((c) => (c.subject === 'pe' ? c.className : `${c.className}（${enumLabel(TEACHING_SUBJECT_TABLE, c.subject, t)}）`));
            const text = list(names);
            return (
              <span className="line-clamp-2 min-w-48" title={text}>
                {text}
              </span>
            );
          },
        }),
        col.display({
          id: 'status',
          header: t('staff.status'),
          cell: ({ row }) => (
            <span className="flex flex-wrap gap-1">
              <Badge variant={row.original.enabled ? 'default' : 'secondary'}>{t(row.original.enabled ? 'staff.enabled' : 'staff.disabled')}</Badge>
              {row.original.mustChangePassword ? <Badge variant="outline">{t('components:account.mustChange')}</Badge> : null}
            </span>
          ),
        }),
        rowActionsColumn<StaffListRow>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            ...accountActions<StaffListRow>({ t, setStatus: (r, enabled) => writes.status.mutateAsync({ id: r.id, enabled }), onReset: setResetting, testId: 'staff' }),
            deleteAction((r) => ({ title: t('staff.deleteTitle', { name: r.name }), description: t('staff.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, key, navigate, access.paths, remove, writes.status, list],
  );

  return (
    <>
      <ListScreen
        pageKey={key}
        state={state}
        querySchema={staffListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        onAdd={() => void navigate(access.paths.add!)}
        toolbar={toolbar}
        onExport={io.listProps.onExport}
        exportLayout="fixed"
        data-testid="staff-list"
      />
      {io.dialog}
      {resetting ? (
        <ResetPasswordDialog account={resetting} reset={(body) => writes.reset.mutateAsync(body)} pending={writes.reset.isPending} onClose={() => setResetting(null)} testId="staff" />
      ) : null}
    </>
  );
}

type EditForm = Omit<StaffForm, 'password'>;
const DEFAULTS: EditForm = {
  name: '',
  gender: 'male',
  accountNum: '',
  roleId: '',
  mobile: '',
  workNo: '',
  idCard: '',
  certificateType: '',
  certificateNo: '',
  // The upload field's "no file" (the schema reads it as '').
  photoFileId: null,
  taughtClasses: [],
};

const toValues = (r: StaffRow): EditForm => ({
  name: r.name,
  gender: r.gender,
  accountNum: r.accountNum ?? '',
  roleId: r.roleId ?? '',
  mobile: r.mobile ?? '',
  workNo: r.workNo ?? '',
  idCard: r.idCard ?? '',
  certificateType: (r.certificateType ?? '') as StaffForm['certificateType'],
  certificateNo: r.certificateNo ?? '',
  photoFileId: r.photoFileId,
  taughtClasses: r.taughtClasses.map(({ classId, subject }) => ({ classId, subject })),
  version: r.version,
});

/** user/teacher/add and edit/:id: the person, their account and role, documents and face photo, taught classes. */
export function StaffFormScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('people');
  const { id } = useParams();
  const access = usePageAccess(keyOf(family));
  const options = useStaffOptions(family);
  const fields = (
    <div className="grid gap-6">
      <FieldGroup title={t('staff.groupPerson')}>
        <TextField name="name" label={t('staff.name')} required />
        <RadioField name="gender" label={t('staff.gender')} required options={enumOptions(GENDER_TABLE, t)} />
        <TextField name="mobile" label={t('staff.mobile')} type="tel" />
        <TextField name="workNo" label={t('staff.workNo')} description={t('staff.workNoHint')} />
      </FieldGroup>
      <FieldGroup title={t('staff.groupAccount')}>
        <TextField name="accountNum" label={t('staff.accountNum')} required description={t('staff.accountRule')} />
        <SelectField name="roleId" label={t('staff.role')} required options={(options.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name }))} />
        {id ? null : <TextField name="password" label={t('staff.password')} required type="password" description={t('staff.passwordHint', { min: PASSWORD_MIN, max: PASSWORD_MAX })} />}
      </FieldGroup>
      <FieldGroup title={t('staff.groupDocuments')}>
        <TextField name="idCard" label={t('staff.idCard')} description={t('staff.idCardHint')} className="md:col-span-2" />
        <DictionaryField name="certificateType" label={t('staff.certificateType')} dictionary="certificateType" />
        <TextField name="certificateNo" label={t('staff.certificateNo')} />
        <UploadField name="photoFileId" label={t('staff.photo')} purpose="face" description={t('staff.photoHint')} />
      </FieldGroup>
      <FieldGroup title={t('staff.groupTeaching')}>
        <TaughtClassesField classes={(options.data?.classes ?? []).map((c) => ({ value: c.id, label: c.name }))} />
      </FieldGroup>
    </div>
  );
  if (id) {
    return (
      <FormScreen
        schema={staffUpdateSchema}
        resource={staff(family) as unknown as Resource<StaffRow, StaffUpdate>}
        id={id}
        defaults={DEFAULTS}
        toValues={toValues}
        title={t('staff.editTitle')}
        backTo={access.paths.list}
        data-testid="staff-form"
      >
        {() => fields}
      </FormScreen>
    );
  }
  return (
    <FormScreen
      schema={staffCreateSchema}
      resource={staff(family) as unknown as Resource<StaffRow, StaffCreate>}
      defaults={{ ...DEFAULTS, password: '' }}
      toValues={() => ({ ...DEFAULTS, password: '' })}
      title={t('staff.addTitle')}
      description={t('staff.addHint')}
      backTo={access.paths.list}
      data-testid="staff-form"
    >
      {() => fields}
    </FormScreen>
  );
}
