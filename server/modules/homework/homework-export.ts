import { ACTIVITY_ITEMS } from '@/domain/activities/items';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';
import { classCompletion, homeworkById, studentCompletion, submissionPage, type HomeworkReader } from './homework.service';
import { localDate } from '@/domain/dates';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Most students or submissions one export lists. */
export const HOMEWORK_EXPORT_MAX_ROWS = 100_000;

/**
 * How many rows about students the export writes: its longest sheet, per student or per submission (the export
 * approval's count, docs/product-rules.md#personal-data-access).
 */
export async function homeworkExportRows(db: DbOrTx, reader: HomeworkReader, id: string, now: Date): Promise<number> {
  await homeworkById(db, reader, id, now);
  const one = { current: 1, size: 1 };
  const [byStudent, submissions] = await Promise.all([studentCompletion(db, reader, id, one, now), submissionPage(db, reader, id, one, now)]);
  return Math.max(byStudent.total, submissions.total);
}

/**
 * A homework's detail as a workbook (docs/product-rules.md#homework): completion per class, per student and every
 * submission, the same rows and scope (a class-scoped teacher's classes) as the detail's three tabs.
 */
export async function exportHomework(db: DbOrTx, reader: HomeworkReader, id: string, t: Translate, now: Date) {
  const hw = await homeworkById(db, reader, id, now);
  const all = { current: 1, size: HOMEWORK_EXPORT_MAX_ROWS + 1 };
  const [byClass, byStudent, submissions] = await Promise.all([
    classCompletion(db, reader, id, now),
    studentCompletion(db, reader, id, all, now),
    submissionPage(db, reader, id, all, now),
  ]);
  if (byStudent.total > HOMEWORK_EXPORT_MAX_ROWS || submissions.total > HOMEWORK_EXPORT_MAX_ROWS)
    throw new AppError(400, 'homework:tooManyRows', { max: HOMEWORK_EXPORT_MAX_ROWS });
  const h = (k: string) => t(`homework:${k}`);
  const fmt = new Intl.DateTimeFormat('sv-SE', { timeZone: ORG_TIME_ZONE, dateStyle: 'short', timeStyle: 'medium' });
  const unit = (item: string) => t(`activities:unit.${ACTIVITY_ITEMS.get(item as never)?.unit ?? 'count'}`);
  const workbook = writeXlsx([
    {
      name: h('tab.classes'),
      rows: [
        [h('className'), h('students'), h('submitted'), h('done'), h('rate')],
        ...byClass.map((c) => [c.className, c.students, c.submitted, c.done, `${Math.round(c.rate * 1000) / 10}%`]),
      ],
      columnWidths: [16, 8, 8, 8, 8],
    },
    {
      name: h('tab.students'),
      rows: [
        [h('student'), h('studentNo'), h('className'), h('submissions'), h('periodsDone'), h('periodsDue'), h('done')],
        ...byStudent.records.map((s) => [s.studentName, s.studentNo, s.className, s.submissions, s.periodsDone, s.periodsDue, h(s.done ? 'doneYes' : 'doneNo')]),
      ],
      columnWidths: [10, 16, 14, 8, 8, 8, 8],
      textColumns: [1],
    },
    {
      name: h('tab.submissions'),
      rows: [
        [h('student'), h('className'), t('activities:task.itemLabel'), h('value'), t('activities:task.target'), t('homework:reachedHeader'), h('measuredAt'), h('review'), h('reason')],
        ...submissions.records.map((s) => [
          s.studentName,
          s.className,
          t(`activities:item.${s.item}`),
          `${s.value} ${unit(s.item)}`,
          `${s.target} ${unit(s.item)}`,
          h(s.reached ? 'doneYes' : 'doneNo'),
          fmt.format(new Date(s.measuredAt)),
          h(`reviewState.${s.review}`),
          s.reviewReason,
        ]),
      ],
      columnWidths: [10, 14, 14, 10, 10, 8, 20, 10, 24],
    },
  ]);
  return { workbook, fileName: `${hw.name}-${localDate(now).replace(/-/g, '')}.xlsx` };
}
