import { pageApi, type ServedBy } from '@/domain/menus/access';
import type { LessonDetail, LessonRow, LessonType } from '@/domain/lessons/lessons';
import { download, saveFile, type Params } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

export type LessonFamily = ServedBy<'class.practise' | 'class.test' | 'class.match'>;
export const lessonKey = (family: LessonFamily, type: LessonType) => `${family}.class.${type}`;

const cache = new Map<string, Resource<LessonRow, never, LessonDetail>>();
/** The lessons of one type (class/practise, class/test, class/match) of a family; `useGet` answers the detail. */
export function lessonsOf(family: LessonFamily, type: LessonType): Resource<LessonRow, never, LessonDetail> {
  const key = lessonKey(family, type);
  let r = cache.get(key);
  if (!r) cache.set(key, (r = createResource<LessonRow, never, LessonDetail>({ base: pageApi(key) })));
  return r;
}

/** The lessons of the current filter as .xlsx. */
export async function exportLessons(family: LessonFamily, type: LessonType, filters: Params, fileName: string) {
  saveFile(await download(`${lessonsOf(family, type).base}/export`, filters), `${fileName}.xlsx`);
}
