import { and, asc, desc, eq, gte, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Page, PageQuery } from '@/domain/api';
import { ACTIVITY_ITEMS } from '@/domain/activities/items';
import { EXERCISE_EXPORT_MAX_ROWS, type ActivityOptions, type ExerciseRecordFilter, type ExerciseRecordRow, type ExerciseValidityBody } from '@/domain/activities/exercise-records';
import type { Family } from '@/domain/menus/access';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { DbOrTx } from '../../db/client';
import { schoolYearOf } from '../../db/school-year-partitions';
import { activityRecords } from '../../db/schema/activities';
import { orgs } from '../../db/schema/orgs';
import { classes, colleges, grades, schoolYears, students } from '../../db/schema/school';
import { AppError } from '../../lib/app-error';
import { inClassScope, type ClassScope } from '../../lib/data-scope';
import { containsPattern } from '../../lib/query';
import { inOrgSubtree } from '../../lib/tenancy';
import type { ListSheet } from '../../lib/list-export';
import { localDate } from '@/domain/dates';
import { activityRecordCount, activityRecordExportRows, activityRecordPage, exportTimeFormat, type ActivityRecordSelected } from './record-list';
import { setActivityRecordsInvalid } from './record-validity';
import { isoInstant } from '../../lib/iso';

/** Who reads: the family (a management organisation reads its schools), the tenant, the user and the class scope. */
export interface ActivityReader {
  family: Family;
  tenantOrgId: string;
  userId: string;
  classScope: ClassScope;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Records of the reader's organisation(s) and classes: a management organisation reads every school below it. */
export function inReaderScope(reader: ActivityReader): SQL | undefined {
  return and(
    reader.family === 'admin' ? inOrgSubtree(activityRecords.orgId, reader.tenantOrgId) : eq(activityRecords.orgId, reader.tenantOrgId),
    inClassScope(reader.classScope, activityRecords.classId),
  );
}

/** The school year (partition key) of a China calendar day 'YYYY-MM-DD'. */
const schoolYearOfDay = (day: string) => schoolYearOf(Date.parse(`${day}T12:00:00+08:00`));

const localDay = sql`(${activityRecords.measuredAt} at time zone ${ORG_TIME_ZONE})::date`;

export function recordFilter(reader: ActivityReader, f: ExerciseRecordFilter): SQL | undefined {
  // A school year runs from September to August; a semester from its start to the end of the break after it.
  const year = f.schoolYearId ? sql`(select sy.start_year from school_years sy where sy.id = ${f.schoolYearId})` : null;
  return and(
    eq(activityRecords.kind, 'exercise'),
    inReaderScope(reader),
    f.orgId ? eq(activityRecords.orgId, f.orgId) : undefined,
    year ? sql`${localDay} between make_date(${year}, 9, 1) and make_date(${year} + 1, 8, 31)` : undefined,
    // The same bounds on the partition key (docs/decisions/064-partitions-by-school-year.md): September to August spans
    // the partitions of that year and the next (August is the next school year's first month); the scalar subquery is
    // pruned when the statement starts, the days' years when it is planned.
    year ? sql`${activityRecords.schoolYear} between ${year} and ${year} + 1` : undefined,
    f.from ? gte(activityRecords.schoolYear, schoolYearOfDay(f.from)) : undefined,
    f.to ? lte(activityRecords.schoolYear, schoolYearOfDay(f.to)) : undefined,
    f.semesterCode
      ? sql`exists (select 1 from semesters se join school_years sy on sy.id = se.school_year_id where se.org_id = ${activityRecords.orgId} and se.code = ${f.semesterCode} and ${localDay} between se.start_date and coalesce(se.break_end, se.end_date)${year ? sql` and sy.start_year = ${year}` : sql``})`
      : undefined,
    f.gradeNo ? eq(grades.gradeNo, f.gradeNo) : undefined,
    f.classId ? eq(activityRecords.classId, f.classId) : undefined,
    f.keyword ? or(ilike(students.name, containsPattern(f.keyword)), ilike(students.regNo, containsPattern(f.keyword))) : undefined,
    f.item ? eq(activityRecords.item, f.item) : undefined,
    f.source ? eq(activityRecords.source, f.source) : undefined,
    f.from ? sql`${localDay} >= ${f.from}::date` : undefined,
    f.to ? sql`${localDay} <= ${f.to}::date` : undefined,
    f.invalid === undefined ? undefined : eq(activityRecords.invalid, f.invalid),
  );
}

const toRow = (r: ActivityRecordSelected): ExerciseRecordRow => ({
  ...r,
  item: r.item as ExerciseRecordRow['item'],
  unit: ACTIVITY_ITEMS.get(r.item as ExerciseRecordRow['item'])?.unit ?? 'count',
  measuredAt: r.measuredAt.toISOString(),
  invalidAt: isoInstant(r.invalidAt),
});

/** Exercise records of the reader's scope, newest first. */
export async function exerciseRecordPage(db: DbOrTx, reader: ActivityReader, q: ExerciseRecordFilter & PageQuery): Promise<Page<ExerciseRecordRow>> {
  const { rows, total } = await activityRecordPage(db, recordFilter(reader, q), q);
  return { records: rows.map(toRow), total, current: q.current, size: q.size };
}

/** How many records the export of these filters writes (its approval's count, docs/product-rules.md#personal-data-access). */
export const exerciseRecordExportRows = (db: DbOrTx, reader: ActivityReader, f: ExerciseRecordFilter): Promise<number> => activityRecordCount(db, recordFilter(reader, f));

/** The filtered exercise records as an .xlsx. */
export async function exportExerciseRecords(db: DbOrTx, reader: ActivityReader, f: ExerciseRecordFilter, t: Translate, now: Date) {
  const rows = await activityRecordExportRows(db, recordFilter(reader, f), EXERCISE_EXPORT_MAX_ROWS);
  if (rows.length > EXERCISE_EXPORT_MAX_ROWS) throw new AppError(400, 'activities:exerciseRecords.tooManyRows', { max: EXERCISE_EXPORT_MAX_ROWS });
  // Each column names the list's column it shows (src/features/activities/exercise-records/exercise-record-screen.tsx),
  // so the export follows the shown columns (server/lib/list-export.ts); the school is a list column of the district only.
  const cols: [key: string, list: string | undefined, width: number, text?: boolean][] = [
    ['school', reader.family === 'admin' ? 'orgName' : undefined, 16],
    ['name', 'name', 10],
    ['regNo', 'name', 22, true],
    ['className', 'className', 14],
    ['item', 'item', 14],
    ['value', 'value', 10],
    ['unit', 'value', 8],
    ['duration', 'durationS', 8],
    ['source', 'source', 8],
    ['deviceSn', 'deviceSn', 16],
    ['measuredAt', 'measuredAt', 20],
    ['validity', 'invalid', 8],
    ['invalidReason', 'invalid', 20],
  ];
  const data = rows.map((r) => [
    r.orgName,
    r.name,
    r.regNo,
    r.className,
    t(`activities:item.${r.item}`),
    r.value,
    t(`activities:unit.${ACTIVITY_ITEMS.get(r.item as ExerciseRecordRow['item'])?.unit ?? 'count'}`),
    r.durationS,
    t(`activities:source.${r.source}`),
    r.deviceSn,
    exportTimeFormat.format(r.measuredAt),
    t(r.invalid ? 'activities:exerciseRecords.invalid' : 'activities:exerciseRecords.valid'),
    r.invalidReason,
  ]);
  const name = t('activities:exerciseRecords.fileName');
  const sheet: ListSheet = { name, columns: cols.map(([key, list, width, text]) => ({ header: t(`activities:exerciseRecords.column.${key}`), list, width, text })), rows: data };
  return { sheet, fileName: `${name}-${localDate(now).replace(/-/g, '')}.xlsx` };
}

/**
 * Sets exercise records invalid (who, when and why are kept) or valid again (docs/product-rules.md#exercise-records).
 * Only records of the reader's scope that are not already in the asked state change; answers the changed ids.
 */
export async function setExerciseRecordsInvalid(db: DbOrTx, reader: ActivityReader, body: ExerciseValidityBody, invalid: boolean, now: Date): Promise<string[]> {
  return setActivityRecordsInvalid(db, body.ids, and(eq(activityRecords.kind, 'exercise'), inReaderScope(reader)), { invalid, reason: body.reason, by: reader.userId, now });
}

/** Filter and scope choices within the reader's organisation(s) and data scope (one query each, run together). */
export async function activityOptions(db: DbOrTx, reader: ActivityReader): Promise<ActivityOptions> {
  const inTenant = (col: Parameters<typeof eq>[0]) => (reader.family === 'admin' ? inOrgSubtree(col, reader.tenantOrgId) : eq(col, reader.tenantOrgId));
  const [schools, years, classRows, collegeRows] = await Promise.all([
    reader.family === 'admin'
      ? db.select({ id: orgs.id, name: orgs.name }).from(orgs).where(and(inOrgSubtree(orgs.id, reader.tenantOrgId), sql`${orgs.id} <> ${reader.tenantOrgId}`)).orderBy(asc(orgs.code))
      : Promise.resolve([]),
    // One entry per academic year: the year filter means that year in every school of the reader.
    db
      .selectDistinctOn([schoolYears.startYear], { id: schoolYears.id, academicYear: schoolYears.academicYear, current: schoolYears.current })
      .from(schoolYears)
      .where(inTenant(schoolYears.orgId))
      .orderBy(desc(schoolYears.startYear), desc(schoolYears.current)),
    db
      .select({ id: classes.id, name: classes.name, gradeNo: grades.gradeNo, orgId: classes.orgId, collegeId: classes.collegeId })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(inTenant(classes.orgId), eq(grades.graduated, false), inClassScope(reader.classScope, classes.id)))
      .orderBy(asc(grades.gradeNo), asc(classes.code), asc(classes.name)),
    db.select({ id: colleges.id, name: colleges.name }).from(colleges).where(inTenant(colleges.orgId)).orderBy(asc(colleges.code)),
  ]);
  return { schools, schoolYears: years, grades: [...new Set(classRows.map((c) => c.gradeNo))].sort((a, b) => a - b), classes: classRows, colleges: collegeRows };
}
