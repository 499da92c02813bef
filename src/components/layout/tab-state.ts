import type { AccountInfo, UInfo } from '@/domain/auth/types';
import { IDLE_LOCK_MINUTES, DEFAULT_IDLE_LOCK_MINUTES, type IdleLockMinutes } from '@/domain/shell/lock';
import { safeLocalStorage } from '@/lib/store';

/**
 * The tab bar's state (docs/product-rules.md#tab-bar): the pages open as tabs, in order, each with the full URL it was
 * last at (a list's filters and page live in its search params, src/components/list/use-list-state.ts). Pure
 * functions, so the bar and its tests share them; the bar keeps the list in localStorage per account, organisation
 * and role (another account on the same browser never sees them).
 */
export interface PageTab {
  /** The page's path (no search): one tab per path. */
  key: string;
  /** Where the tab goes back to: path and search. */
  url: string;
}

export interface TabState {
  tabs: PageTab[];
}

/** The most tabs kept open: opening one more closes the oldest closable one (RuoYi keeps no limit; a phone would choke). */
export const MAX_TABS = 20;

/** The tab of the fixed (landing) page first, then the others in order; the fixed one cannot be closed. */
export function withFixed(tabs: readonly PageTab[], fixedKey: string): PageTab[] {
  const fixed = tabs.find((t) => t.key === fixedKey) ?? { key: fixedKey, url: fixedKey };
  return [fixed, ...tabs.filter((t) => t.key !== fixedKey)];
}

/** Opens (or updates the URL of) the tab of `url`'s page; a new tab goes to the end. */
export function openTab(tabs: readonly PageTab[], url: string, fixedKey: string): PageTab[] {
  const key = keyOf(url);
  const list = withFixed(tabs, fixedKey);
  const i = list.findIndex((t) => t.key === key);
  if (i >= 0) {
    if (list[i].url === url) return list;
    const next = list.slice();
    next[i] = { key, url };
    return next;
  }
  const next = [...list, { key, url }];
  // Past the limit the oldest closable tab goes (index 1: index 0 is the fixed one).
  return next.length > MAX_TABS ? [next[0], ...next.slice(2)] : next;
}

/** Closes one tab (never the fixed one). */
export function closeTab(tabs: readonly PageTab[], key: string, fixedKey: string): PageTab[] {
  if (key === fixedKey) return withFixed(tabs, fixedKey);
  return withFixed(tabs, fixedKey).filter((t) => t.key !== key);
}

/** Keeps the fixed tab and `key`'s. */
export function closeOthers(tabs: readonly PageTab[], key: string, fixedKey: string): PageTab[] {
  return withFixed(tabs, fixedKey).filter((t) => t.key === fixedKey || t.key === key);
}

/** Closes every tab right of `key`'s (the fixed one stays, being first). */
export function closeRight(tabs: readonly PageTab[], key: string, fixedKey: string): PageTab[] {
  const list = withFixed(tabs, fixedKey);
  const i = list.findIndex((t) => t.key === key);
  return i < 0 ? list : list.slice(0, i + 1);
}

/**
 * Where to go when the active tab `key` closes: the tab that takes its place (its right neighbour, else its left),
 * looked up in the list before the close.
 */
export function neighbourOf(tabs: readonly PageTab[], key: string): PageTab | undefined {
  const i = tabs.findIndex((t) => t.key === key);
  if (i < 0) return undefined;
  return tabs[i + 1] ?? tabs[i - 1];
}

export function keyOf(url: string): string {
  const q = url.search(/[?#]/);
  return q < 0 ? url : url.slice(0, q);
}

/** Whose tabs these are: the present account, its organisation and role (null before the user info arrives). */
export function tabScope(uinfo: Pick<UInfo, 'userId' | 'accounts'> | null | undefined): string | null {
  const account: AccountInfo | undefined = uinfo?.accounts.find((a) => a.presentFlag);
  const role = account?.roles.find((r) => r.presentFlag);
  if (!uinfo || !account) return null;
  return [uinfo.userId, account.accountId, account.tenantOrgId, role?.roleId ?? '-'].join('.');
}

const TABS_KEY = (scope: string) => `tiyu.tabs.${scope}`;

function readJson(key: string): unknown {
  const raw = safeLocalStorage.getItem(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

const isTab = (v: unknown): v is PageTab =>
  typeof v === 'object' && v !== null && typeof (v as PageTab).key === 'string' && typeof (v as PageTab).url === 'string' && (v as PageTab).url.startsWith('/');

/** The stored tabs of a scope (bad or missing storage: none). */
export function loadTabs(scope: string): PageTab[] {
  const v = readJson(TABS_KEY(scope));
  return Array.isArray(v) ? v.filter(isTab).slice(0, MAX_TABS) : [];
}

export function saveTabs(scope: string, tabs: readonly PageTab[]): void {
  safeLocalStorage.setItem(TABS_KEY(scope), JSON.stringify(tabs));
}

/**
 * A user's preferences of the frame (docs/product-rules.md#tab-bar, #lock-screen): whether the tab bar shows (on by
 * default) and after how many idle minutes the console locks (off by default). Kept in this browser per user
 * (localStorage): they are how this person likes this screen, not data.
 */
export interface ShellPrefs {
  tabs: boolean;
  idleLockMinutes: IdleLockMinutes;
}

export const DEFAULT_SHELL_PREFS: ShellPrefs = { tabs: true, idleLockMinutes: DEFAULT_IDLE_LOCK_MINUTES };

const PREFS_KEY = (userId: string) => `tiyu.shellPrefs.${userId}`;

export function loadPrefs(userId: string): ShellPrefs {
  const v = readJson(PREFS_KEY(userId)) as Partial<ShellPrefs> | null;
  return {
    tabs: typeof v?.tabs === 'boolean' ? v.tabs : DEFAULT_SHELL_PREFS.tabs,
    idleLockMinutes: (IDLE_LOCK_MINUTES as readonly number[]).includes(v?.idleLockMinutes as number) ? (v!.idleLockMinutes as IdleLockMinutes) : DEFAULT_SHELL_PREFS.idleLockMinutes,
  };
}

export function savePrefs(userId: string, prefs: ShellPrefs): void {
  safeLocalStorage.setItem(PREFS_KEY(userId), JSON.stringify(prefs));
}

const RECENT_KEY = (scope: string) => `tiyu.recentPages.${scope}`;
/** How many recent pages the menu search offers. */
export const RECENT_MAX = 6;

/** The pages last opened in this scope, newest first (paths without search). */
export function loadRecent(scope: string): string[] {
  const v = readJson(RECENT_KEY(scope));
  return Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string' && p.startsWith('/')).slice(0, RECENT_MAX) : [];
}

export function pushRecent(scope: string, path: string): void {
  const list = [path, ...loadRecent(scope).filter((p) => p !== path)].slice(0, RECENT_MAX);
  safeLocalStorage.setItem(RECENT_KEY(scope), JSON.stringify(list));
}
