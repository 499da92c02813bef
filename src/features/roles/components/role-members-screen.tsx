import { useMemo, useState } from 'react';
import { UserMinus, UserPlus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { Family } from '@/domain/menus/access';
import { roleManagementKey, roleMemberListQuery, type RoleMember } from '@/domain/roles/roles';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useRole, useRoleCandidates, useRoleMembers, useRoleMemberWrites } from '../api';

type Filters = { keyword?: string };
const col = createDataTableColumnHelper<RoleMember>();

/** …/role/members/:id: the accounts holding a role; add accounts of the organisation, remove one (effective on its next request). */
export function RoleMembersScreen({ family }: { family: Family }) {
  const { t } = useTranslation('roles');
  const { id = '' } = useParams();
  const key = roleManagementKey(family);
  const role = useRole(family, id);
  const state = useListState<Filters>(['keyword']);
  const query = useRoleMembers(family, id, state.query);
  const writes = useRoleMemberWrites(family, id);
  const [adding, setAdding] = useState(false);
  const filters: FilterDef<Filters>[] = [{ name: 'keyword', type: 'text', label: t('members.keyword') }];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('members.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('accountNum', { header: t('members.account') }),
        col.accessor('mobile', { header: t('members.mobile') }),
        rowActionsColumn<RoleMember>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            {
              action: 'members',
              label: t('members.remove'),
              icon: <UserMinus aria-hidden />,
              destructive: true,
              testId: 'role-member-remove',
              confirm: (m) => ({ title: t('members.remove'), description: t('members.removeConfirm', { name: m.name }) }),
              onClick: (m) => writes.remove.mutateAsync(m.accountId).then(() => undefined),
            },
          ],
        }),
      ]),
    [t, key, writes.remove],
  );

  return (
    <>
      <ListScreen
        pageKey={key}
        description={role.data ? t('title.members', { name: role.data.name }) : undefined}
        state={state}
        querySchema={roleMemberListQuery}
        filters={filters}
        query={query}
        columns={columns}
        rowKey="accountId"
        toolbar={[{ action: 'members', label: t('members.add'), icon: <UserPlus aria-hidden />, onClick: () => setAdding(true) }]}
        data-testid="role-members"
      />
      {adding ? <AddMembersDialog family={family} roleId={id} onClose={() => setAdding(false)} /> : null}
    </>
  );
}

function AddMembersDialog({ family, roleId, onClose }: { family: Family; roleId: string; onClose(): void }) {
  const { t } = useTranslation('roles');
  const [keyword, setKeyword] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const candidates = useRoleCandidates(family, roleId, keyword.trim(), true);
  const { add } = useRoleMemberWrites(family, roleId);
  const toggle = (id: string) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent data-testid="role-member-add">
        <DialogHeader>
          <DialogTitle>{t('members.add')}</DialogTitle>
          <DialogDescription>{t('members.candidates')}</DialogDescription>
        </DialogHeader>
        <Input value={keyword} maxLength={64} placeholder={t('members.keyword')} aria-label={t('members.keyword')} onChange={(e) => setKeyword(e.target.value)} />
        <ul className="grid max-h-72 gap-1 overflow-y-auto text-sm">
          {(candidates.data ?? []).map((c) => (
            <li key={c.accountId} className="flex items-center gap-2">
              <Checkbox id={`cand-${c.accountId}`} checked={chosen.has(c.accountId)} onCheckedChange={() => toggle(c.accountId)} data-testid={`candidate-${c.accountNum}`} />
              <Label htmlFor={`cand-${c.accountId}`} className="font-normal">
                {t('members.option', { name: c.name, account: c.accountNum })}
              </Label>
            </li>
          ))}
          {candidates.data?.length === 0 ? <li className="text-muted-foreground">{t('members.none')}</li> : null}
        </ul>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {t('common:action.cancel')}
          </Button>
          <Button disabled={chosen.size === 0 || add.isPending} onClick={() => void add.mutateAsync([...chosen]).then(onClose)} data-testid="role-member-add-confirm">
            {t('common:action.confirm')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
