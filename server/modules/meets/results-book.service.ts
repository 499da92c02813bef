import { and, asc, eq, sql } from 'drizzle-orm';
import { formatMark } from '@/domain/meets/marks';
import { standings } from '@/domain/meets/points';
import type { DbOrTx } from '../../db/client';
import { meetEvents, meetGroups, meetRecords } from '../../db/schema/meets';
import { orgs } from '../../db/schema/orgs';
import { grades } from '../../db/schema/school';
import type { Actor } from '../../plugins/tenant';
// pdf-lib and its font kit load when a book is first made, not with the server (docs/performance.md, start-up).
import type { BookDocument, BookSection } from '../../lib/book-pdf';
import { placedLines } from './points.service';
import { gradeNameKey } from '@/domain/school/grade-name';

type Translate = (key: string, params?: Record<string, unknown>) => string;

/** Which deliverable: the whole results book (成绩册) or only its points tables (积分表). */
export type BookKind = 'resultsBook' | 'pointsTable';

const points = (n: number) => String(Math.round(n * 100) / 100);

/**
 * A meet's results book or points tables as PDF (docs/product-rules.md#meet-documents): the same counted places as the
 * points screen (published, valid, placed, the event's last round), so the paper and the screen cannot disagree.
 * Results book: every event's final results with points and records broken, the records set at the meet, then the
 * points tables (class and grade totals, the individual ranking).
 */
export async function meetBook(db: DbOrTx, actor: Actor, meetId: string, kind: BookKind, t: Translate): Promise<{ name: string; pdf: Uint8Array }> {
  const { meet, rows, lines } = await placedLines(db, actor, meetId);
  const [org] = await db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, actor.tenantOrgId));
  const scoring = lines.filter((l) => l.points > 0);

  const gradeIds = [...new Set(rows.map((r) => r.gradeId))];
  const gradeRows = gradeIds.length ? await db.select({ id: grades.id, gradeNo: grades.gradeNo }).from(grades).where(sql`${grades.id} in ${gradeIds}`) : [];
  const gradeName = new Map(gradeRows.map((g) => [g.id, t(gradeNameKey(g.gradeNo))]));
  const classNames = new Map(rows.map((r) => [r.classId, r.className]));
  const athletes = new Map(rows.map((r) => [r.athleteId, { name: r.name, className: r.className }]));

  const rank = { label: t('meets:book.rank'), width: 1, align: 'center' } as const;
  const total = { label: t('meets:points.points'), width: 1.2, align: 'right' } as const;
  const pointsSection: BookSection = {
    heading: t('meets:book.pointsHeading'),
    tables: [
      {
        title: t('meets:points.classes'),
        columns: [rank, { label: t('meets:heat.className'), width: 5 }, total],
        rows: standings(scoring, (l) => l.classId).map((s) => [String(s.rank), classNames.get(s.id) ?? '', points(s.points)]),
        empty: t('meets:points.none'),
      },
      {
        title: t('meets:book.grades'),
        columns: [rank, { label: t('meets:book.grade'), width: 5 }, total],
        rows: standings(scoring, (l) => l.gradeId).map((s) => [String(s.rank), gradeName.get(s.id) ?? '', points(s.points)]),
        empty: t('meets:points.none'),
      },
      {
        title: t('meets:points.athletes'),
        columns: [rank, { label: t('meets:heat.name'), width: 2.5 }, { label: t('meets:heat.className'), width: 2.5 }, total],
        // Relay points go to the class, not to the runners' all-round ranking (as on the points screen).
        rows: standings(scoring.filter((l) => !l.relay), (l) => l.athleteId)
          .slice(0, 20)
          .map((s) => [String(s.rank), athletes.get(s.id)?.name ?? '', athletes.get(s.id)?.className ?? '', points(s.points)]),
        empty: t('meets:points.none'),
      },
    ],
  };

  const sections: BookSection[] = [];
  if (kind === 'resultsBook') {
    const events = await db
      .select({ id: meetEvents.id, name: meetEvents.name, groupName: meetGroups.name })
      .from(meetEvents)
      .innerJoin(meetGroups, eq(meetGroups.id, meetEvents.groupId))
      .where(eq(meetEvents.meetId, meetId))
      .orderBy(asc(meetGroups.sort), asc(meetEvents.sort));
    sections.push({
      heading: t('meets:book.resultsHeading'),
      tables: events.map((e) => ({
        title: `${e.groupName} ${e.name}`,
        columns: [
          { label: t('meets:score.place'), width: 0.9, align: 'center' },
          { label: t('meets:heat.name'), width: 2.4 },
          { label: t('meets:heat.className'), width: 2.2 },
          { label: t('meets:score.mark'), width: 1.4, align: 'right' },
          { label: t('meets:points.points'), width: 1, align: 'right' },
          { label: t('meets:sheet.note'), width: 1.3, align: 'center' },
        ],
        rows: lines
          .filter((l) => l.eventId === e.id)
          .map((l) => [String(l.place), l.name, l.className, formatMark(l.kind, l.mark), l.points ? points(l.points) : '', l.newRecord ? t('meets:score.newRecord') : '']),
        empty: t('meets:book.noResults'),
      })),
    });
    const records = await db
      .select({ eventName: meetRecords.eventName, groupName: meetRecords.groupName, scope: meetRecords.scope, mark: meetRecords.mark, kind: meetRecords.resultKind, holder: meetRecords.holder, className: meetRecords.className, setOn: meetRecords.setOn, state: meetRecords.state })
      .from(meetRecords)
      .where(and(eq(meetRecords.orgId, actor.tenantOrgId), eq(meetRecords.meetId, meetId)))
      .orderBy(asc(meetRecords.groupName), asc(meetRecords.eventName), asc(meetRecords.setOn));
    sections.push({
      heading: t('meets:book.recordsHeading'),
      tables: [
        {
          title: t('meets:book.recordsBroken'),
          columns: [
            { label: t('meets:book.event'), width: 2.6 },
            { label: t('meets:record.scope'), width: 1.5 },
            { label: t('meets:record.mark'), width: 1.2, align: 'right' },
            { label: t('meets:record.holder'), width: 1.6 },
            { label: t('meets:record.className'), width: 1.7 },
            { label: t('meets:record.setOn'), width: 1.5, align: 'center' },
            { label: t('meets:record.state'), width: 1.2, align: 'center' },
          ],
          rows: records.map((r) => [`${r.groupName} ${r.eventName}`, t(`meets:recordScope.${r.scope}`), formatMark(r.kind, r.mark), r.holder, r.className ?? '', r.setOn, t(`meets:recordState.${r.state}`)]),
          empty: t('meets:book.noRecords'),
        },
      ],
    });
  }
  sections.push(pointsSection);

  const title = t(`meets:book.${kind}`);
  const book: BookDocument = {
    header: meet.name,
    title,
    subtitle: [org?.name, meet.startDate === meet.endDate ? meet.startDate : `${meet.startDate} – ${meet.endDate}`].filter(Boolean).join('  '),
    sections,
    pageLabel: (page, pages) => t('meets:book.page', { page, pages }),
  };
  const { bookPdf } = await import('../../lib/book-pdf');
  const pdf = await bookPdf(book, (tableTitle) => t('meets:book.continued', { title: tableTitle }));
  return { name: t('meets:book.fileName', { meet: meet.name, title }), pdf };
}
