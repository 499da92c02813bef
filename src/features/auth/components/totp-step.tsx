import { useState, type FormEvent } from 'react';
import { ArrowLeft, Smartphone } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { clearAuth } from '@/lib/store';
import { toast } from '@/lib/toast';

export interface TotpStepProps {
  challenge: string;
  redirectTo?: string | null;
  onSignedIn(path: string): void;
  /** Back to the password step (a new captcha). */
  onBack(): void;
}

/** The code step of a two-factor sign-in: the authenticator app's 6 digits, or a recovery code (docs/product-rules.md#sign-in-security). */
export function TotpStep({ challenge, redirectTo, onSignedIn, onBack }: TotpStepProps) {
  const { t } = useTranslation(['auth', 'security']);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const { totpCodeFormSchema } = await import('@/domain/security/two-factor');
    const checked = totpCodeFormSchema.safeParse({ code });
    if (!checked.success) {
      setError(checked.error.issues[0].message);
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      const { signInWithTotp } = await import('../sign-in');
      const path = await signInWithTotp(challenge, checked.data.code, redirectTo);
      if (path) onSignedIn(path);
    } catch (failure) {
      clearAuth();
      toast.warning(failure instanceof Error ? failure.message : String(failure));
      setCode('');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="totp-step" className="grid gap-5">
      <div className="flex items-start gap-3 rounded-lg border bg-muted/40 p-3 text-sm">
        <Smartphone aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
        <p>{t('security:signIn.hint')}</p>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="totp-code" data-error={!!error} className="data-[error=true]:text-destructive">
          {t('security:signIn.code')}
        </Label>
        <Input
          id="totp-code"
          name="totpCode"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          data-testid="totp-code"
          autoComplete="one-time-code"
          inputMode="numeric"
          autoFocus
          maxLength={11}
          placeholder="123456"
          aria-invalid={!!error}
          aria-describedby={error ? 'totp-code-message' : undefined}
          className="h-10 text-center font-mono text-lg tracking-[0.3em]"
        />
        {error ? (
          <p id="totp-code-message" role="alert" className="text-sm text-destructive">
            {t(error)}
          </p>
        ) : (
          <p className="text-xs text-muted-foreground">{t('security:signIn.recoveryHint')}</p>
        )}
      </div>
      <Button type="submit" size="lg" className="w-full" loading={submitting} data-testid="totp-submit">
        {t('security:signIn.submit')}
      </Button>
      <Button type="button" variant="ghost" onClick={onBack} data-testid="totp-back">
        <ArrowLeft aria-hidden />
        {t('security:signIn.back')}
      </Button>
    </form>
  );
}
