import { useTranslation } from 'react-i18next';
import type { CarouselSlide } from '@/domain/content/banners';
import { Carousel } from '@/components/carousel/carousel';

/**
 * The login screen's picture side: the organisation's login banners as a carousel (docs/product-rules.md#banners),
 * else its login image, else a drawn running track (docs/product-rules.md#branding).
 */
export function LoginArt({ image, slides = [] }: { image?: string | null; slides?: readonly CarouselSlide[] }) {
  const { t } = useTranslation('auth');
  if (slides.length > 0) {
    return (
      <Carousel
        items={slides}
        labels={{ previous: t('carousel.previous'), next: t('carousel.next'), slide: (index) => t('carousel.slide', { index }) }}
        className="hidden bg-[#0a2a52] lg:block"
        data-testid="login-carousel"
      />
    );
  }
  return (
    <section
      aria-hidden
      className="relative hidden overflow-hidden bg-gradient-to-br from-[#0a2a52] via-[#0a5fae] to-[#0f9f9a] text-white lg:flex lg:flex-col"
    >
      {image ? (
        <img src={image} alt="" className="absolute inset-0 size-full object-cover" />
      ) : (
        <svg className="absolute inset-0 size-full opacity-25" viewBox="0 0 800 800" preserveAspectRatio="xMidYMid slice" fill="none">
          {[0, 1, 2, 3, 4, 5, 6, 7].map((lane) => (
            <rect
              key={lane}
              x={140 - lane * 34}
              y={210 - lane * 34}
              width={520 + lane * 68}
              height={380 + lane * 68}
              rx={190 + lane * 34}
              stroke="white"
              strokeWidth={lane === 0 ? 3 : 1.5}
              strokeDasharray={lane % 2 ? '0' : '10 12'}
            />
          ))}
          <line x1="400" y1="120" x2="400" y2="700" stroke="white" strokeWidth="1" strokeDasharray="4 10" />
        </svg>
      )}
      <div className="absolute inset-0 bg-gradient-to-t from-black/55 via-black/10 to-transparent" />
      <div className="relative z-10 mt-auto max-w-xl p-12 xl:p-16">
        <p className="text-sm font-medium tracking-[0.2em] text-white/70 uppercase">{t('hero.kicker')}</p>
        <p className="mt-3 text-3xl leading-tight font-semibold text-balance xl:text-4xl">{t('hero.title')}</p>
        <p className="mt-4 text-base text-white/80">{t('hero.subtitle')}</p>
      </div>
    </section>
  );
}
