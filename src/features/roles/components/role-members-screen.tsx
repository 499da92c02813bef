import { useMemo } from 'react';
import { UserMinus, UserPlus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { Family } from '@/domain/menus/access';
import { roleManagementKey, roleMemberListQuery, type RoleMember } from '@/domain/roles/roles';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { LinkedListScreen } from '@/components/list/linked-list-screen';
import { useListState } from '@/components/list/use-list-state';
import { useRole } from '../api';

type Filters = { keyword?: string };
const col = createDataTableColumnHelper<RoleMember>();

/** …/role/members/:id: the accounts holding a role; add accounts of the organisation, remove one (effective on its next request). */
export function RoleMembersScreen({ family }: { family: Family }) {
  const { t } = useTranslation('roles');
  const { id = '' } = useParams();
  const role = useRole(family, id);
  const state = useListState<Filters>(['keyword']);

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('members.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('accountNum', { header: t('members.account') }),
        col.accessor('mobile', { header: t('members.mobile') }),
      ]),
    [t],
  );

  return (
    <LinkedListScreen<RoleMember, Filters, RoleMember>
      pageKey={roleManagementKey(family)}
      action="members"
      owner={id}
      linked={{ path: 'members', ids: 'accountIds' }}
      description={role.data ? t('title.members', { name: role.data.name }) : undefined}
      state={state}
      querySchema={roleMemberListQuery}
      filters={[{ name: 'keyword', type: 'text', label: t('members.keyword') }]}
      columns={columns}
      rowKey="accountId"
      actionsHeader={t('components:list.actions')}
      remove={{
        label: t('members.remove'),
        icon: <UserMinus aria-hidden />,
        testId: 'role-member-remove',
        confirm: (m) => ({ title: t('members.remove'), description: t('members.removeConfirm', { name: m.name }) }),
      }}
      add={{
        label: t('members.add'),
        icon: <UserPlus aria-hidden />,
        dialog: {
          description: t('members.candidates'),
          searchLabel: t('members.keyword'),
          candidateKey: (c) => c.accountId,
          renderCandidate: (c) => t('members.option', { name: c.name, account: c.accountNum }),
          candidateTestId: (c) => `candidate-${c.accountNum}`,
          emptyText: t('members.none'),
          'data-testid': 'role-member-add',
        },
      }}
      data-testid="role-members"
    />
  );
}
