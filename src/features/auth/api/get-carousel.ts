import { useQuery } from '@tanstack/react-query';
import type { CarouselSlide } from '@/domain/content/banners';

/** GET /api/oper/web/cs/banner/carousel?position=login (public): the login screen's banners (docs/product-rules.md#banners). */
export async function getLoginCarousel(orgId?: string | null): Promise<CarouselSlide[]> {
  // Like the branding query: the API client loads after the first paint, not with it.
  const { get } = await import('@/lib/api-client');
  return get<CarouselSlide[]>('/api/oper/web/cs/banner/carousel', { position: 'login', orgId: orgId ?? undefined });
}

export function useLoginCarousel(orgId?: string | null) {
  return useQuery({
    queryKey: ['carousel', 'login', orgId ?? null],
    queryFn: () => getLoginCarousel(orgId),
    staleTime: 10 * 60_000,
    // Banners are optional: without them the login screen shows its own picture, without a warning.
    meta: { silent: true },
    retry: false,
  });
}
