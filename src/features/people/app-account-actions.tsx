import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Power, PowerOff, Smartphone } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { AppAccount, AppAccountGiven } from '@/domain/people/app-accounts';
import type { ResetPassword, ResetPasswordResult } from '@/domain/users/users';
import { ResetPasswordDialog } from '@/components/account/account-actions';
import type { RowAction } from '@/components/list/row-actions';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { post, put } from '@/lib/api-client';

/** A student or parent row with its app account (docs/product-rules.md#app-accounts). */
export interface AppAccountHolder {
  id: string;
  name: string;
  appAccount: AppAccount | null;
}

/**
 * The app account of the student and parent lists: a column, row actions under the page's edit button (give, reset
 * password, disable/enable, over `{base}/:id/app-account`) and the dialogs they open. `login` names the login a new
 * account gets (registration number, mobile), for the confirmation.
 */
export function useAppAccountActions<T extends AppAccountHolder>(resource: { base: string; key: readonly unknown[] }, login: (row: T) => string) {
  const { t } = useTranslation('people');
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: resource.key });
  const give = useMutation({ mutationFn: (id: string) => post<AppAccountGiven>(`${resource.base}/${id}/app-account`), onSuccess });
  const status = useMutation({ mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => put<null>(`${resource.base}/${id}/app-account/status`, { enabled }), onSuccess });
  const reset = useMutation({
    mutationFn: ({ id, ...body }: ResetPassword & { id: string }) => put<ResetPasswordResult>(`${resource.base}/${id}/app-account/password`, body),
    onSuccess,
    meta: { silent: true },
  });
  const [given, setGiven] = useState<(AppAccountGiven & { name: string }) | null>(null);
  const [resetting, setResetting] = useState<T | null>(null);

  const actions = useMemo<RowAction<T>[]>(
    () => [
      {
        action: 'edit',
        label: t('appAccount.give'),
        icon: <Smartphone aria-hidden />,
        hidden: (r) => r.appAccount !== null,
        confirm: (r) => ({ title: t('appAccount.giveTitle', { name: r.name }), description: t('appAccount.giveText', { login: login(r) }) }),
        done: false,
        onClick: async (r) => setGiven({ ...(await give.mutateAsync(r.id)), name: r.name }),
        testId: 'app-account-give',
      },
      { action: 'edit', label: t('appAccount.resetPassword'), icon: <KeyRound aria-hidden />, hidden: (r) => r.appAccount === null, onClick: setResetting, testId: 'app-account-reset' },
      {
        action: 'edit',
        label: t('appAccount.disable'),
        icon: <PowerOff aria-hidden />,
        destructive: true,
        hidden: (r) => !r.appAccount?.enabled,
        confirm: (r) => ({ title: t('appAccount.disableTitle', { name: r.name }), description: t('appAccount.disableText') }),
        onClick: async (r) => void (await status.mutateAsync({ id: r.id, enabled: false })),
        testId: 'app-account-disable',
      },
      {
        action: 'edit',
        label: t('appAccount.enable'),
        icon: <Power aria-hidden />,
        hidden: (r) => !r.appAccount || r.appAccount.enabled,
        onClick: async (r) => void (await status.mutateAsync({ id: r.id, enabled: true })),
        testId: 'app-account-enable',
      },
    ],
    [t, give, status, login],
  );

  const cell = (row: T) =>
    row.appAccount ? (
      <span className="flex items-center gap-1.5 whitespace-nowrap">
        <span className="tabular-nums">{row.appAccount.accountNum}</span>
        {row.appAccount.enabled ? null : <Badge variant="secondary">{t('appAccount.disabled')}</Badge>}
      </span>
    ) : (
      <span className="text-muted-foreground">{t('appAccount.noAccount')}</span>
    );

  const dialogs = (
    <>
      {given ? (
        <Dialog open onOpenChange={(open) => (open ? undefined : setGiven(null))}>
          <DialogContent data-testid="app-account-given">
            <DialogHeader>
              <DialogTitle>{t('appAccount.given', { name: given.name })}</DialogTitle>
              <DialogDescription>{t('appAccount.givenText')}</DialogDescription>
            </DialogHeader>
            <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 text-sm">
              <dt className="text-muted-foreground">{t('appAccount.account')}</dt>
              <dd className="font-mono">{given.accountNum}</dd>
              <dt className="text-muted-foreground">{t('appAccount.password')}</dt>
              <dd>
                <output data-testid="app-account-password" className="rounded-md border bg-muted px-3 py-1 font-mono text-lg tracking-wider select-all">
                  {given.password}
                </output>
              </dd>
            </dl>
            <DialogFooter>
              <Button onClick={() => setGiven(null)}>{t('components:account.shownDone')}</Button>
            </DialogFooter>
          </DialogContent>
        </Dialog>
      ) : null}
      {resetting ? (
        <ResetPasswordDialog
          account={{ id: resetting.id, name: resetting.name, enabled: resetting.appAccount?.enabled ?? false }}
          reset={(body) => reset.mutateAsync(body)}
          pending={reset.isPending}
          onClose={() => setResetting(null)}
          testId="app-account"
        />
      ) : null}
    </>
  );
  return { actions, cell, dialogs };
}
