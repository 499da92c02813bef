import { useCallback, useState, type ReactNode } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches } from 'react-router-dom';
import type { MenuNode } from '@/domain/auth/types';
import { landingPath } from '@/domain/menus/tree';
import { AppShell } from '@/components/layout/app-shell';
import { LockScreen, useLockTriggers } from '@/components/layout/lock-screen';
import { MourningDialog } from '@/components/layout/mourning-dialog';
import { useShellPrefs } from '@/components/layout/shell-prefs';
import { tabScope } from '@/components/layout/tab-state';
import { useMourning } from '@/components/layout/use-mourning';
import { useDocumentTitle } from '@/components/layout/use-document-title';
import { UserMenu } from '@/components/layout/user-menu';
import { TooltipProvider } from '@/components/ui/tooltip';
import { lockedAtom, uinfoAtom } from '@/lib/store';
import { useSessionSync } from '@/features/auth/hooks/use-session-sync';
import { useSignOut } from '@/features/auth/hooks/use-sign-out';
import { useSwitchAccount } from '@/features/auth/hooks/use-switch-account';
import { TasksMenu } from '@/components/jobs/tasks-menu';
import { TodoBell } from '@/features/messages/components/todo-bell';
import { Watermark } from '@/components/watermark/watermark';
import { ExportApprovalRequest } from '@/components/export-approval/export-approval-request';
import type { RouteHandle } from './catalog-routes';
import { buildCrumbs } from './crumbs';

const NO_MENU: MenuNode[] = [];

/** The signed-in frame around every screen except the login screen; `children` replace the outlet. */
export function ShellRoute({ children, noCrumbs = false }: { children?: ReactNode; noCrumbs?: boolean }) {
  useSessionSync();
  const { t } = useTranslation(['common', 'menus']);
  const uinfo = useAtomValue(uinfoAtom);
  const { pathname } = useLocation();
  const tree = uinfo?.menuTree ?? NO_MENU;
  const crumbs = noCrumbs ? [] : buildCrumbs(t, tree, pathname);
  const title = uinfo?.platformName || t('common:appName');
  const page = crumbs.at(-1)?.label;
  useDocumentTitle(page ? `${page} - ${title}` : title);
  const { choose, pending } = useSwitchAccount();
  const signOut = useSignOut();
  const [prefs, setPrefs] = useShellPrefs(uinfo?.userId);
  const setLocked = useSetAtom(lockedAtom);
  const [mourningOpen, setMourningOpen] = useState(false);
  useLockTriggers(uinfo ? prefs.idleLockMinutes : 0);
  useMourning();
  // Screens of personal data carry the viewer's watermark, drawn here once (PERSONAL_DATA_SCREENS).
  const personalData = (useMatches().at(-1)?.handle as RouteHandle | undefined)?.personalData === true;
  const pageLabel = useCallback((path: string) => buildCrumbs(t, tree, path).at(-1)?.label ?? null, [t, tree]);

  // Tooltips live only in the signed-in screens; their provider (Radix popper) stays off the login screen.
  return (
    <TooltipProvider>
      <AppShell
      title={title}
      icon={uinfo?.icon}
      homePath={landingPath(tree) ?? '/myInfo/base'}
      menuTree={tree}
      breadcrumbs={crumbs}
      tasksMenu={
        uinfo ? (
          <>
            <TodoBell />
            <TasksMenu />
          </>
        ) : null
      }
      tabScope={tabScope(uinfo)}
      tabsEnabled={prefs.tabs}
      pageLabel={pageLabel}
      userMenu={
        uinfo ? (
          <UserMenu
            uinfo={uinfo}
            onChoose={choose}
            onLogout={() => void signOut()}
            busy={pending}
            prefs={prefs}
            onPrefsChange={setPrefs}
            onLock={() => setLocked(true)}
            onMourning={() => setMourningOpen(true)}
          />
        ) : null
      }
      overlay={
        uinfo ? (
          <>
            {personalData ? <Watermark /> : null}
            {/* Every export refused as needing an approval opens this one request, wherever it was started. */}
            <ExportApprovalRequest />
            <LockScreen userName={uinfo.userName} onSignOut={() => void signOut()} />
            {uinfo.platformOperator ? <MourningDialog open={mourningOpen} onOpenChange={setMourningOpen} /> : null}
          </>
        ) : null
      }
    >
      {children ?? <Outlet />}
      </AppShell>
    </TooltipProvider>
  );
}
