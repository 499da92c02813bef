import { Building2, Check, ChevronsUpDown, Flower, KeyRound, ListTree, LockKeyhole, LogOut, Timer, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AccountInfo, RoleInfo, UInfo } from '@/domain/auth/types';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { MENU_MANAGEMENT_KEY } from '@/domain/menus/customize';
import { IDLE_LOCK_MINUTES, type IdleLockMinutes } from '@/domain/shell/lock';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuShortcut,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/cn';
import { menuLabel } from './menu-label';
import type { ShellPrefs } from './tab-state';

const MENU_MANAGEMENT = getCatalogEntry(MENU_MANAGEMENT_KEY)!;

export interface UserMenuProps {
  uinfo: UInfo;
  /** Makes the account and role present (switchOrg / switchRole). */
  onChoose(account: AccountInfo, role: RoleInfo): void;
  onLogout(): void;
  /** A switch is running: items are disabled. */
  busy?: boolean;
  /** The frame's preferences (tab bar, idle lock) and their setter; absent: no display section. */
  prefs?: ShellPrefs;
  onPrefsChange?(change: Partial<ShellPrefs>): void;
  /** Locks the console now (as Alt + L). */
  onLock?(): void;
  /** Opens the mourning-mode setting (platform operators). */
  onMourning?(): void;
}

export function initialOf(name: string): string {
  return [...(name.trim() || '?')][0].toUpperCase();
}

/** The header's account menu: who is signed in, account/role/organisation switch, personal centre, menu management (platform operators), logout. */
export function UserMenu({ uinfo, onChoose, onLogout, busy, prefs, onPrefsChange, onLock, onMourning }: UserMenuProps) {
  const { t } = useTranslation('layout');
  const present = uinfo.accounts.find((a) => a.presentFlag);
  const role = present?.roles.find((r) => r.presentFlag);
  const subtitle = [present?.orgName, role?.roleName].filter(Boolean).join(' · ');
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          data-testid="user-menu"
          className="flex h-10 max-w-64 items-center gap-2 rounded-lg px-1.5 text-left transition-colors outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring sm:px-2"
        >
          {/* The name comes from the content, so it holds the visible name and role (WCAG 2.5.3 label in name). */}
          <span className="sr-only">{t('userMenu.label')}</span>
          <span aria-hidden className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
            {initialOf(uinfo.userName)}
          </span>
          <span className="hidden min-w-0 flex-col leading-tight md:flex">
            <span data-testid="user-name" className="truncate text-sm font-medium">
              {uinfo.userName}
            </span>
            {subtitle && <span className="truncate text-xs text-muted-foreground">{subtitle}</span>}
          </span>
          <ChevronsUpDown aria-hidden className="hidden size-4 shrink-0 text-muted-foreground md:block" />
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-72" data-testid="user-menu-content">
        <DropdownMenuLabel className="flex flex-col gap-0.5">
          <span className="truncate">{uinfo.userName}</span>
          {subtitle && <span className="truncate text-xs font-normal text-muted-foreground">{subtitle}</span>}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">{t('userMenu.switch')}</DropdownMenuLabel>
        <div className="max-h-72 overflow-y-auto">
          {uinfo.accounts.map((account) => (
            <DropdownMenuGroup key={account.accountId} aria-label={account.orgName}>
              <div className="flex items-center gap-1.5 px-2 pt-1.5 pb-0.5 text-xs text-muted-foreground">
                <Building2 aria-hidden className="size-3.5" />
                <span className="truncate">{account.orgName}</span>
                <span className="truncate opacity-70">({account.accountNum})</span>
              </div>
              {account.roles.map((r) => {
                const current = account.presentFlag && r.presentFlag;
                return (
                  <DropdownMenuItem
                    key={r.roleId}
                    disabled={busy}
                    data-testid={`switch-role-${account.accountId}-${r.roleId}`}
                    aria-current={current || undefined}
                    onSelect={() => {
                      if (!current) onChoose(account, r);
                    }}
                    className="pl-7"
                  >
                    <span className="flex-1 truncate">{r.roleName}</span>
                    <Check aria-hidden className={cn('text-primary', current ? 'opacity-100' : 'opacity-0')} />
                  </DropdownMenuItem>
                );
              })}
            </DropdownMenuGroup>
          ))}
        </div>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/myInfo/base" data-testid="menu-my-info">
            <UserRound aria-hidden />
            {t('userMenu.myInfo')}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/myInfo/editAccount" data-testid="menu-change-password">
            <KeyRound aria-hidden />
            {t('userMenu.changePassword')}
          </Link>
        </DropdownMenuItem>
        {/* Menus belong to the installation: only platform operators get the entry (docs/product-rules.md#menu-management). */}
        {uinfo.platformOperator ? (
          <DropdownMenuItem asChild>
            <Link to={MENU_MANAGEMENT.path} data-testid="menu-menu-management">
              <ListTree aria-hidden />
              {menuLabel(t, MENU_MANAGEMENT)}
            </Link>
          </DropdownMenuItem>
        ) : null}
        {uinfo.platformOperator && onMourning ? (
          <DropdownMenuItem data-testid="menu-mourning" onSelect={onMourning}>
            <Flower aria-hidden />
            {t('userMenu.mourning')}
          </DropdownMenuItem>
        ) : null}
        {prefs && onPrefsChange ? (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">{t('userMenu.preferences')}</DropdownMenuLabel>
            {/* Kept in this browser per user (docs/product-rules.md#tab-bar). */}
            <DropdownMenuCheckboxItem checked={prefs.tabs} data-testid="pref-tabs" onCheckedChange={(v) => onPrefsChange({ tabs: v === true })} onSelect={(e) => e.preventDefault()}>
              {t('userMenu.showTabs')}
            </DropdownMenuCheckboxItem>
            <DropdownMenuSub>
              <DropdownMenuSubTrigger data-testid="pref-idle-lock">
                <Timer aria-hidden />
                <span className="flex-1">{t('userMenu.idleLock')}</span>
                <span className="text-xs text-muted-foreground">{prefs.idleLockMinutes ? t('lock.idleMinutes', { count: prefs.idleLockMinutes }) : t('lock.idleOff')}</span>
              </DropdownMenuSubTrigger>
              <DropdownMenuSubContent>
                <DropdownMenuRadioGroup value={String(prefs.idleLockMinutes)} onValueChange={(v) => onPrefsChange({ idleLockMinutes: Number(v) as IdleLockMinutes })}>
                  {IDLE_LOCK_MINUTES.map((m) => (
                    <DropdownMenuRadioItem key={m} value={String(m)} data-testid={`pref-idle-lock-${m}`}>
                      {m ? t('lock.idleMinutes', { count: m }) : t('lock.idleOff')}
                    </DropdownMenuRadioItem>
                  ))}
                </DropdownMenuRadioGroup>
              </DropdownMenuSubContent>
            </DropdownMenuSub>
          </>
        ) : null}
        {onLock ? (
          <DropdownMenuItem data-testid="menu-lock" onSelect={onLock}>
            <LockKeyhole aria-hidden />
            {t('userMenu.lockNow')}
            <DropdownMenuShortcut>{t('userMenu.lockShortcut')}</DropdownMenuShortcut>
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" data-testid="logout" onSelect={onLogout}>
          <LogOut aria-hidden />
          {t('userMenu.logout')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
