import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { NATIONAL_COLUMNS, nationalCodeFromGrade, type NationalColumnKey } from '@/domain/physique/national-template';
import type { Gender, Grade } from '@/domain/physique/standard';
import { planItemsForGrade } from '@/domain/test-plans/items';
import { localDate } from '@/domain/dates';
import type { Db } from '../../../server/db/client';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, grades, schoolYears, students } from '../../../server/db/schema/school';
import { testPlanItems, testPlans, testPlanScopes } from '../../../server/db/schema/test-plans';
import { writeXlsx } from '../../../server/lib/spreadsheet/xlsx-writer';
import { gradeInYear } from '../../../server/modules/physique-results/physique-write';
import { nationalTemplateRows } from '../../support/national-template-fixture';

/** Ids of the demo organisations. */
export async function demoOrgs(db: Db): Promise<{ bureau: string; k12: string; uni: string }> {
  const rows = await db.select({ id: orgs.id, type: orgs.type }).from(orgs);
  const of = (type: number) => rows.find((o) => o.type === type)!.id;
  return { bureau: of(ORG_TYPE.management), k12: of(ORG_TYPE.k12), uni: of(ORG_TYPE.university) };
}

const DAY = 86_400_000;

export interface PlanOptions {
  /** Days from today to the first and last day (default −5 … +60: in progress). */
  startInDays?: number;
  endInDays?: number;
  endedAt?: Date | null;
  name?: string;
}

/** A test plan of the org's current school year covering all its grades, items defaulted (inserted directly). */
export async function createPlan(db: Db, orgId: string, opts: PlanOptions = {}): Promise<string> {
  const [year] = await db.select().from(schoolYears).where(and(eq(schoolYears.orgId, orgId), eq(schoolYears.current, true)));
  const now = Date.now();
  const id = randomUUID();
  await db.insert(testPlans).values({
    id,
    orgId,
    name: opts.name ?? '测试计划',
    schoolYearId: year.id,
    semesterCode: 13,
    startDate: localDate(new Date(now + (opts.startInDays ?? -5) * DAY)),
    endDate: localDate(new Date(now + (opts.endInDays ?? 60) * DAY)),
    endedAt: opts.endedAt ?? null,
    scopeType: 'grade',
  });
  const cohorts = await db.select().from(grades).where(eq(grades.orgId, orgId));
  await db.insert(testPlanScopes).values(cohorts.map((g) => ({ planId: id, gradeId: g.id })));
  const gradeNos = new Set<Grade>();
  for (const g of cohorts) {
    const n = gradeInYear(g.stage, g.enrolYear, year.startYear);
    if (n) gradeNos.add(n);
  }
  await db.insert(testPlanItems).values([...gradeNos].flatMap((g) => planItemsForGrade(g, '2014').map((item) => ({ planId: id, gradeNo: g, item }))));
  return id;
}

export interface FixtureStudent {
  id: string;
  name: string;
  regNo: string;
  gender: Gender;
  classId: string;
  className: string;
  classNo: string | null;
  grade: Grade;
}

/** Students of an organisation (current grades), `perGrade` from each of the given grades, in a stable order. */
export async function someStudents(db: Db, orgId: string, gradeNos: readonly Grade[], perGrade: number): Promise<FixtureStudent[]> {
  const rows = await db
    .select({
      id: students.id,
      name: students.name,
      regNo: students.regNo,
      gender: students.gender,
      classId: students.classId,
      className: classes.name,
      classNo: classes.classNo,
      gradeNo: grades.gradeNo,
    })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(eq(students.orgId, orgId))
    .orderBy(asc(grades.gradeNo), asc(students.regNo));
  const out: FixtureStudent[] = [];
  for (const g of gradeNos) out.push(...rows.filter((r) => r.gradeNo === g).slice(0, perGrade).map((r) => ({ ...r, grade: r.gradeNo as Grade })));
  return out;
}

const COL = new Map(NATIONAL_COLUMNS.map((c, i) => [c.key, i]));

/** Sets one cell of a national-template row by column key. */
export function setCell(row: unknown[], key: NationalColumnKey, value: unknown): void {
  row[COL.get(key)!] = value;
}
export function getCell(row: readonly unknown[], key: NationalColumnKey): unknown {
  return row[COL.get(key)!];
}

/**
 * National-template rows (header first) for real students: results drawn by TEMPLATE's fixture for the student's
 * grade and gender, identity columns replaced by the student's own.
 */
export function templateFor(list: readonly FixtureStudent[], seed = 7): unknown[][] {
  const pools = new Map<string, unknown[][]>();
  const header = NATIONAL_COLUMNS.map((c) => c.header) as unknown[];
  const rows: unknown[][] = [header];
  for (const s of list) {
    const key = `${s.grade}:${s.gender}`;
    let pool = pools.get(key);
    if (!pool || pool.length === 0) {
      const genderCode = s.gender === 'male' ? 1 : 2;
      pool = nationalTemplateRows({ rows: 200, invalidShare: 0, seed: seed + s.grade * 31 + genderCode + rows.length, grades: [s.grade] }).rows
        .slice(1)
        .filter((r) => getCell(r, 'gender') === genderCode);
      pools.set(key, pool);
    }
    const row = [...pool.pop()!];
    setCell(row, 'gradeNo', nationalCodeFromGrade(s.grade));
    setCell(row, 'classNo', s.classNo ?? 'x');
    setCell(row, 'className', s.className);
    setCell(row, 'regNo', s.regNo);
    setCell(row, 'name', s.name);
    rows.push(row);
  }
  return rows;
}

export const xlsxOf = (rows: readonly (readonly unknown[])[]) => writeXlsx([{ name: '体测成绩', rows }]);

/** A multipart/form-data body with one file field, as the browser's upload sends it. */
export function multipartBody(file: Buffer, fileName: string, field = 'file'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----tiyu${randomUUID().replace(/-/g, '')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, file, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Makes every write of a result for `studentId` fail inside the database (a crash mid-way of a bulk write). */
export async function failWritesFor(db: Db, studentId: string): Promise<() => Promise<void>> {
  await db.execute(
    sql.raw(`create or replace function tiyu_test_fail() returns trigger language plpgsql as $$
      begin if new.student_id = '${studentId}' then raise exception 'simulated crash'; end if; return new; end $$`),
  );
  await db.execute(sql.raw('create trigger tiyu_test_fail before insert or update on physique_results for each row execute function tiyu_test_fail()'));
  // Fires in every replication mode, as a crash would (the import writes in replica mode where it may).
  await db.execute(sql.raw('alter table physique_results enable always trigger tiyu_test_fail'));
  return async () => {
    await db.execute(sql.raw('drop trigger tiyu_test_fail on physique_results'));
  };
}
