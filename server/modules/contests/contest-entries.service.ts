import { and, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Page, PageQuery } from '@/domain/api';
import { CONTEST_ENTRY_EXPORT_MAX_ROWS, type ContestEntryFilter, type ContestEntryInvalidBody, type ContestEntryRow } from '@/domain/contests/contests';
import { ACTIVITY_ITEMS } from '@/domain/activities/items';
import type { DbOrTx } from '../../db/client';
import { activityRecords } from '../../db/schema/activities';
import { students } from '../../db/schema/school';
import { AppError } from '../../lib/app-error';
import { inClassScope } from '../../lib/data-scope';
import { containsPattern } from '../../lib/query';
import type { ListSheet } from '../../lib/list-export';
import { activityRecordCount, activityRecordExportRows, activityRecordPage, exportTimeFormat, type ActivityRecordSelected } from '../activities/record-list';
import { setActivityRecordsInvalid } from '../activities/record-validity';
import { datedOwnerYears, inRecordYears } from '../activities/owner-years';
import { loadContest, type ContestReader, type ContestRecord } from './contests.service';
import { localDate } from '@/domain/dates';
import { isoInstant } from '../../lib/iso';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The entries of one contest (already checked to be the reader's) within the reader's classes, filtered; only the
 * school years its entries can be in (owner-years.ts).
 */
function entryFilter(reader: ContestReader, contest: ContestRecord, f: ContestEntryFilter): SQL | undefined {
  return and(
    eq(activityRecords.kind, 'contest'),
    eq(activityRecords.refId, contest.id),
    inRecordYears(activityRecords.schoolYear, datedOwnerYears(contest)),
    inClassScope(reader.classScope, activityRecords.classId),
    f.classId ? eq(activityRecords.classId, f.classId) : undefined,
    f.item ? eq(activityRecords.item, f.item) : undefined,
    f.source ? eq(activityRecords.source, f.source) : undefined,
    f.invalid === undefined ? undefined : eq(activityRecords.invalid, f.invalid),
    f.keyword ? or(ilike(students.name, containsPattern(f.keyword)), ilike(students.regNo, containsPattern(f.keyword))) : undefined,
  );
}

/** An entry shows the list's record without the school, gender, grade and duration columns of the exercise records. */
const toRow = ({ orgId: _org, orgName: _orgName, gender: _gender, gradeNo: _grade, durationS: _duration, ...r }: ActivityRecordSelected): ContestEntryRow => ({
  ...r,
  item: r.item as ContestEntryRow['item'],
  measuredAt: isoInstant(r.measuredAt),
  invalidAt: isoInstant(r.invalidAt),
});

/** A contest's entries, newest first (another organisation's contest is 404). */
export async function contestEntryPage(db: DbOrTx, reader: ContestReader, contestId: string, q: ContestEntryFilter & PageQuery): Promise<Page<ContestEntryRow>> {
  const contest = await loadContest(db, reader, contestId);
  const { rows, total } = await activityRecordPage(db, entryFilter(reader, contest, q), q);
  return { records: rows.map(toRow), total, current: q.current, size: q.size };
}

/** How many entries the export of these filters writes (its approval's count); 404 for a contest out of reach. */
export async function contestEntryExportRows(db: DbOrTx, reader: ContestReader, contestId: string, f: ContestEntryFilter): Promise<number> {
  const contest = await loadContest(db, reader, contestId);
  return activityRecordCount(db, entryFilter(reader, contest, f));
}

/** The filtered entries of a contest as an .xlsx named after the contest. */
export async function exportContestEntries(db: DbOrTx, reader: ContestReader, contestId: string, f: ContestEntryFilter, t: Translate, now: Date) {
  const contest = await loadContest(db, reader, contestId);
  const rows = await activityRecordExportRows(db, entryFilter(reader, contest, f), CONTEST_ENTRY_EXPORT_MAX_ROWS);
  if (rows.length > CONTEST_ENTRY_EXPORT_MAX_ROWS) throw new AppError(400, 'contests:entries.tooManyRows', { max: CONTEST_ENTRY_EXPORT_MAX_ROWS });
  // Each column names the entries list's column it shows (src/features/contests/contest-entries.tsx), so the export
  // follows the shown columns (server/lib/list-export.ts).
  const cols: [key: string, list: string, width: number, text?: boolean][] = [
    ['name', 'name', 10],
    ['regNo', 'name', 22, true],
    ['className', 'className', 14],
    ['item', 'item', 14],
    ['value', 'value', 10],
    ['unit', 'value', 8],
    ['source', 'source', 8],
    ['deviceSn', 'source', 16],
    ['measuredAt', 'measuredAt', 20],
    ['validity', 'invalid', 8],
    ['invalidReason', 'invalid', 24],
  ];
  const data = rows.map((r) => [
    r.name,
    r.regNo,
    r.className,
    t(`activities:item.${r.item}`),
    r.value,
    t(`activities:unit.${ACTIVITY_ITEMS.get(r.item as ContestEntryRow['item'])?.unit ?? 'count'}`),
    t(`activities:source.${r.source}`),
    r.deviceSn,
    exportTimeFormat.format(r.measuredAt),
    t(r.invalid ? 'contests:entries.invalid' : 'contests:entries.valid'),
    r.invalidReason,
  ]);
  const name = t('contests:entries.sheet');
  const sheet: ListSheet = { name, columns: cols.map(([key, list, width, text]) => ({ header: t(`contests:entries.column.${key}`), list, width, text })), rows: data };
  return { sheet, fileName: `${contest.name}-${name}-${localDate(now).replace(/-/g, '')}.xlsx` };
}

/**
 * Sets entries of a contest invalid (who, when and why are kept) or valid again (docs/product-rules.md#contests). The
 * contest_scores triggers recompute the students' roll-ups in the same statement, so the leaderboard changes at once.
 * Only entries of the reader's classes that are not already in the asked state change; answers the changed ids.
 */
export async function setContestEntriesInvalid(
  db: DbOrTx,
  reader: ContestReader,
  contestId: string,
  body: { ids: readonly string[]; reason?: ContestEntryInvalidBody['reason'] },
  invalid: boolean,
): Promise<string[]> {
  const contest = await loadContest(db, reader, contestId);
  return setActivityRecordsInvalid(
    db,
    body.ids,
    and(
      eq(activityRecords.kind, 'contest'),
      eq(activityRecords.refId, contestId),
      inRecordYears(activityRecords.schoolYear, datedOwnerYears(contest)),
      inClassScope(reader.classScope, activityRecords.classId),
    ),
    { invalid, reason: body.reason, by: reader.actor.userId, now: reader.now },
  );
}
