import type { FastifyPluginAsync } from 'fastify';
import type { TFunction } from 'i18next';
import { lessonDetailSchema, lessonListQuery, lessonRowSchema, type LessonRow, type LessonType } from '@/domain/lessons/lessons';
import { ORG_TIME_ZONE } from '@/domain/dates';
import { formatList } from '@/domain/i18n/list';
import { resourceAction } from '../../lib/action';
import type { ListSheet } from '../../lib/list-export';
import { registerResource } from '../../lib/resource';
import { deleteLesson, lessonDetail, lessonPage, lessonRows } from './lessons.service';
import type { ServedBy } from '@/domain/menus/access';

/** The lesson screens of each family (docs/product-rules.md#lessons): a management organisation reads its schools'. */
/** The families with classroom lessons in the catalogue. */
type LessonFamily = ServedBy<'class.practise' | 'class.test' | 'class.match'>;
const FAMILY_TYPES: Record<LessonFamily, readonly LessonType[]> = { admin: ['practise', 'test'], k12: ['practise', 'test', 'match'] };

/**
 * The lessons of the current filter as the list's sheet: each column names the lesson list's column it shows
 * (src/features/lessons/lesson-screens.tsx), so the export follows the shown columns (server/lib/list-export.ts). The
 * school is a list column of the district only: elsewhere it keeps its place.
 */
function lessonSheet(rows: readonly LessonRow[], t: TFunction, locale: string, type: LessonType, family: LessonFamily): ListSheet {
  const time = new Intl.DateTimeFormat('sv-SE', { timeZone: ORG_TIME_ZONE, dateStyle: 'short', timeStyle: 'short' });
  const columns: [key: string, list: string | undefined, width: number][] = [
    ['school', family === 'admin' ? 'orgName' : undefined, 24],
    ['className', 'className', 16],
    ['teacher', 'teacherName', 12],
    ['venue', 'venueName', 16],
    ['items', 'items', 30],
    ['startedAt', 'startedAt', 18],
    ['endedAt', 'endedAt', 18],
    ['studentCount', 'studentCount', 10],
    ['recordCount', 'recordCount', 10],
  ];
  const body = rows.map((r) => [
    r.orgName,
    r.className,
    r.teacherName,
    r.venueName,
    formatList(r.items.map((i) => t(`activities:item.${i}`)), locale),
    time.format(new Date(r.startedAt)),
    r.endedAt ? time.format(new Date(r.endedAt)) : '',
    r.studentCount,
    r.recordCount,
  ]);
  return { name: t(`lessons:types.${type}`), columns: columns.map(([key, list, width]) => ({ header: t(`lessons:${key}`), list, width })), rows: body };
}

export const lessonRoutes: FastifyPluginAsync<{ family: LessonFamily }> = async (app, { family }) => {
  for (const type of FAMILY_TYPES[family]) {
    const key = `${family}.class.${type}`;
    await registerResource(
      app,
      family,
      {
        key,
        entity: 'lesson',
        list: { query: lessonListQuery, handler: (db, actor, q) => lessonPage(db, actor, type, q) },
        get: (db, actor, id) => lessonDetail(db, actor, type, id),
        ...(family === 'k12' ? { remove: (tx, actor, id) => deleteLesson(tx, actor, type, id) } : {}),
        response: { row: lessonRowSchema, detail: lessonDetailSchema },
      },
      (scope) => {
        resourceAction(scope, {
          method: 'GET',
          path: '/export',
          access: [key, 'export'],
          query: lessonListQuery.omit({ current: true, size: true }),
          answers: 'file',
          read: async (db, actor, { query }, { t, locale }) => ({
            sheet: lessonSheet(await lessonRows(db, actor, type, query), t, locale, type, family),
            fileName: `${t(`lessons:types.${type}`)}.xlsx`,
          }),
        });
      },
    );
  }
};
