import { AccountChooser } from '@/features/auth/components/account-chooser';
import { HomeCarousel } from '@/features/content/components/home-carousel';
import { ProfileSummary } from '@/features/my-info/components/profile-summary';
import { MyInfoFrame } from './frame';

/** /myInfo/base: profile summary and the accounts/roles to choose from (docs/product-rules.md#screens-and-routes, #accounts-in-use). */
export function MyInfoBasePage() {
  return (
    <MyInfoFrame>
      <HomeCarousel />
      <ProfileSummary />
      <AccountChooser />
    </MyInfoFrame>
  );
}
