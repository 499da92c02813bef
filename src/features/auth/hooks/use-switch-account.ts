import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import type { AccountInfo, RoleInfo } from '@/domain/auth/types';
import { landingPath } from '@/domain/menus/tree';
import { store, uinfoAtom } from '@/lib/store';
import { switchAccountRole } from '../session';

/** Chooses an account and role, rebuilds the menus and opens the new landing page (docs/product-rules.md#accounts-in-use). */
export function useSwitchAccount() {
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: ({ account, role }: { account: AccountInfo; role: RoleInfo }) => switchAccountRole(account, role),
    onSuccess: (path) => {
      if (path) navigate(path);
    },
  });
  const choose = (account: AccountInfo, role: RoleInfo) => {
    // The present role needs no switch: open its landing page.
    const landing = account.presentFlag && role.presentFlag ? landingPath(store.get(uinfoAtom)?.menuTree ?? []) : null;
    if (landing) navigate(landing);
    else mutation.mutate({ account, role });
  };
  return {
    choose,
    pending: mutation.isPending,
    /** The role being switched to, for a spinner on its button. */
    pendingRoleId: mutation.isPending ? mutation.variables?.role.roleId : undefined,
  };
}
