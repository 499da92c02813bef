import { useMemo, useState } from 'react';
import { Plus, UserMinus, UserPlus, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { departmentMemberListQuery, departmentSaveSchema, type DepartmentForm, type DepartmentMember, type DepartmentRow } from '@/domain/org-manage/departments';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { FieldGroup, TextField, TreeSelectField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { LinkedListScreen } from '@/components/list/linked-list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { subtreeIds, treeFromFlat, type TreeNode } from '@/components/tree/tree';
import { TreeTable, type TreeRow } from '@/components/tree/tree-table';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { departmentResource, useDepartmentTree } from '../api';

const KEY = 'admin.org.department';
const membersPath = (id: string) => getCatalogEntry(`${KEY}.member`)!.path.replace(':id', encodeURIComponent(id));
const col = createDataTableColumnHelper<TreeRow<DepartmentRow>>();

/** departmentManage: the organisation's department tree (docs/product-rules.md#departments). */
export function DepartmentListScreen() {
  const { t } = useTranslation('orgManage');
  const navigate = useNavigate();
  const access = usePageAccess(KEY);
  const [name, setName] = useState('');
  const [applied, setApplied] = useState('');
  const query = useDepartmentTree(applied);
  const remove = departmentResource().useDelete();

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('code', { header: t('department.code') }),
        col.accessor('memberCount', { header: t('department.memberCount'), meta: { align: 'right' } }),
        rowActionsColumn<TreeRow<DepartmentRow>>({
          pageKey: KEY,
          header: t('components:list.actions'),
          actions: [
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            { action: 'members', icon: <Users aria-hidden />, onClick: (r) => void navigate(membersPath(r.id)), testId: 'department-members' },
            deleteAction((r) => ({ title: t('department.deleteTitle', { name: r.name }), description: t('department.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, navigate, access.paths, remove],
  );

  return (
    <div data-testid="department-list" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader
        title={t('department.title')}
        actions={
          access.can('add') ? (
            <Button onClick={() => void navigate(access.paths.add!)} data-testid="list-add">
              <Plus aria-hidden />
              {t('department.addTitle')}
            </Button>
          ) : null
        }
      />
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(name.trim());
        }}
      >
        <Input className="max-w-xs" value={name} maxLength={64} onChange={(e) => setName(e.target.value)} placeholder={t('department.namePlaceholder')} aria-label={t('department.name')} />
        <Button type="submit" variant="outline">
          {t('components:searchForm.search')}
        </Button>
      </form>
      <QueryState query={query} data={query.data}>
        {(rows) => (
          <TreeTable
            rows={treeFromFlat(rows) as TreeRow<DepartmentRow>[]}
            label={{ header: t('department.name'), cell: (r) => <span className="font-medium">{r.name}</span> }}
            columns={columns}
            aria-label={t('department.title')}
          />
        )}
      </QueryState>
    </div>
  );
}

/** The department tree as choices of a parent: the edited department and those below it are not choosable. */
function parentChoices(rows: readonly DepartmentRow[], selfId?: string): TreeNode[] {
  const tree = treeFromFlat(rows) as unknown as (DepartmentRow & { children: DepartmentRow[] })[];
  const toNode = (d: DepartmentRow & { children?: readonly DepartmentRow[] }): TreeNode => ({
    id: d.id,
    label: `${d.name}（${d.code}）`,
    children: (d.children ?? []).map(toNode),
  });
  const nodes = tree.map(toNode);
  if (!selfId) return nodes;
  const self = flattenFind(nodes, selfId);
  const banned = new Set(self ? subtreeIds(self) : [selfId]);
  const mark = (n: TreeNode): TreeNode => ({ ...n, disabled: banned.has(n.id), children: n.children?.map(mark) });
  return nodes.map(mark);
}

function flattenFind(nodes: readonly TreeNode[], id: string): TreeNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return n;
    const hit = n.children ? flattenFind(n.children, id) : undefined;
    if (hit) return hit;
  }
  return undefined;
}

/** departmentManage/add and edit/:id: name, two-digit code, parent department. */
export function DepartmentFormScreen() {
  const { t } = useTranslation('orgManage');
  const { id } = useParams();
  const access = usePageAccess(KEY);
  const all = useDepartmentTree();
  const defaults: DepartmentForm = { name: '', code: '', parentId: '' };
  return (
    <FormScreen
      schema={departmentSaveSchema}
      resource={departmentResource()}
      id={id}
      defaults={defaults}
      toValues={(r) => ({ name: r.name, code: r.code, parentId: r.parentId ?? '', version: r.version })}
      title={id ? t('department.editTitle') : t('department.addTitle')}
      description={t('department.formHint')}
      backTo={access.paths.list}
      data-testid="department-form"
    >
      {() => (
        <FieldGroup>
          <TextField name="name" label={t('department.name')} required />
          <TextField name="code" label={t('department.code')} required inputMode="numeric" placeholder="01" />
          <TreeSelectField name="parentId" label={t('department.parent')} tree={parentChoices(all.data ?? [], id)} placeholder={t('department.noParent')} />
        </FieldGroup>
      )}
    </FormScreen>
  );
}

type MemberFilters = { keyword?: string };
const memberCol = createDataTableColumnHelper<DepartmentMember>();

/** departmentManage/member/:id: the department's members; add accounts of the organisation, remove one. */
export function DepartmentMembersScreen() {
  const { t } = useTranslation('orgManage');
  const { id = '' } = useParams();
  const department = departmentResource().useGet(id);
  const state = useListState<MemberFilters>(['keyword']);

  const columns = useMemo(
    () =>
      memberCol.columns([
        memberCol.accessor('name', { header: t('users:name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        memberCol.accessor('accountNum', { header: t('users:accountNum') }),
        memberCol.accessor('mobile', { header: t('users:mobile') }),
      ]),
    [t],
  );

  return (
    <LinkedListScreen<DepartmentMember, MemberFilters, DepartmentMember>
      pageKey={KEY}
      action="members"
      owner={id}
      linked={{ path: 'members', ids: 'accountIds' }}
      description={department.data ? t('department.membersOf', { name: department.data.name }) : undefined}
      state={state}
      querySchema={departmentMemberListQuery}
      filters={[{ name: 'keyword', type: 'text', label: t('department.keyword') }]}
      columns={columns}
      rowKey="accountId"
      actionsHeader={t('components:list.actions')}
      remove={{
        label: t('department.removeMember'),
        icon: <UserMinus aria-hidden />,
        testId: 'department-member-remove',
        confirm: (m) => ({ title: t('department.removeMember'), description: t('department.removeConfirm', { name: m.name }) }),
      }}
      add={{
        label: t('department.addMembers'),
        icon: <UserPlus aria-hidden />,
        dialog: {
          description: t('department.candidates'),
          searchLabel: t('department.keyword'),
          candidateKey: (c) => c.accountId,
          renderCandidate: (c) => t('department.option', { name: c.name, account: c.accountNum }),
          candidateTestId: (c) => `candidate-${c.accountNum}`,
          emptyText: t('department.noCandidates'),
          'data-testid': 'department-member-add',
        },
      }}
      data-testid="department-members"
    />
  );
}
