import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Page, PageQuery } from '@/domain/api';
import type { ResultKey } from '@/domain/physique/national-template';
import type { Gender } from '@/domain/physique/standard';
import { formatRaw, type Translate } from '@/domain/physique-results/export-layout';
import { SCORE_EXPORT_MAX_ROWS, type TestRecordFilter } from '@/domain/physique-results/schemas';
import type { ChangedCount, TestRecordRow } from '@/domain/physique-results/types';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { DbOrTx } from '../../db/client';
import { testRecords } from '../../db/schema/physique';
import { classes, grades, students } from '../../db/schema/school';
import { containsPattern } from '../../lib/query';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';
import type { Caller } from './physique-results.service';
import { AppError } from '../../lib/app-error';
import { inClassScope } from '../../lib/data-scope';
import { inTenant } from './physique-results.sql';
import { localDate } from '@/domain/dates';
import { isoInstant } from '../../lib/iso';

/** The local (China) calendar day of a record. */
const localDay = sql`(${testRecords.testedAt} at time zone ${ORG_TIME_ZONE})::date`;

/** The WHERE of the test-record list and its export (selfTest/testRecord): score-search filters plus item and dates. */
function recordFilter(caller: Caller, f: TestRecordFilter): SQL | undefined {
  // A school year runs from September to August; a semester from its start to the end of the break after it.
  const year = f.schoolYearId ? sql`(select sy.start_year from school_years sy where sy.id = ${f.schoolYearId})` : null;
  return and(
    inTenant(testRecords.orgId, caller.family, caller.tenantOrgId),
    inClassScope(caller.classScope, testRecords.classId),
    f.orgId ? eq(testRecords.orgId, f.orgId) : undefined,
    year ? sql`${localDay} between make_date(${year}, 9, 1) and make_date(${year} + 1, 8, 31)` : undefined,
    f.semesterCode
      ? sql`exists (select 1 from semesters se join school_years sy on sy.id = se.school_year_id where se.org_id = ${testRecords.orgId} and se.code = ${f.semesterCode} and ${localDay} between se.start_date and coalesce(se.break_end, se.end_date)${year ? sql` and sy.start_year = ${year}` : sql``})`
      : undefined,
    f.gradeNo ? eq(grades.gradeNo, f.gradeNo) : undefined,
    f.classId ? eq(testRecords.classId, f.classId) : undefined,
    f.gender ? eq(students.gender, f.gender) : undefined,
    f.keyword ? or(ilike(students.name, containsPattern(f.keyword)), ilike(students.regNo, containsPattern(f.keyword))) : undefined,
    f.item ? eq(testRecords.item, f.item) : undefined,
    f.from ? sql`${localDay} >= ${f.from}::date` : undefined,
    f.to ? sql`${localDay} <= ${f.to}::date` : undefined,
    f.invalid === undefined ? undefined : eq(testRecords.invalid, f.invalid),
  );
}

const columns = {
  id: testRecords.id,
  orgId: testRecords.orgId,
  studentId: testRecords.studentId,
  name: students.name,
  regNo: students.regNo,
  gender: students.gender,
  gradeNo: grades.gradeNo,
  classId: testRecords.classId,
  className: classes.name,
  item: testRecords.item,
  raw: testRecords.raw,
  source: testRecords.source,
  deviceSn: testRecords.deviceSn,
  testedAt: testRecords.testedAt,
  invalid: testRecords.invalid,
  invalidAt: testRecords.invalidAt,
};

