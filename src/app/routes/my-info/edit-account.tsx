import { useSignOut } from '@/features/auth/hooks/use-sign-out';
import { ChangePasswordForm } from '@/features/my-info/components/change-password-form';
import { MyInfoFrame } from './frame';

/** /myInfo/editAccount: after a change, sign out and back to the login screen. */
export function EditAccountPage() {
  const signOut = useSignOut();
  return (
    <MyInfoFrame>
      <ChangePasswordForm onChanged={signOut} />
    </MyInfoFrame>
  );
}
