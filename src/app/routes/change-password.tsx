import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '@/components/layout/language-switch';
import { useDocumentTitle } from '@/components/layout/use-document-title';
import { Button } from '@/components/ui/button';
import { useSignOut } from '@/features/auth/hooks/use-sign-out';
import { ChangePasswordForm } from '@/features/my-info/components/change-password-form';

/**
 * /changePassword: a session whose password an administrator chose (a reset or a new account) changes it before
 * anything else (docs/product-rules.md#users); then, as the form says, the session ends and the person signs in again
 * with the new password (the login screen shows 「密码修改成功，请重新登录」), like a change from the personal centre.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation(['myInfo', 'layout']);
  const signOut = useSignOut();
  useDocumentTitle(t('myInfo:forced.title'));
  return (
    <div data-testid="forced-password-change" className="grid min-h-dvh content-start bg-muted/40">
      <div className="flex justify-end gap-2 p-4 sm:p-6">
        <LanguageSwitch variant="select" />
        <Button variant="outline" onClick={() => void signOut()} data-testid="forced-sign-out">
          {t('myInfo:forced.signOut')}
        </Button>
      </div>
      <main className="grid justify-items-center gap-4 px-5 pb-10">
        <div className="w-full max-w-2xl">
          <h1 className="text-2xl font-semibold tracking-tight">{t('myInfo:forced.title')}</h1>
          <p role="status" className="mt-1.5 text-sm text-muted-foreground">
            {t('myInfo:forced.text')}
          </p>
        </div>
        <div className="w-full max-w-2xl">
          <ChangePasswordForm onChanged={signOut} />
        </div>
      </main>
    </div>
  );
}