function recordQuery(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(columns)
    .from(testRecords)
    .innerJoin(students, eq(students.id, testRecords.studentId))
    .innerJoin(classes, eq(classes.id, testRecords.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(where);
}

type Selected = Awaited<ReturnType<typeof recordQuery>>[number];
const toRow = (r: Selected): TestRecordRow => ({
  ...r,
  gender: r.gender as Gender,
  item: r.item as ResultKey,
  testedAt: r.testedAt.toISOString(),
  invalidAt: isoInstant(r.invalidAt),
});

const ORDER = [desc(testRecords.testedAt), asc(testRecords.id)];

/** Test records of the caller's organisation(s), newest first (selfTest/testRecord). */
export async function recordPage(db: DbOrTx, caller: Caller, q: TestRecordFilter & PageQuery): Promise<Page<TestRecordRow>> {
  const where = recordFilter(caller, q);
  const [rows, [{ total }]] = await Promise.all([
    recordQuery(db, where)
      .orderBy(...ORDER)
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    db
      .select({ total: count() })
      .from(testRecords)
      .innerJoin(students, eq(students.id, testRecords.studentId))
      .innerJoin(classes, eq(classes.id, testRecords.classId))
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(where),
  ]);
  return { records: rows.map(toRow), total, current: q.current, size: q.size };
}

/** The filtered test records as an .xlsx. */
export async function exportRecords(db: DbOrTx, caller: Caller, f: TestRecordFilter, t: Translate, now: Date): Promise<{ workbook: Buffer; fileName: string }> {
  const rows = await recordQuery(db, recordFilter(caller, f))
    .orderBy(...ORDER)
    .limit(SCORE_EXPORT_MAX_ROWS + 1);
  if (rows.length > SCORE_EXPORT_MAX_ROWS) throw new AppError(400, 'physiqueResults:error.tooManyRows', { max: SCORE_EXPORT_MAX_ROWS });
  const label = (item: string) => t(item === 'heightCm' || item === 'weightKg' ? `physique:field.${item}` : `physique:item.${item}`);
  const source = { device: t('physiqueResults:record.sourceDevice'), self: t('physiqueResults:record.sourceSelf'), class: t('physiqueResults:record.sourceClass') };
  const fmt = new Intl.DateTimeFormat('sv-SE', { timeZone: ORG_TIME_ZONE, dateStyle: 'short', timeStyle: 'medium' });
  const header = ['name', 'regNo', 'className', 'gender', 'item', 'raw', 'source', 'deviceSn', 'testedAt'].map((k) => t(`physiqueResults:record.${k}`));
  header.push(t('physiqueResults:export.validity'));
  const data = rows.map((r) => [
    r.name,
    r.regNo,
    r.className,
    t(`physique:gender.${r.gender}`),
    label(r.item),
    formatRaw(r.item as ResultKey, r.raw, 'display'),
    source[r.source],
    r.deviceSn,
    fmt.format(r.testedAt),
    t(r.invalid ? 'physiqueResults:export.invalid' : 'physiqueResults:export.valid'),
  ]);
  const name = t('physiqueResults:export.recordFileName');
  const workbook = writeXlsx([{ name, rows: [header, ...data], columnWidths: [10, 22, 14, 6, 14, 10, 10, 16, 20, 8], textColumns: [1] }]);
  return { workbook, fileName: `${name}-${localDate(now).replace(/-/g, '')}.xlsx` };
}

/** Sets test records invalid or valid again (docs/product-rules.md#score-validity); who and when are kept on the record while it is invalid. */
export async function setRecordsInvalid(db: DbOrTx, caller: Caller, ids: readonly string[], invalid: boolean, now: Date): Promise<ChangedCount & { ids: string[] }> {
  const changed = await db
    .update(testRecords)
    .set(invalid ? { invalid: true, invalidAt: now, invalidBy: caller.userId } : { invalid: false, invalidAt: null, invalidBy: null })
    .where(
      and(
        inArray(testRecords.id, [...ids]),
        inTenant(testRecords.orgId, caller.family, caller.tenantOrgId),
        inClassScope(caller.classScope, testRecords.classId),
        eq(testRecords.invalid, !invalid),
      ),
    )
    .returning({ id: testRecords.id });
  return { changed: changed.length, ids: changed.map((c) => c.id) };
}
