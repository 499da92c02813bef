import { Bell, FileDown, KeyRound, ShieldCheck, UserRound, UserRoundPen } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { cn } from '@/lib/cn';

const ITEMS = [
  { to: '/myInfo/base', key: 'nav.base', icon: UserRound, testId: 'my-info-nav-base' },
  { to: '/myInfo/editUser', key: 'nav.editUser', icon: UserRoundPen, testId: 'my-info-nav-edit-user' },
  { to: '/myInfo/editAccount', key: 'nav.editAccount', icon: KeyRound, testId: 'my-info-nav-edit-account' },
  { to: '/myInfo/messages', key: 'nav.messages', icon: Bell, testId: 'my-info-nav-messages' },
  { to: '/myInfo/security', key: 'security:my.nav', icon: ShieldCheck, testId: 'my-info-nav-security' },
  { to: '/myInfo/exports', key: 'nav.exports', icon: FileDown, testId: 'my-info-nav-exports' },
] as const;

/** The personal centre's three sections (docs/product-rules.md#screens-and-routes: base, editUser, editAccount). */
export function MyInfoNav() {
  const { t } = useTranslation('myInfo');
  return (
    <nav aria-label={t('title')} className="flex gap-1 overflow-x-auto rounded-lg border bg-card p-1 shadow-xs">
      {ITEMS.map(({ to, key, icon: Icon, testId }) => (
        <NavLink
          key={to}
          to={to}
          data-testid={testId}
          className={({ isActive }) =>
            cn(
              'flex h-9 items-center gap-2 rounded-md px-3 text-sm whitespace-nowrap transition-colors',
              isActive ? 'bg-primary text-primary-foreground shadow-xs' : 'text-muted-foreground hover:bg-accent hover:text-accent-foreground',
            )
          }
        >
          <Icon aria-hidden className="size-4" />
          {t(key)}
        </NavLink>
      ))}
    </nav>
  );
}
