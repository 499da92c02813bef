import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/domain/constants';
import { userCreateSchema, userListQuery, userUpdateSchema, type UserCreate, type UserForm, type UserRow, type UserUpdate } from '@/domain/users/users';
import { accountActions, ResetPasswordDialog, useAccountWrites } from '@/components/account/account-actions';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { FieldGroup, RadioField, SelectField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { useReviewedImport } from '@/components/import-dialog/reviewed-import';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Badge } from '@/components/ui/badge';
import type { Resource } from '@/lib/resource';
import { users, useUserOptions } from '../api';

const KEY = 'admin.user.user';
type Filters = { keyword?: string; roleId?: string; enabled?: string };
const col = createDataTableColumnHelper<UserRow>();

/** user: the management organisation's own accounts (docs/product-rules.md#users). */
export function UserListScreen() {
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  const access = usePageAccess(KEY);
  const options = useUserOptions();
  const state = useListState<Filters>(['keyword', 'roleId', 'enabled']);
  const query = users.useList(state.query);
  const remove = users.useDelete();
  const writes = useAccountWrites<UserRow>(users);
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const io = useReviewedImport({ base: users.base, jobKind: 'peopleImport', title: t('people:import.title.user'), description: t('people:import.description.user'), updatable: true, onImported: () => void query.refetch() });

  const filters: FilterDef<Filters>[] = [
    { name: 'keyword', type: 'text', label: t('keyword'), placeholder: t('keywordPlaceholder') },
    { name: 'roleId', type: 'select', label: t('role'), options: (options.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name })) },
    {
      name: 'enabled',
      type: 'select',
      label: t('status'),
      options: [
        { value: 'true', label: t('orgManage:orgs.enabled') },
        { value: 'false', label: t('orgManage:orgs.disabled') },
      ],
    },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('accountNum', { header: t('accountNum') }),
        col.accessor('mobile', { header: t('mobile') }),
        col.accessor('roleName', { header: t('role') }),
        col.display({
          id: 'status',
          header: t('status'),
          cell: ({ row }) => (
            <span className="flex flex-wrap gap-1">
              <Badge variant={row.original.enabled ? 'default' : 'secondary'}>{t(row.original.enabled ? 'orgManage:orgs.enabled' : 'orgManage:orgs.disabled')}</Badge>
              {row.original.mustChangePassword ? <Badge variant="outline">{t('components:account.mustChange')}</Badge> : null}
            </span>
          ),
        }),
        rowActionsColumn<UserRow>({
          pageKey: KEY,
          header: t('components:list.actions'),
          actions: [
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            ...accountActions<UserRow>({ t, setStatus: (r, enabled) => writes.status.mutateAsync({ id: r.id, enabled }), onReset: setResetting, testId: 'user' }),
            deleteAction((r) => ({ title: t('deleteTitle', { name: r.name }), description: t('deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, navigate, access.paths, remove, writes.status],
  );

  return (
    <>
      <ListScreen
        pageKey={KEY}
        state={state}
        querySchema={userListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="id"
        onAdd={() => void navigate(access.paths.add!)}
        {...io.listProps}
        data-testid="user-list"
      />
      {io.dialog}
      {resetting ? (
        <ResetPasswordDialog account={resetting} reset={(body) => writes.reset.mutateAsync(body)} pending={writes.reset.isPending} onClose={() => setResetting(null)} testId="user" />
      ) : null}
    </>
  );
}

/** user/add and user/edit/:id: name, login account, mobile, role, status; a new account's first password. */
export function UserFormScreen() {
  const { t } = useTranslation('users');
  const { id } = useParams();
  const access = usePageAccess(KEY);
  const options = useUserOptions();
  const defaults: UserForm = { name: '', accountNum: '', mobile: '', roleId: '', enabled: 'true', password: '' };
  const fields = (
    <FieldGroup>
      <TextField name="name" label={t('name')} required />
      <TextField name="accountNum" label={t('accountNum')} required description={t('accountRule')} />
      <TextField name="mobile" label={t('mobile')} type="tel" />
      <SelectField name="roleId" label={t('role')} required options={(options.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name }))} />
      <RadioField
        name="enabled"
        label={t('status')}
        required
        options={[
          { value: 'true', label: t('orgManage:orgs.enabled') },
          { value: 'false', label: t('orgManage:orgs.disabled') },
        ]}
      />
      {id ? null : (
        <TextField name="password" label={t('firstPassword')} required type="password" description={t('firstPasswordHint', { min: PASSWORD_MIN, max: PASSWORD_MAX })} />
      )}
    </FieldGroup>
  );
  if (id) {
    return (
      <FormScreen
        schema={userUpdateSchema}
        resource={users as unknown as Resource<UserRow, UserUpdate>}
        id={id}
        defaults={defaults}
        toValues={(r) => ({ name: r.name, accountNum: r.accountNum, mobile: r.mobile ?? '', roleId: r.roleId ?? '', enabled: String(r.enabled), version: r.version })}
        title={t('editTitle')}
        backTo={access.paths.list}
        data-testid="user-form"
      >
        {() => fields}
      </FormScreen>
    );
  }
  return (
    <FormScreen
      schema={userCreateSchema}
      resource={users as unknown as Resource<UserRow, UserCreate>}
      defaults={defaults}
      toValues={() => defaults}
      title={t('addTitle')}
      description={t('addHint')}
      backTo={access.paths.list}
      data-testid="user-form"
    >
      {() => fields}
    </FormScreen>
  );
}
