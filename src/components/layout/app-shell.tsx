import { Fragment, useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { useAtom, useAtomValue } from 'jotai';
import { Menu, PanelLeftClose, PanelLeftOpen, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { MenuNode } from '@/domain/auth/types';
import { Button } from '@/components/ui/button';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/cn';
import { lockedAtom, sidebarCollapsedAtom } from '@/lib/store';
import { BrandMark } from './brand-mark';
import { Breadcrumbs, type BreadcrumbItem } from './breadcrumbs';
import { FullscreenButton, RefreshDataButton } from './header-buttons';
import { LanguageSwitch } from './language-switch';
import { MenuSearch, useSearchPages } from './menu-search';
import { SideMenu } from './side-menu';
import { TabBar } from './tab-bar';
import { loadRecent } from './tab-state';
import { ThemeToggle } from './theme-toggle';
import { usePageTabs } from './use-page-tabs';

export interface AppShellProps {
  /** Platform title of the signed-in organisation (docs/product-rules.md#branding). */
  title: string;
  icon?: string | null;
  /** Where the brand links to (the landing page). */
  homePath?: string;
  menuTree: readonly MenuNode[];
  breadcrumbs: BreadcrumbItem[];
  /** The account menu (UserMenu), composed by the app. */
  userMenu?: ReactNode;
  /** The tasks popover (long jobs and their files), composed by the app. */
  tasksMenu?: ReactNode;
  /**
   * Whose open tabs and recent pages these are (account, organisation, role: tab-state.ts tabScope); null before the
   * user info arrives (no tabs then).
   */
  tabScope?: string | null;
  /** The tab bar is shown (the user's preference, on by default). */
  tabsEnabled?: boolean;
  /** A page's name for its tab and the recent pages: its menu name, a sub-route's catalogue name; null: not a page (no tab). */
  pageLabel?(path: string): string | null;
  /** Drawn over the frame (the lock screen, the operator's dialogs). */
  overlay?: ReactNode;
  children: ReactNode;
}

/** The console frame: brand + header across the top, collapsible navy side menu, scrolling content. */
export function AppShell({
  title,
  icon,
  homePath = '/myInfo/base',
  menuTree,
  breadcrumbs,
  userMenu,
  tasksMenu,
  tabScope = null,
  tabsEnabled = false,
  pageLabel = (path) => path,
  overlay,
  children,
}: AppShellProps) {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const [collapsed, setCollapsed] = useAtom(sidebarCollapsedAtom);
  const locked = useAtomValue(lockedAtom);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const collapseLabel = collapsed ? t('sidebar.expand') : t('sidebar.collapse');
  const mainRef = useRef<HTMLElement>(null);
  const tabsOn = tabsEnabled && tabScope !== null;
  const isPage = useCallback((path: string) => pageLabel(path) !== null, [pageLabel]);
  const pageTabs = usePageTabs({ scope: tabScope, fixedKey: homePath, enabled: tabsOn, scroller: mainRef, isPage });
  const searchPages = useSearchPages(menuTree);
  const recent = useMemo(() => {
    if (!searchOpen || !tabScope) return [];
    const byPath = new Map(searchPages.map((p) => [p.path, p]));
    return loadRecent(tabScope).flatMap((path) => byPath.get(path) ?? []);
  }, [searchOpen, tabScope, searchPages]);

  return (
    <div data-slot="app-shell" className="flex h-dvh flex-col bg-background text-foreground" inert={locked || undefined}>
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-primary px-3 py-2 text-primary-foreground focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
      >
        {t('skipToContent')}
      </a>
      <header data-testid="app-header" className="z-30 flex h-14 shrink-0 items-center border-b bg-card/95 shadow-xs backdrop-blur">
        <div
          className={cn(
            // Bounded below lg so the header's actions never get pushed off a phone screen.
            'flex h-full max-w-[60vw] min-w-0 items-center gap-1.5 px-2 transition-[width] duration-200 sm:max-w-xs sm:gap-2.5 sm:px-3 lg:max-w-none lg:shrink-0 lg:bg-sidebar lg:text-sidebar-accent-foreground',
            collapsed ? 'lg:w-16 lg:justify-center lg:px-0' : 'lg:w-60 lg:px-4',
          )}
        >
          <Button
            variant="ghost"
            size="icon"
            className="lg:hidden"
            aria-label={t('sidebar.open')}
            aria-expanded={drawerOpen}
            data-testid="menu-drawer-open"
            onClick={() => setDrawerOpen(true)}
          >
            <Menu aria-hidden />
          </Button>
          <Link to={homePath} className="flex min-w-0 items-center gap-2.5 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <BrandMark icon={icon} name={title} />
            {/* Long university names wrap to two lines; the full name stays in the tooltip. */}
            <span
              data-testid="platform-title"
              title={title}
              className={cn('line-clamp-2 text-[15px] leading-tight font-semibold tracking-tight break-all', collapsed && 'lg:sr-only')}
            >
              {title}
            </span>
          </Link>
        </div>
        {/* Below sm it holds only the actions, sized to them: the brand beside it shrinks (and clamps) instead of the
            actions overflowing the screen sideways (390 px phones scrolled by ~10 px before). */}
        <div className="flex flex-none items-center gap-2 px-2 sm:min-w-0 sm:flex-1 sm:px-4">
          <Tooltip content={collapseLabel}>
            <Button
              variant="ghost"
              size="icon"
              className="hidden lg:inline-flex"
              aria-label={collapseLabel}
              aria-pressed={collapsed}
              data-testid="sidebar-toggle"
              onClick={() => setCollapsed(!collapsed)}
            >
              {collapsed ? <PanelLeftOpen aria-hidden /> : <PanelLeftClose aria-hidden />}
            </Button>
          </Tooltip>
          <Breadcrumbs items={breadcrumbs} className="hidden flex-1 sm:block" />
          <div className="ml-auto flex shrink-0 items-center gap-0.5 sm:gap-1">
            <MenuSearch open={searchOpen} onOpenChange={setSearchOpen} pages={searchPages} recent={recent} onOpen={(path) => void navigate(path)} disabled={locked} />
            <RefreshDataButton className="hidden sm:inline-flex" />
            <FullscreenButton className="hidden md:inline-flex" />
            {tasksMenu}
            <LanguageSwitch variant="menu" />
            <ThemeToggle />
            {userMenu}
          </div>
        </div>
      </header>

      <div className="flex min-h-0 flex-1">
        <aside
          data-testid="sidebar"
          data-collapsed={collapsed || undefined}
          className={cn(
            'hidden shrink-0 flex-col bg-sidebar text-sidebar-foreground transition-[width] duration-200 lg:flex',
            collapsed ? 'w-16' : 'w-60',
          )}
        >
          <SideMenu tree={menuTree} collapsed={collapsed} />
        </aside>

        {drawerOpen && (
          <div className="fixed inset-0 z-40 lg:hidden" role="dialog" aria-modal="true" aria-label={t('sideMenu')}>
            <button
              type="button"
              aria-label={t('sidebar.close')}
              className="absolute inset-0 bg-black/50 animate-fade-in"
              onClick={() => setDrawerOpen(false)}
            />
            <aside className="absolute inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col bg-sidebar text-sidebar-foreground shadow-xl animate-fade-in">
              <div className="flex h-14 items-center gap-2.5 border-b border-sidebar-border px-4 text-sidebar-accent-foreground">
                <BrandMark icon={icon} name={title} />
                <span className="flex-1 truncate font-semibold">{title}</span>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={t('sidebar.close')}
                  className="text-sidebar-foreground hover:bg-sidebar-accent hover:text-sidebar-accent-foreground"
                  onClick={() => setDrawerOpen(false)}
                >
                  <X aria-hidden />
                </Button>
              </div>
              <SideMenu tree={menuTree} onNavigate={() => setDrawerOpen(false)} />
            </aside>
          </div>
        )}

        <div className="flex min-w-0 flex-1 flex-col">
          {tabsOn ? <TabBar {...pageTabs} fixedKey={homePath} labelOf={(path) => pageLabel(path) ?? path} /> : null}
          <main ref={mainRef} id="main-content" tabIndex={-1} className="min-h-0 min-w-0 flex-1 overflow-y-auto outline-none">
            {/* A tab's refresh mounts the screen again (its generation). */}
            <div className="mx-auto w-full max-w-[1600px] p-4 sm:p-6">
              <Fragment key={pageTabs.generation}>{children}</Fragment>
            </div>
          </main>
        </div>
      </div>
      {overlay}
    </div>
  );
}
