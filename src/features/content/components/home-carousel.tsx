import { Carousel } from '@/components/carousel/carousel';
import { currentOrgId } from '@/lib/store';
import { useCarousel } from '../api';
import { useCarouselLabels } from './banner-screens';

/** The landing page's banners (position `home`) of the organisation in use, or its nearest ancestor's (docs/product-rules.md#banners). */
export function HomeCarousel() {
  const slides = useCarousel('home', currentOrgId());
  const labels = useCarouselLabels();
  if (!slides.data?.length) return null;
  return <Carousel items={slides.data} labels={labels} className="aspect-[4/1] w-full rounded-xl bg-muted" data-testid="home-carousel" />;
}
