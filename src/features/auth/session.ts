import type { AccountInfo, RoleInfo, UInfo } from '@/domain/auth/types';
import { ERR } from '@/domain/errors';
import { landingPath } from '@/domain/menus/tree';
import { toast } from '@/lib/toast';
import { ApiError } from '@/lib/api-error';
import { i18next } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { clearAuth, lastPathAtom, presentAccountAtom, saveUInfo, store } from '@/lib/store';
import { getUInfo, UINFO_QUERY_KEY } from '@/lib/uinfo';
import { logout } from './api/logout';
import { switchOrg } from './api/switch-org';
import { switchRole } from './api/switch-role';
import { isForeignFamily, safeRedirect } from './redirect';

const MY_INFO_BASE = '/myInfo/base';

/**
 * Where a session whose password an administrator chose goes first: the server answers 428 to everything but the
 * change itself until then (docs/product-rules.md#users).
 */
export const CHANGE_PASSWORD_PATH = '/changePassword';

/**
 * Where a session of an account that must use two-factor sign-in and has not enrolled goes first: the server answers
 * 428 to everything but the enrolment until then (docs/product-rules.md#sign-in-security).
 */
export const ENROL_TWO_FACTOR_PATH = '/enrolTwoFactor';

/** Any role of any account has at least one page (docs/product-rules.md#accounts-in-use). */
export function hasAnyMenus(uinfo: UInfo): boolean {
  return uinfo.accounts.some((a) => a.roles.some((r) => r.menus.some((m) => m.menuType === '0')));
}

function warnNoRoles(): null {
  toast.warning(i18next.t(ERR.noRoles));
  return null;
}

function remember(uinfo: UInfo): void {
  saveUInfo(uinfo);
  queryClient.setQueryData(UINFO_QUERY_KEY, uinfo);
}

/** rt is honoured when it lies in a family the session may open. */
function usableTarget(rt: string | null | undefined, uinfo: UInfo): string | null {
  const target = safeRedirect(rt);
  if (!target || !uinfo.currentTypePath) return null;
  return isForeignFamily(target, uinfo.currentTypePath) ? null : target;
}

/**
 * After a token is stored (login or automatic login), docs/product-rules.md#accounts-in-use: load the account info, switch to
 * the first account's organisation when none is present, then either go to the landing page (one
 * account with one role) or to /myInfo/base to choose. Answers the path to open, or null when no
 * role has menus (warned, session dropped).
 */
export async function completeSignIn(rt?: string | null): Promise<string | null> {
  let uinfo: UInfo;
  try {
    uinfo = await getUInfo();
  } catch (error) {
    if (error instanceof ApiError && error.status === 428) {
      // The two gates answer 428 with their own message (a stored token of a session that must still enrol).
      return error.message === i18next.t('security:twoFactor.enrolmentRequired') ? ENROL_TWO_FACTOR_PATH : CHANGE_PASSWORD_PATH;
    }
    throw error;
  }
  const first = uinfo.accounts[0];
  if (first && !uinfo.accounts.some((a) => a.presentFlag)) {
    uinfo = await switchOrg({ orgId: first.orgId, tenantOrgId: first.tenantOrgId });
  }
  if (!uinfo.accounts.length || !hasAnyMenus(uinfo)) {
    await signOutQuietly();
    return warnNoRoles();
  }
  const only = uinfo.accounts.length === 1 && uinfo.accounts[0].roles.length === 1 ? uinfo.accounts[0] : null;
  if (only) {
    const role = only.roles[0];
    // The menu is built for the single role (docs/product-rules.md#accounts-in-use); switching makes it present when it is not yet.
    if (!only.presentFlag || !role.presentFlag || !uinfo.menuTree.length) {
      uinfo = await switchRole({ accountId: only.accountId, roleId: role.roleId, tenantOrgId: only.tenantOrgId });
    }
    remember(uinfo);
    const landing = landingPath(uinfo.menuTree);
    if (!landing) {
      await signOutQuietly();
      return warnNoRoles();
    }
    return usableTarget(rt, uinfo) ?? landing;
  }
  remember(uinfo);
  return usableTarget(rt, uinfo) ?? MY_INFO_BASE;
}

/** The last visited path, when the stored session may still open it (automatic login). */
export function lastVisitedPath(): string | null {
  return safeRedirect(store.get(lastPathAtom));
}

/**
 * Makes `account` and `role` present (docs/product-rules.md#accounts-in-use: switch account, role or tenant organisation):
 * switchOrg when the organisation changes, then switchRole. Answers the new landing page, or
 * null when the role has no menus (warned).
 */
export async function switchAccountRole(account: AccountInfo, role: RoleInfo): Promise<string | null> {
  const present = store.get(presentAccountAtom);
  let uinfo: UInfo | null = null;
  if (!present || present.orgId !== account.orgId || present.tenantOrgId !== account.tenantOrgId) {
    uinfo = await switchOrg({ orgId: account.orgId, tenantOrgId: account.tenantOrgId });
  }
  const now = uinfo?.accounts.find((a) => a.accountId === account.accountId);
  const alreadyPresent = now?.presentFlag && now.roles.some((r) => r.roleId === role.roleId && r.presentFlag);
  if (!uinfo || !alreadyPresent) {
    uinfo = await switchRole({ accountId: account.accountId, roleId: role.roleId, tenantOrgId: account.tenantOrgId });
  }
  // Cached answers belong to the previous organisation or role.
  queryClient.clear();
  remember(uinfo);
  return landingPath(uinfo.menuTree) ?? warnNoRoles();
}

/** Forgets the session locally; tells the server when a token is still held. */
async function signOutQuietly(): Promise<void> {
  try {
    await logout();
  } catch {
    /* the token may already be invalid; the local session goes regardless */
  }
  clearAuth();
  queryClient.clear();
}

let signedOutAt = 0;
/** A logout ran in the last few seconds: the route guard then goes to login without rt or warning. */
export function recentlySignedOut(): boolean {
  return Date.now() - signedOutAt < 3000;
}

/** Logout: revoke on the server, clear everything stored, back to the login screen. */
export async function signOut(): Promise<void> {
  signedOutAt = Date.now();
  store.set(lastPathAtom, null);
  await signOutQuietly();
}
