import { BannerDetailScreen, BannerFormScreen, BannerListScreen } from '@/features/content/components/banner-screens';
import { useScreenFamily } from '../screen-family';

/** banner/bannerConfig. */
export function BannerPage() {
  return <BannerListScreen family={useScreenFamily()} />;
}
/** banner/bannerConfig/add and edit/:uid. */
export function BannerFormPage() {
  return <BannerFormScreen family={useScreenFamily()} />;
}
/** banner/bannerConfig/detail/:uid. */
export function BannerDetailPage() {
  return <BannerDetailScreen family={useScreenFamily()} />;
}
