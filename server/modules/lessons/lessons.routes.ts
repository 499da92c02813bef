import type { FastifyPluginAsync } from 'fastify';
import type { TFunction } from 'i18next';
import { lessonDetailSchema, lessonListQuery, lessonRowSchema, type LessonRow, type LessonType } from '@/domain/lessons/lessons';
import { ORG_TIME_ZONE } from '@/domain/dates';
import { formatList } from '@/domain/i18n/list';
import { resourceAction } from '../../lib/action';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';
import { registerResource } from '../../lib/resource';
import { deleteLesson, lessonDetail, lessonPage, lessonRows } from './lessons.service';
import type { ServedBy } from '@/domain/menus/access';

/** The lesson screens of each family (docs/product-rules.md#lessons): a management organisation reads its schools'. */
/** The families with classroom lessons in the catalogue. */
type LessonFamily = ServedBy<'class.practise' | 'class.test' | 'class.match'>;
const FAMILY_TYPES: Record<LessonFamily, readonly LessonType[]> = { admin: ['practise', 'test'], k12: ['practise', 'test', 'match'] };

function lessonWorkbook(rows: readonly LessonRow[], t: TFunction, locale: string, type: LessonType): Buffer {
  const time = new Intl.DateTimeFormat('sv-SE', { timeZone: ORG_TIME_ZONE, dateStyle: 'short', timeStyle: 'short' });
  const head = ['school', 'className', 'teacher', 'venue', 'items', 'startedAt', 'endedAt', 'studentCount', 'recordCount'].map((k) => t(`lessons:${k}`));
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
  return writeXlsx([{ name: t(`lessons:types.${type}`), rows: [head, ...body], columnWidths: [24, 16, 12, 16, 30, 18, 18, 10, 10] }]);
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
            workbook: lessonWorkbook(await lessonRows(db, actor, type, query), t, locale, type),
            fileName: `${t(`lessons:types.${type}`)}.xlsx`,
          }),
        });
      },
    );
  }
};
