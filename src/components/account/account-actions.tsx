import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Power, PowerOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { newPasswordSchema } from '@/domain/auth/schemas';
import { PASSWORD_MAX, PASSWORD_MIN } from '@/domain/constants';
import type { ResetPassword, ResetPasswordResult } from '@/domain/users/users';
import type { RowAction } from '@/components/list/row-actions';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/lib/toast';
import { put } from '@/lib/api-client';

/**
 * Account actions of a management list whose rows are sign-in accounts (the admin users, the staff): enable/disable
 * and password reset, over the server's `PUT {base}/:id/status` and `PUT {base}/:id/password` (server/lib/accounts.ts
 * accountRoutes). `testId` prefixes the test ids ('user' → 'user-disable', 'user-reset-dialog').
 */

/** A row the actions work on. */
export interface AccountRow {
  id: string;
  name: string;
  enabled: boolean;
}

/** The status and password calls of a resource (`resource.base`, `resource.key`); writes refresh the resource. */
export function useAccountWrites<Row>(resource: { base: string; key: readonly unknown[] }) {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: resource.key });
  return {
    status: useMutation({ mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => put<Row>(`${resource.base}/${id}/status`, { enabled }), onSuccess }),
    // The dialog shows the server's refusal itself.
    reset: useMutation({
      mutationFn: ({ id, ...body }: ResetPassword & { id: string }) => put<ResetPasswordResult>(`${resource.base}/${id}/password`, body),
      onSuccess,
      meta: { silent: true },
    }),
  };
}

/** Reset password, disable (asks first) and enable: row actions under the page's `resetPassword` and `status` buttons. */
export function accountActions<T extends AccountRow>({
  t,
  setStatus,
  onReset,
  testId,
}: {
  t: (key: string, options?: Record<string, unknown>) => string;
  setStatus(row: T, enabled: boolean): Promise<unknown>;
  onReset(row: T): void;
  testId: string;
}): RowAction<T>[] {
  return [
    { action: 'resetPassword', icon: <KeyRound aria-hidden />, onClick: onReset, testId: `${testId}-reset-password` },
    {
      action: 'status',
      label: t('components:account.disable'),
      icon: <PowerOff aria-hidden />,
      destructive: true,
      hidden: (r) => !r.enabled,
      confirm: (r) => ({ title: t('components:account.disableTitle', { name: r.name }), description: t('components:account.disableText') }),
      onClick: (r) => setStatus(r, false).then(() => undefined),
      testId: `${testId}-disable`,
    },
    {
      action: 'status',
      label: t('components:account.enable'),
      icon: <Power aria-hidden />,
      hidden: (r) => r.enabled,
      onClick: (r) => setStatus(r, true).then(() => undefined),
      testId: `${testId}-enable`,
    },
  ];
}

const RESET_MODES = ['generate', 'set'] as const;

/**
 * Reset: generate a one-time password (shown here once, to pass on) or set one; either way the person must change it
 * at the next sign-in.
 */
export function ResetPasswordDialog({
  account,
  reset,
  pending,
  onClose,
  testId,
}: {
  account: AccountRow;
  reset(body: ResetPassword & { id: string }): Promise<ResetPasswordResult>;
  pending: boolean;
  onClose(): void;
  testId: string;
}) {
  const { t } = useTranslation('components');
  const [mode, setMode] = useState<'generate' | 'set'>('generate');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);

  const submit = async () => {
    if (mode === 'set') {
      const checked = newPasswordSchema.safeParse(password);
      if (!checked.success) {
        setError(t(checked.error.issues[0].message, { min: PASSWORD_MIN, max: PASSWORD_MAX }));
        return;
      }
    }
    try {
      const result = await reset(mode === 'set' ? { id: account.id, mode, password } : { id: account.id, mode });
      toast.success(t('account.resetDone', { name: account.name }));
      if (result.password) setShown(result.password);
      else onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent data-testid={`${testId}-reset-dialog`}>
        <DialogHeader>
          <DialogTitle>{t('account.resetTitle', { name: account.name })}</DialogTitle>
          <DialogDescription>{t('account.resetText')}</DialogDescription>
        </DialogHeader>
        {shown ? (
          <div className="grid gap-2">
            <p className="text-sm">{t('account.oneTimeShown')}</p>
            <output data-testid={`${testId}-one-time-password`} className="rounded-md border bg-muted px-3 py-2 font-mono text-lg tracking-wider select-all">
              {shown}
            </output>
          </div>
        ) : (
          <div className="grid gap-3">
            <div role="radiogroup" aria-label={t('account.resetMode')} className="grid gap-2">
              {RESET_MODES.map((m) => (
                <label key={m} className="flex items-center gap-2 text-sm">
                  <input type="radio" name="reset-mode" value={m} checked={mode === m} onChange={() => setMode(m)} data-testid={`reset-mode-${m}`} className="accent-primary" />
                  {t(`account.mode.${m}`)}
                </label>
              ))}
            </div>
            {mode === 'set' ? (
              <div className="grid gap-1.5">
                <Label htmlFor="reset-password">{t('account.newPassword')}</Label>
                <Input
                  id="reset-password"
                  type="password"
                  autoComplete="new-password"
                  maxLength={PASSWORD_MAX}
                  value={password}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? 'reset-password-error' : undefined}
                  onChange={(e) => {
                    setPassword(e.target.value);
                    setError(null);
                  }}
                  data-testid="reset-password-input"
                />
              </div>
            ) : null}
            {error ? (
              <p id="reset-password-error" role="alert" className="text-sm text-destructive">
                {error}
              </p>
            ) : null}
          </div>
        )}
        <DialogFooter>
          {shown ? (
            <Button onClick={onClose} data-testid={`${testId}-reset-close`}>
              {t('account.shownDone')}
            </Button>
          ) : (
            <>
              <Button variant="outline" onClick={onClose}>
                {t('common:action.cancel')}
              </Button>
              <Button loading={pending} onClick={() => void submit()} data-testid={`${testId}-reset-confirm`}>
                {t('common:action.confirm')}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
