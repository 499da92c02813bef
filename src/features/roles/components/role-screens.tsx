import { useMemo } from 'react';
import { Pencil, Trash2, Users } from 'lucide-react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import type { Family } from '@/domain/menus/access';
import { DATA_SCOPES, MOBILE_FUNCTIONS, ROLE_IDENTITIES, roleListQuery, roleManagementKey, roleSaveSchema, scopeWithin, type RoleDetail, type RoleForm, type RoleRow, type RoleSave } from '@/domain/roles/roles';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { CheckboxGroupField, FieldGroup, PermissionTreeField, RadioField, SelectField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Badge } from '@/components/ui/badge';
import type { Resource } from '@/lib/resource';
import { permissionsAtom } from '@/lib/permissions';
import { presentAccountAtom } from '@/lib/store';
import { roles, useRole, useRoleMenuTree } from '../api';
import { notHeldIds, permissionNodes, treeIdsOf } from '../permission-nodes';

type Filters = { name?: string; identity?: string };
const col = createDataTableColumnHelper<RoleRow>();

/** …/role: the organisation's roles with member counts; add, edit, members, delete (docs/product-rules.md#roles). */
export function RoleListScreen({ family }: { family: Family }) {
  const { t } = useTranslation('roles');
  const navigate = useNavigate();
  const key = roleManagementKey(family);
  const access = usePageAccess(key);
  const api = roles(family);
  const state = useListState<Filters>(['name', 'identity']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const identities = ROLE_IDENTITIES.map((i) => ({ value: i, label: t(`identity.${i}`) }));
  const filters: FilterDef<Filters>[] = [
    { name: 'name', type: 'text', label: t('field.name') },
    { name: 'identity', type: 'select', label: t('field.identity'), options: identities },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: t('field.name'),
          cell: ({ row }) => (
            <span className="flex items-center gap-2 font-medium">
              {row.original.name}
              {row.original.builtin ? <Badge variant="secondary">{t('field.builtin')}</Badge> : null}
            </span>
          ),
        }),
        col.accessor('identity', { header: t('field.identity'), cell: ({ getValue }) => t(`identity.${getValue()}`) }),
        col.accessor('dataScope', { header: t('field.dataScope'), cell: ({ getValue }) => t(`dataScope.${getValue()}`) }),
        col.accessor('memberCount', { header: t('field.memberCount'), meta: { align: 'right' } }),
        col.accessor('remark', { header: t('field.remark') }),
        rowActionsColumn<RoleRow>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            { action: 'edit', icon: <Pencil aria-hidden />, onClick: (r) => void navigate(access.paths.edit!(r.id)) },
            { action: 'members', icon: <Users aria-hidden />, onClick: (r) => void navigate(`${access.paths.list}/members/${r.id}`) },
            {
              action: 'delete',
              icon: <Trash2 aria-hidden />,
              destructive: true,
              hidden: (r) => r.builtin,
              confirm: (r) => ({ title: t('deleteConfirm', { name: r.name }) }),
              onClick: (r) => remove.mutateAsync(r.id),
            },
          ],
        }),
      ]),
    [t, key, navigate, access.paths, remove],
  );

  return (
    <ListScreen
      pageKey={key}
      state={state}
      querySchema={roleListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      onAdd={() => void navigate(access.paths.add!)}
      data-testid="role-list"
    />
  );
}

/** …/role/add and edit/:recordUid: name, identity, remarks, web permissions (tree) and mobile functions. */
export function RoleFormScreen({ family }: { family: Family }) {
  const { t } = useTranslation('roles');
  const { recordUid } = useParams();
  const access = usePageAccess(roleManagementKey(family));
  const held = useAtomValue(permissionsAtom);
  const local = useMemo(() => permissionNodes(family, t), [family, t]);
  const tree = useRoleMenuTree(family).data ?? local;
  const notHeld = useMemo(() => notHeldIds(family, held), [family, held]);
  // The same query FormScreen loads the record with (shared cache): is this the built-in administrator role?
  const record = useRole(family, recordUid).data;
  const builtinAdmin = record?.builtin === true && record.identity === 'administrator';
  // Nobody hands out a scope wider than their own (docs/product-rules.md#data-scopes); the server refuses it too.
  const ownScope = useAtomValue(presentAccountAtom)?.roles.find((r) => r.presentFlag)?.dataScope ?? 'org';
  const defaults: RoleForm = { name: '', remark: '', identity: 'teacher', menuIds: [], mobileFunctions: [], dataScope: ownScope };
  return (
    <FormScreen
      schema={roleSaveSchema}
      resource={roles(family) as unknown as Resource<RoleDetail, RoleSave>}
      id={recordUid}
      defaults={defaults}
      toValues={(r) => ({
        name: r.name,
        remark: r.remark ?? '',
        identity: r.identity,
        menuIds: treeIdsOf(tree, r.menuIds),
        mobileFunctions: r.mobileFunctions,
        dataScope: r.dataScope,
        version: r.version,
      })}
      title={recordUid ? t('title.edit') : t('title.add')}
      backTo={access.paths.list}
      data-testid="role-form"
    >
      {() => (
        <>
          <FieldGroup>
            <TextField name="name" label={t('field.name')} required />
            <SelectField name="identity" label={t('field.identity')} required options={ROLE_IDENTITIES.map((i) => ({ value: i, label: t(`identity.${i}`) }))} />
            <TextField name="remark" label={t('field.remark')} className="md:col-span-2" />
            <CheckboxGroupField
              name="mobileFunctions"
              label={t('field.mobilePermissions')}
              className="md:col-span-2"
              options={MOBILE_FUNCTIONS.map((m) => ({ value: m, label: t(`mobile.${m}`) }))}
            />
            <RadioField
              name="dataScope"
              label={t('field.dataScope')}
              className="md:col-span-2"
              description={t('dataScope.hint')}
              // The built-in administrator role always sees the whole organisation (docs/product-rules.md#data-scopes).
              disabled={builtinAdmin}
              options={DATA_SCOPES.map((s) => ({ value: s, label: t(`dataScope.${s}`), disabled: !scopeWithin(s, ownScope) }))}
            />
          </FieldGroup>
          <PermissionTreeField name="menuIds" label={t('field.webPermissions')} tree={tree} disabledIds={notHeld} />
        </>
      )}
    </FormScreen>
  );
}
