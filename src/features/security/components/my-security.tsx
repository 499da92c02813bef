import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { QueryState } from '@/components/query-state/query-state';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { SECURITY_OVERVIEW_KEY, useDisableTotp, useSecurityOverview } from '../api';
import { TotpEnrolment } from './totp-enrolment';

/**
 * myInfo.security (docs/product-rules.md#sign-in-security): two-factor sign-in (turn on with the app, off with the
 * password and a code unless the account must have it), the password policy that applies, and the recent sign-ins.
 */
export function MySecurity() {
  const { t, i18n } = useTranslation('security');
  const overview = useSecurityOverview();
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: SECURITY_OVERVIEW_KEY });
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language.replace('_', '-'), { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <QueryState query={overview} data={overview.data}>
      {(o) => (
        <div className="grid max-w-4xl gap-5" data-testid="my-security">
          <Card>
            <CardHeader>
              <CardTitle className="flex flex-wrap items-center gap-2">
                {t('my.twoFactor')}
                <Badge variant={o.enabled ? 'default' : 'secondary'} data-testid="two-factor-state">
                  {o.enabled ? t('my.on') : t('my.off')}
                </Badge>
                {o.required ? <Badge variant="outline">{t('my.required')}</Badge> : null}
              </CardTitle>
              <CardDescription>{t('my.twoFactorText')}</CardDescription>
            </CardHeader>
            <CardContent>
              {o.enabled ? (
                <div className="grid gap-4">
                  <p className="flex items-center gap-2 text-sm">
                    <ShieldCheck aria-hidden className="size-4 text-primary" />
                    {t('my.codesLeft', { count: o.recoveryCodesLeft })}
                  </p>
                  {o.required ? <p className="text-sm text-muted-foreground">{t('my.requiredText')}</p> : <DisableForm />}
                </div>
              ) : (
                <TotpEnrolment onDone={refresh} />
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t('my.passwordPolicy')}</CardTitle>
              <CardDescription>{t('my.passwordPolicyText', { min: o.passwordMinLength, classes: o.passwordClasses })}</CardDescription>
            </CardHeader>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t('my.recent')}</CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="divide-y text-sm" data-testid="recent-sign-ins">
                {o.signIns.map((s) => (
                  <li key={s.at + (s.ip ?? '')} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
                    <span className="tabular-nums">{when(s.at)}</span>
                    <span className="text-muted-foreground">
                      {s.ip ?? '—'} · {s.browser ?? '—'}
                    </span>
                    <Badge variant={s.success ? 'secondary' : 'destructive'}>{s.success ? t('my.success') : t('my.failure')}</Badge>
                  </li>
                ))}
                {o.signIns.length === 0 ? <li className="py-2 text-muted-foreground">{t('my.none')}</li> : null}
              </ul>
            </CardContent>
          </Card>
        </div>
      )}
    </QueryState>
  );
}

function DisableForm() {
  const { t } = useTranslation('security');
  const disable = useDisableTotp();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await disable.mutateAsync({ password, code });
      toast.success(t('my.disabled'));
    } catch (e) {
      toast.warning(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="grid max-w-md gap-3 border-t pt-4" data-testid="disable-form">
      <p className="text-sm font-medium">{t('my.disableTitle')}</p>
      <div className="grid gap-1.5">
        <Label htmlFor="disable-password">{t('my.password')}</Label>
        <Input id="disable-password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="disable-code">{t('my.code')}</Label>
        <Input id="disable-code" value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" maxLength={11} />
      </div>
      <div>
        <Button type="submit" variant="outline" loading={disable.isPending} disabled={!password || !code}>
          <ShieldOff aria-hidden />
          {t('my.disable')}
        </Button>
      </div>
    </form>
  );
}
