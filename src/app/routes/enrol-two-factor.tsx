import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LanguageSwitch } from '@/components/layout/language-switch';
import { useDocumentTitle } from '@/components/layout/use-document-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useSignOut } from '@/features/auth/hooks/use-sign-out';
import { completeSignIn } from '@/features/auth/session';
import { TotpEnrolment } from '@/features/security/components/totp-enrolment';

/**
 * /enrolTwoFactor: an account that must use two-factor sign-in and has not enrolled does so before anything else
 * (docs/product-rules.md#sign-in-security); the server answers 428 to every other call until then. Once the recovery
 * codes are noted, the sign-in goes on as usual.
 */
export function EnrolTwoFactorPage() {
  const { t } = useTranslation(['security', 'myInfo']);
  const signOut = useSignOut();
  const navigate = useNavigate();
  useDocumentTitle(t('security:forced.title'));
  const done = async () => {
    const path = await completeSignIn(null);
    if (path) void navigate(path, { replace: true });
  };
  return (
    <div data-testid="forced-enrolment" className="grid min-h-dvh content-start bg-muted/40">
      <div className="flex justify-end gap-2 p-4 sm:p-6">
        <LanguageSwitch variant="select" />
        <Button variant="outline" onClick={() => void signOut()} data-testid="forced-sign-out">
          {t('myInfo:forced.signOut')}
        </Button>
      </div>
      <main className="grid justify-items-center gap-4 px-5 pb-10">
        <div className="w-full max-w-3xl">
          <h1 className="text-2xl font-semibold tracking-tight">{t('security:forced.title')}</h1>
          <p role="status" className="mt-1.5 text-sm text-muted-foreground">
            {t('security:forced.text')}
          </p>
        </div>
        <Card className="w-full max-w-3xl">
          <CardHeader>
            <CardTitle>{t('security:my.twoFactor')}</CardTitle>
          </CardHeader>
          <CardContent>
            <TotpEnrolment onDone={() => void done()} />
          </CardContent>
        </Card>
      </main>
    </div>
  );
}
