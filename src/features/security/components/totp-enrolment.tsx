import { useEffect, useState, type FormEvent } from 'react';
import { Copy, QrCode } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { totpConfirmSchema, type TotpEnrolment as Enrolment } from '@/domain/security/two-factor';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { confirmTotp, startTotp } from '../api';

/**
 * Turning two-factor sign-in on (docs/product-rules.md#sign-in-security): a new secret as a QR code and as text, a code
 * of the app confirms it, then the ten recovery codes are shown once.
 */
export function TotpEnrolment({ onDone }: { onDone(): void }) {
  const { t } = useTranslation('security');
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);

  useEffect(() => {
    if (!enrolment) return;
    let live = true;
    void import('qrcode').then((m) => m.toDataURL(enrolment.uri, { margin: 1, width: 200 })).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [enrolment]);

  const start = async () => {
    setBusy(true);
    try {
      setEnrolment(await startTotp());
    } catch (e) {
      toast.warning(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    const checked = totpConfirmSchema.safeParse({ code });
    if (!checked.success) return setError(checked.error.issues[0].message);
    setError(null);
    setBusy(true);
    try {
      setCodes((await confirmTotp(checked.data.code)).recoveryCodes);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  if (codes) {
    return (
      <div className="grid gap-4" data-testid="recovery-codes">
        <p className="text-sm font-medium">{t('enrol.codesTitle')}</p>
        <p className="text-sm text-muted-foreground">{t('enrol.codesText')}</p>
        <ul className="grid grid-cols-2 gap-2 rounded-lg border bg-muted/40 p-4 font-mono text-sm sm:grid-cols-5">
          {codes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" onClick={() => void navigator.clipboard?.writeText(codes.join('\n')).then(() => toast.success(t('enrol.copied')))}>
            <Copy aria-hidden />
            {t('enrol.copy')}
          </Button>
          <Button type="button" onClick={onDone} data-testid="enrol-done">
            {t('enrol.done')}
          </Button>
        </div>
      </div>
    );
  }

  if (!enrolment) {
    return (
      <div className="grid justify-items-start gap-3">
        <p className="text-sm text-muted-foreground">{t('enrol.intro')}</p>
        <Button type="button" onClick={() => void start()} loading={busy} data-testid="enrol-start">
          <QrCode aria-hidden />
          {t('enrol.start')}
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={(e) => void confirm(e)} noValidate className="grid gap-5 md:grid-cols-[auto_minmax(0,1fr)]" data-testid="enrol-form">
      <div className="grid justify-items-center gap-2">
        {qr ? <img src={qr} width={200} height={200} alt={t('enrol.qrAlt')} className="rounded-md border bg-white p-1" data-testid="enrol-qr" /> : <div className="size-[200px] animate-pulse rounded-md bg-muted" />}
      </div>
      <div className="grid content-start gap-4">
        <ol className="grid list-decimal gap-1 pl-5 text-sm">
          <li>{t('enrol.step1')}</li>
          <li>{t('enrol.step2')}</li>
        </ol>
        <div className="grid gap-1">
          <span className="text-xs text-muted-foreground">{t('enrol.secretLabel')}</span>
          <code className="rounded-md border bg-muted/40 px-3 py-2 font-mono text-sm break-all select-all" data-testid="enrol-secret">
            {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
          </code>
        </div>
        <div className="grid max-w-xs gap-2">
          <Label htmlFor="enrol-code">{t('enrol.code')}</Label>
          <Input
            id="enrol-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder="123456"
            aria-invalid={!!error}
            className="font-mono tracking-[0.3em]"
            data-testid="enrol-code"
          />
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {t(error, { defaultValue: error })}
            </p>
          ) : null}
        </div>
        <div>
          <Button type="submit" loading={busy} data-testid="enrol-confirm">
            {t('enrol.confirm')}
          </Button>
        </div>
      </div>
    </form>
  );
}
