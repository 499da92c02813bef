import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate, useNavigationType } from 'react-router-dom';
import { closeOthers, closeRight, closeTab, loadTabs, neighbourOf, openTab, pushRecent, saveTabs, withFixed, type PageTab } from './tab-state';

export interface PageTabs {
  tabs: PageTab[];
  /** The active tab's key (the path shown). */
  active: string;
  close(key: string): void;
  closeOthers(key: string): void;
  closeRight(key: string): void;
  /** Shows the tab and reloads its data (its queries invalidated, its screen mounted again). */
  refresh(key: string): void;
  /** Changes when a refresh asks the screen to mount again (the key of the outlet's wrapper). */
  generation: number;
}

/** Scroll positions of the tabs of this page's life (not stored: a reload starts at the top). */
const scrolls = new Map<string, number>();
/** How long a tab's scroll position is tried again while its screen is still rendering (from the query cache). */
const RESTORE_MS = 1500;

/**
 * The tab bar's behaviour (docs/product-rules.md#tab-bar): every page the user opens becomes (or updates) its tab, with
 * its full URL; coming back to an open page (its tab, or the side menu's link without a search) reopens it at the URL
 * and scroll position it was left at; the tabs are stored per `scope` (account, organisation, role). Off (`enabled`
 * false), nothing is tracked and navigation is left alone.
 */
export function usePageTabs({
  scope,
  fixedKey,
  enabled,
  scroller,
  isPage = () => true,
}: {
  scope: string | null;
  fixedKey: string;
  enabled: boolean;
  scroller: RefObject<HTMLElement | null>;
  /** Whether a path is a console page: anything else (the sign-in page on its way out, an unknown path) gets no tab. */
  isPage?(path: string): boolean;
}): PageTabs {
  const { pathname, search } = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const url = pathname + search;
  const [state, setState] = useState(() => ({ scope, tabs: withFixed(scope ? loadTabs(scope) : [], fixedKey) }));
  const [generation, setGeneration] = useState(0);
  let tabs = state.tabs;
  if (state.scope !== scope) {
    // Another account or role: its own tabs (set during render, so the old scope's never show under the new one).
    tabs = withFixed(scope ? loadTabs(scope) : [], fixedKey);
    setState({ scope, tabs });
  }
  const setTabs = useCallback((next: PageTab[]) => setState((s) => ({ ...s, tabs: next })), []);

  useEffect(() => {
    if (enabled && state.scope) saveTabs(state.scope, state.tabs);
  }, [enabled, state]);

  // Scroll positions follow the user's scrolling, not a restore's attempts.
  const restoring = useRef(false);
  const current = useRef(pathname);
  current.current = pathname;
  useEffect(() => {
    const el = scroller.current;
    if (!el || !enabled) return;
    const onScroll = () => {
      pristine.current = false;
      if (!restoring.current) scrolls.set(current.current, el.scrollTop);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, [scroller, enabled]);

  const shown = useRef<string | null>(null);
  // The scroller as mounted with this hook: at the top, never scrolled, so a first page that opens at the top needs no
  // restore. Setting or reading scrollTop forces a layout inside the commit, and on the first load that is the shell's
  // whole layout done once more before the screen's content arrives (docs/performance.md, "first load").
  const pristine = useRef(true);
  useLayoutEffect(() => {
    if (!enabled) {
      pristine.current = false;
      return;
    }
    const arrived = shown.current !== pathname;
    const open = tabs.find((t) => t.key === pathname);
    // Back at an open page through a plain link (the side menu): the tab as it was left. The browser's back and
    // forward keep their own URL.
    if (arrived && search === '' && open && open.url !== pathname && navigationType !== 'POP') {
      void navigate(open.url, { replace: true });
      return;
    }
    shown.current = pathname;
    if (!isPage(pathname)) return;
    const next = openTab(tabs, url, fixedKey);
    if (next !== tabs) setTabs(next);
    if (!arrived) return;
    if (scope) pushRecent(scope, pathname);
    const el = scroller.current;
    if (!el) return;
    const target = scrolls.get(pathname) ?? 0;
    const untouched = pristine.current;
    pristine.current = false;
    if (untouched && target === 0) return;
    restoring.current = true;
    const started = performance.now();
    let frame = 0;
    const step = () => {
      el.scrollTop = target;
      // Until the screen is tall enough (its data drawn from the query cache), or the time is up.
      if (Math.abs(el.scrollTop - target) > 1 && performance.now() - started < RESTORE_MS) frame = requestAnimationFrame(step);
      else restoring.current = false;
    };
    step();
    return () => {
      cancelAnimationFrame(frame);
      restoring.current = false;
    };
    // Runs per URL; the tabs are read as they are then.
  }, [url, enabled, fixedKey, isPage]);

  const go = (tab: PageTab | undefined) => {
    if (tab) void navigate(tab.url);
  };
  const find = (key: string) => tabs.find((t) => t.key === key);

  return {
    tabs,
    active: pathname,
    generation,
    close(key) {
      const next = closeTab(tabs, key, fixedKey);
      if (next.length === tabs.length) return;
      scrolls.delete(key);
      setTabs(next);
      if (key === pathname) go(neighbourOf(tabs, key));
    },
    closeOthers(key) {
      const next = closeOthers(tabs, key, fixedKey);
      setTabs(next);
      if (!next.some((t) => t.key === pathname)) go(find(key));
    },
    closeRight(key) {
      const next = closeRight(tabs, key, fixedKey);
      setTabs(next);
      if (!next.some((t) => t.key === pathname)) go(find(key));
    },
    refresh(key) {
      if (key !== pathname) go(find(key));
      setGeneration((g) => g + 1);
      void queryClient.invalidateQueries();
    },
  };
}
