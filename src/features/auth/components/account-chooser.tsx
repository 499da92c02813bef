import { useAtomValue } from 'jotai';
import { ArrowRight, Building2, CheckCircle2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { uinfoAtom } from '@/lib/store';
import { useSwitchAccount } from '../hooks/use-switch-account';

/** /myInfo/base: every account and role of the person; choosing one switches to it (docs/product-rules.md#accounts-in-use). */
export function AccountChooser() {
  const { t } = useTranslation('auth');
  const uinfo = useAtomValue(uinfoAtom);
  const { choose, pending, pendingRoleId } = useSwitchAccount();
  if (!uinfo) return null;
  return (
    <Card data-testid="account-chooser">
      <CardHeader>
        <CardTitle>{t('chooser.title')}</CardTitle>
        <CardDescription>{t('chooser.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 lg:grid-cols-2">
        {uinfo.accounts.map((account) => (
          <section key={account.accountId} aria-label={account.orgName} className="rounded-lg border bg-background/60 p-4">
            <header className="flex items-start gap-3">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent text-accent-foreground">
                <Building2 aria-hidden className="size-5" />
              </span>
              <div className="min-w-0 flex-1">
                <h3 className="truncate font-medium">{account.orgName}</h3>
                <p className="truncate text-xs text-muted-foreground">
                  {t('chooser.account', { account: account.accountNum })}
                  {account.tenantOrgName && account.tenantOrgName !== account.orgName ? ` · ${account.tenantOrgName}` : ''}
                </p>
              </div>
              {account.presentFlag && <Badge variant="success">{t('chooser.currentAccount')}</Badge>}
            </header>
            <ul className="mt-3 grid gap-2">
              {account.roles.length === 0 && <li className="text-sm text-muted-foreground">{t('chooser.noRoles')}</li>}
              {account.roles.map((role) => {
                const current = account.presentFlag && role.presentFlag;
                const hasMenus = role.menus.some((m) => m.menuType === '0');
                return (
                  <li key={role.roleId} className="flex items-center gap-3 rounded-md border bg-card px-3 py-2">
                    <div className="min-w-0 flex-1">
                      <p className="truncate text-sm font-medium">{role.roleName}</p>
                      <p className="text-xs text-muted-foreground">{t(`identity.${role.identity}`)}</p>
                    </div>
                    {current ? (
                      <span className="flex items-center gap-1 text-xs font-medium text-success">
                        <CheckCircle2 aria-hidden className="size-4" />
                        {t('chooser.current')}
                      </span>
                    ) : null}
                    <Button
                      size="sm"
                      variant={current ? 'outline' : 'default'}
                      disabled={pending || !hasMenus}
                      loading={pendingRoleId === role.roleId}
                      data-testid={`choose-role-${account.accountId}-${role.roleId}`}
                      onClick={() => choose(account, role)}
                    >
                      {current ? t('chooser.enter') : t('chooser.switch')}
                      <ArrowRight aria-hidden />
                    </Button>
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </CardContent>
    </Card>
  );
}
