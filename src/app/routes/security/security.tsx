import { MySecurity } from '@/features/security/components/my-security';
import { SecuritySettingsScreen } from '@/features/security/components/security-settings-screen';
import { MyInfoFrame } from '../my-info/frame';
import { useScreenFamily } from '../screen-family';

/** system/security: the organisation's security settings. */
export function SecuritySettingsPage() {
  return <SecuritySettingsScreen family={useScreenFamily()} />;
}

/** /myInfo/security: the caller's two-factor sign-in and recent sign-ins. */
export function MySecurityPage() {
  return (
    <MyInfoFrame>
      <MySecurity />
    </MyInfoFrame>
  );
}
