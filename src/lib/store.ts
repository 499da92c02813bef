import { atom, createStore } from 'jotai';
import { atomWithStorage, createJSONStorage, RESET } from 'jotai/utils';
import type { AccountInfo, TokenData, UInfo } from '@/domain/auth/types';
import { permissionsAtom } from '@/lib/permissions';

/**
 * The one jotai store of the app. The axios client and the router guard read it outside React,
 * so atoms live in this store rather than in a provider-less default store.
 */
export const store = createStore();

// localStorage can throw (private mode, quota); the session then lasts for this page only.
export const safeLocalStorage = {
  getItem: (key: string): string | null => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  setItem: (key: string, value: string): void => {
    try {
      localStorage.setItem(key, value);
    } catch {
      /* ignore */
    }
  },
  removeItem: (key: string): void => {
    try {
      localStorage.removeItem(key);
    } catch {
      /* ignore */
    }
  },
};

function persisted<T>(key: string, initial: T) {
  // getOnInit: the guard must see the stored session on the very first render.
  return atomWithStorage<T>(key, initial, createJSONStorage<T>(() => safeLocalStorage), { getOnInit: true });
}

export const STORAGE_KEYS = {
  token: 'tiyu.token',
  allAccounts: 'tiyu.allAccounts',
  uinfo: 'tiyu.uinfo',
  lastPath: 'tiyu.lastPath',
  theme: 'tiyu.theme',
  sidebarCollapsed: 'tiyu.sidebarCollapsed',
  locked: 'tiyu.locked',
} as const;

/** Stored auth of docs/product-rules.md#accounts-in-use: the token, allAccounts and uinfo (menuTree with defaultPath, currentTypePath). */
export const tokenAtom = persisted<TokenData | null>(STORAGE_KEYS.token, null);
export const allAccountsAtom = persisted<AccountInfo[]>(STORAGE_KEYS.allAccounts, []);
export const uinfoAtom = persisted<UInfo | null>(STORAGE_KEYS.uinfo, null);
/** The last visited path inside the app (docs/product-rules.md#screens-and-routes). */
export const lastPathAtom = persisted<string | null>(STORAGE_KEYS.lastPath, null);

export type Theme = 'light' | 'dark';
export const themeAtom = persisted<Theme>(STORAGE_KEYS.theme, 'light');
export const sidebarCollapsedAtom = persisted<boolean>(STORAGE_KEYS.sidebarCollapsed, false);
/**
 * The lock screen covers the console (docs/product-rules.md#lock-screen). Stored, so a reload while locked stays locked;
 * forgotten with the credentials (a sign-out or a 401 ends the lock with the session).
 */
export const lockedAtom = persisted<boolean>(STORAGE_KEYS.locked, false);

/** The account flagged present (docs/product-rules.md#accounts-in-use), or null. */
export const presentAccountAtom = atom((get) => get(uinfoAtom)?.accounts.find((a) => a.presentFlag) ?? null);

/** Saves a user-info answer as the stored session and the permission set of the present role. */
export function saveUInfo(uinfo: UInfo): void {
  store.set(uinfoAtom, uinfo);
  store.set(allAccountsAtom, uinfo.accounts);
  store.set(permissionsAtom, new Set(uinfo.permissions));
}

export function saveToken(token: TokenData): void {
  store.set(tokenAtom, token);
}

/** Forgets every stored credential (logout, HTTP 401). The last path and preferences stay. */
export function clearAuth(): void {
  store.set(tokenAtom, RESET);
  store.set(allAccountsAtom, RESET);
  store.set(uinfoAtom, RESET);
  store.set(permissionsAtom, new Set<string>());
  store.set(lockedAtom, RESET);
}

/** The stored access token as an Authorization header value, or null. */
export function authorizationHeader(): string | null {
  const token = store.get(tokenAtom);
  if (!token?.access_token) return null;
  return `${token.token_type || 'bearer'} ${token.access_token}`;
}

/** Tenant organisation of the present account: the orgId header (docs/product-rules.md#calls). */
export function currentOrgId(): string | null {
  return store.get(presentAccountAtom)?.tenantOrgId ?? null;
}

// The permission set is not persisted on its own: rebuild it from the stored session.
store.set(permissionsAtom, new Set(store.get(uinfoAtom)?.permissions ?? []));
