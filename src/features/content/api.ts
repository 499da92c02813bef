import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '@/domain/api';
import type { BannerPosition, BannerRow, BannerSave, CarouselSlide } from '@/domain/content/banners';
import type { LessonResourceRow, LessonResourceSave, LibraryRow } from '@/domain/content/lesson-resources';
import type { WikiEntry, WikiRow, WikiSave } from '@/domain/content/wiki';
import { pageApi, type Family, type SchoolFamily, type ServedBy } from '@/domain/menus/access';
import { get, post, put, type Params } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

const cache = new Map<string, Resource<never, never, never>>();
function resource<Row, Save, One = Row>(key: string): Resource<Row, Save, One> {
  let r = cache.get(key);
  if (!r) cache.set(key, (r = createResource<never, never, never>({ base: pageApi(key) })));
  return r as unknown as Resource<Row, Save, One>;
}

export const bannerKey = (family: Family) => `${family}.banner.bannerConfig`;
/** Banners (banner/bannerConfig) of a family. */
export const banners = (family: Family) => resource<BannerRow, BannerSave>(bannerKey(family));

export const wikiKey = (family: SchoolFamily) => `${family}.wiki.schoolWiki`;
/** School wiki entries (wikiManagement/schoolWiki). */
export const wiki = (family: SchoolFamily) => resource<WikiRow, WikiSave, WikiEntry>(wikiKey(family));

/** The school's resources (k12) or the management organisation's library (admin). */
export type LessonFamily = ServedBy<'lesson.lessonResource' | 'lesson.resourceLibrary'>;
export const lessonKey = (family: LessonFamily) => (family === 'admin' ? 'admin.lesson.resourceLibrary' : 'k12.lesson.lessonResource');
export const lessonResources = (family: LessonFamily) => resource<LessonResourceRow, LessonResourceSave>(lessonKey(family));

/** Writes of a resource's own routes refresh its queries. */
function useResourceWrite<V>(r: Resource<unknown, unknown, unknown>, call: (v: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => client.invalidateQueries({ queryKey: r.key }) });
}

export function useBannerWrites(family: Family) {
  const r = banners(family);
  const client = useQueryClient();
  const done = () => Promise.all([client.invalidateQueries({ queryKey: r.key }), client.invalidateQueries({ queryKey: ['carousel'] })]);
  return {
    status: useMutation({ mutationFn: (v: { row: BannerRow; enabled: boolean }) => put<BannerRow>(`${r.base}/${v.row.id}/status`, { enabled: v.enabled, version: v.row.version }), onSuccess: done }),
    move: useMutation({ mutationFn: (v: { row: BannerRow; direction: 'up' | 'down' }) => put<BannerRow>(`${r.base}/${v.row.id}/move`, { direction: v.direction, version: v.row.version }), onSuccess: done }),
  };
}

/** The public carousel of a position: what the login screen and the landing page show. */
export function useCarousel(position: BannerPosition, orgId: string | null | undefined) {
  return useQuery({
    queryKey: ['carousel', position, orgId ?? null],
    queryFn: () => get<CarouselSlide[]>('/api/oper/web/cs/banner/carousel', { position, orgId: orgId ?? undefined }),
  });
}

export function useWikiPublish(family: SchoolFamily) {
  const r = wiki(family);
  return useResourceWrite(r as Resource<unknown, unknown, unknown>, (v: { row: WikiRow; published: boolean }) =>
    put<WikiRow>(`${r.base}/${v.row.id}/publish`, { published: v.published, version: v.row.version }),
  );
}

/** The library a school browses (resources of the management organisations above it). */
export function useLibrary(query: Params, enabled = true) {
  const r = lessonResources('k12');
  return useQuery({ queryKey: [...r.key, 'library', query], queryFn: () => get<Page<LibraryRow>>(`${r.base}/library/page`, query), enabled, placeholderData: keepPreviousData });
}

/** Where a library resource's cover thumbnail is read (the file stays the publisher's; the library answers it). */
export const libraryCoverUrl = (id: string) => `${lessonResources('k12').base}/library/${id}/cover`;

export function useCopyFromLibrary() {
  const r = lessonResources('k12');
  return useResourceWrite(r as Resource<unknown, unknown, unknown>, (id: string) => post<LessonResourceRow>(`${r.base}/library/${id}/copy`));
}
