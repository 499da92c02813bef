import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { landingPath } from '@/domain/menus/tree';
import { AppShell } from '@/components/layout/app-shell';
import { useDocumentTitle } from '@/components/layout/use-document-title';
import { UserMenu } from '@/components/layout/user-menu';
import { TooltipProvider } from '@/components/ui/tooltip';
import { uinfoAtom } from '@/lib/store';
import { useSessionSync } from '@/features/auth/hooks/use-session-sync';
import { useSignOut } from '@/features/auth/hooks/use-sign-out';
import { useSwitchAccount } from '@/features/auth/hooks/use-switch-account';
import { TasksMenu } from '@/components/jobs/tasks-menu';
import { buildCrumbs } from './crumbs';

/** The signed-in frame around every screen except the login screen; `children` replace the outlet. */
export function ShellRoute({ children, noCrumbs = false }: { children?: ReactNode; noCrumbs?: boolean }) {
  useSessionSync();
  const { t } = useTranslation(['common', 'menus']);
  const uinfo = useAtomValue(uinfoAtom);
  const { pathname } = useLocation();
  const tree = uinfo?.menuTree ?? [];
  const crumbs = noCrumbs ? [] : buildCrumbs(t, tree, pathname);
  const title = uinfo?.platformName || t('common:appName');
  const page = crumbs.at(-1)?.label;
  useDocumentTitle(page ? `${page} - ${title}` : title);
  const { choose, pending } = useSwitchAccount();
  const signOut = useSignOut();

  // Tooltips live only in the signed-in screens; their provider (Radix popper) stays off the login screen.
  return (
    <TooltipProvider>
      <AppShell
      title={title}
      icon={uinfo?.icon}
      homePath={landingPath(tree) ?? '/myInfo/base'}
      menuTree={tree}
      breadcrumbs={crumbs}
      tasksMenu={uinfo ? <TasksMenu /> : null}
      userMenu={uinfo ? <UserMenu uinfo={uinfo} onChoose={choose} onLogout={() => void signOut()} busy={pending} /> : null}
    >
      {children ?? <Outlet />}
      </AppShell>
    </TooltipProvider>
  );
}
