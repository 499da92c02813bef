import { useTranslation } from 'react-i18next';
import { useSignOut } from '@/features/auth/hooks/use-sign-out';
import { ChangePasswordForm } from '@/features/my-info/components/change-password-form';
import { ForcedStep } from './forced-step';

/**
 * /changePassword: a session whose password an administrator chose (a reset or a new account) changes it before
 * anything else (docs/product-rules.md#users); then, as the form says, the session ends and the person signs in again
 * with the new password (the login screen shows 「密码修改成功，请重新登录」), like a change from the personal centre.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation('myInfo');
  const signOut = useSignOut();
  return (
    <ForcedStep title={t('forced.title')} text={t('forced.text')} data-testid="forced-password-change">
      <ChangePasswordForm onChanged={signOut} />
    </ForcedStep>
  );
}
