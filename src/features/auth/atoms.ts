import { atom } from 'jotai';
import type { MenuNode } from '@/domain/auth/types';
import { tokenAtom, uinfoAtom } from '@/lib/store';

/** A token is stored: the login screen attempts automatic login (docs/product-rules.md#sign-in). */
export const hasTokenAtom = atom((get) => Boolean(get(tokenAtom)?.access_token));

/** '/admin' | '/k12' | '/gx' of the present account, or null (docs/product-rules.md#families). */
export const currentTypePathAtom = atom((get) => get(uinfoAtom)?.currentTypePath ?? null);

const EMPTY_TREE: MenuNode[] = [];
/** Menu tree of the present account and role. */
export const menuTreeAtom = atom((get) => get(uinfoAtom)?.menuTree ?? EMPTY_TREE);

/** The present role of the present account, or null. */
export const presentRoleAtom = atom((get) => {
  const account = get(uinfoAtom)?.accounts.find((a) => a.presentFlag);
  return account?.roles.find((r) => r.presentFlag) ?? null;
});
