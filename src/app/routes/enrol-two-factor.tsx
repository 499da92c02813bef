import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { completeSignIn } from '@/features/auth/session';
import { TotpEnrolment } from '@/features/security/components/totp-enrolment';
import { ForcedStep } from './forced-step';

/**
 * /enrolTwoFactor: an account that must use two-factor sign-in and has not enrolled does so before anything else
 * (docs/product-rules.md#sign-in-security); the server answers 428 to every other call until then. Once the recovery
 * codes are noted, the sign-in goes on as usual.
 */
export function EnrolTwoFactorPage() {
  const { t } = useTranslation('security');
  const navigate = useNavigate();
  const done = async () => {
    const path = await completeSignIn(null);
    if (path) void navigate(path, { replace: true });
  };
  return (
    <ForcedStep title={t('forced.title')} text={t('forced.text')} wide data-testid="forced-enrolment">
      <Card>
        <CardHeader>
          <CardTitle>{t('my.twoFactor')}</CardTitle>
        </CardHeader>
        <CardContent>
          <TotpEnrolment onDone={() => void done()} />
        </CardContent>
      </Card>
    </ForcedStep>
  );
}
