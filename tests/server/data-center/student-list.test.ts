import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { StudentListPage } from '@/domain/data-center/types';
import { users } from '../../../server/db/schema/auth';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, students, teacherClasses, teachers } from '../../../server/db/schema/school';
import { createTestApp, type TestApp } from '../../support/server-app';

/**
 * The data centre's student list pages by key (studentPage in server/modules/data-center/data-center.service.ts: the
 * class roster's counts name the page's (grade, class code) groups, and only their classes are read). Its pages must
 * be exactly what counting and sorting every matching student gives: this reference is that statement, run here over
 * the raw tables, for a school, a teacher with the 'classes' data scope, a district (class codes tied across its
 * schools) and one school of the district, under several filters, page sizes and pages. Students with no student
 * number, with the same number, disabled, moved to another class and of a graduated cohort are among them.
 */

let t: TestApp;
const tokens: Record<string, string> = {};
let k12Id: string;
let bureauId: string;
let mine: string[];

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['school01', 'myclass01', 'district01']) tokens[account] = (await t.login(account)).access_token;
  k12Id = (await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).orderBy(orgs.code))[0].id;
  [{ org_id: bureauId }] = (
    await t.db.execute<{ org_id: string }>(sql`select m.org_id from memberships m join ${users} u on u.id = m.user_id where u.account_num = 'district01'`)
  ).rows;
  const [{ id: teacherId }] = await t.db.select({ id: teachers.id }).from(teachers).innerJoin(users, eq(users.id, teachers.userId)).where(eq(users.accountNum, 'myclass01'));
  mine = (await t.db.select({ id: teacherClasses.classId }).from(teacherClasses).where(eq(teacherClasses.teacherId, teacherId))).map((r) => r.id);
  // The order's ties and gaps: in each of the teacher's classes, some students lose their number, two share one, one
  // is disabled; a student of another class moves into the first (the roster's triggers follow every write).
  for (const classId of mine) {
    const list = await t.db.select({ id: students.id }).from(students).where(eq(students.classId, classId)).orderBy(students.regNo);
    expect(list.length).toBeGreaterThan(6);
    await t.db.update(students).set({ studentNo: null }).where(inArray(students.id, [list[0].id, list[3].id]));
    await t.db.update(students).set({ studentNo: '000001' }).where(inArray(students.id, [list[1].id, list[2].id]));
    await t.db.update(students).set({ enabled: false }).where(eq(students.id, list[4].id));
  }
  const [mover] = await t.db
    .select({ id: students.id })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(and(eq(students.orgId, k12Id), sql`${students.classId} not in (${sql.join(mine.map((id) => sql`${id}::uuid`), sql`, `)})`))
    .limit(1);
  await t.db.update(students).set({ classId: mine[0] }).where(eq(students.id, mover.id));
});
afterAll(async () => {
  await t?.close();
});

interface Scope {
  account: string;
  path: string;
  /** The organisations whose students are listed (a bureau's whole tree), and the classes of a limited data scope. */
  orgIds: () => Promise<string[]>;
  classIds?: () => string[];
  query?: () => string;
}

const subtree = async (orgId: string) =>
  (await t.db.execute<{ id: string }>(sql`with recursive o(id) as (select ${orgId}::uuid union all select x.id from orgs x join o on x.parent_id = o.id) select id from o`)).rows.map(
    (r) => r.id,
  );

const SCOPES: Scope[] = [
  { account: 'school01', path: 'k12/dataCenter/student', orgIds: async () => [k12Id] },
  { account: 'myclass01', path: 'k12/dataCenter/student', orgIds: async () => [k12Id], classIds: () => mine },
  { account: 'district01', path: 'admin/dataCenter/student', orgIds: () => subtree(bureauId) },
  { account: 'district01', path: 'admin/dataCenter/student', orgIds: async () => [k12Id], query: () => `orgId=${k12Id}` },
];

interface Filter {
  gender?: string;
  gradeNo?: number;
  classId?: string;
  keyword?: string;
}

/** Every matching student in the list's order, counted and sorted over the rows (the list's statement before paging by key). */
async function reference(orgIds: string[], classIds: string[] | undefined, f: Filter): Promise<string[]> {
  const conds = [sql`s.org_id in (${sql.join(orgIds.map((id) => sql`${id}::uuid`), sql`, `)})`, sql`s.enabled`, sql`not g.graduated`];
  if (classIds) conds.push(sql`s.class_id in (${sql.join(classIds.map((id) => sql`${id}::uuid`), sql`, `)})`);
  if (f.classId) conds.push(sql`s.class_id = ${f.classId}::uuid`);
  if (f.gender) conds.push(sql`s.gender = ${f.gender}`);
  if (f.gradeNo !== undefined) conds.push(sql`g.grade_no = ${f.gradeNo}`);
  if (f.keyword) conds.push(sql`(s.name ilike ${`%${f.keyword}%`} or s.reg_no ilike ${`%${f.keyword}%`} or s.student_no ilike ${`%${f.keyword}%`})`);
  const list = await t.db.execute<{ id: string }>(
    sql`select s.id from students s join classes c on c.id = s.class_id join grades g on g.id = c.grade_id where ${sql.join(conds, sql` and `)}
order by g.grade_no, c.code, s.student_no nulls last, s.reg_no, s.id`,
  );
  return list.rows.map((r) => r.id);
}

async function page(scope: Scope, f: Filter, current: number, size: number): Promise<StudentListPage> {
  const params = new URLSearchParams({ current: String(current), size: String(size) });
  for (const [k, v] of Object.entries(f)) if (v !== undefined) params.set(k, String(v));
  const extra = scope.query?.();
  const res = await t.request({ url: `/api/busi/web/${scope.path}?${params}${extra ? `&${extra}` : ''}`, token: tokens[scope.account] });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.json<Envelope<StudentListPage>>().data;
}

describe('data-centre student list pages by key', () => {
  it.each(SCOPES.map((s, i) => [`${s.account}${s.query ? ' (one school)' : ''}${s.classIds ? ' (classes scope)' : ''}`, i] as const))(
    'equals counting and sorting every student: %s',
    async (_name, i) => {
      const scope = SCOPES[i];
      const orgIds = await scope.orgIds();
      const classIds = scope.classIds?.();
      const some = await reference(orgIds, classIds, {});
      expect(some.length).toBeGreaterThan(40);
      const [{ class_id: oneClass, grade_no: oneGrade }] = (
        await t.db.execute<{ class_id: string; grade_no: number }>(
          sql`select s.class_id, g.grade_no from students s join classes c on c.id = s.class_id join grades g on g.id = c.grade_id where s.id = ${some[Math.floor(some.length / 2)]}::uuid`,
        )
      ).rows;
      const filters: Filter[] = [{}, { gender: 'female' }, { gradeNo: Number(oneGrade) }, { gradeNo: Number(oneGrade), gender: 'male' }, { classId: oneClass }, { keyword: '1' }, { gradeNo: 16 }];
      for (const f of filters) {
        const all = await reference(orgIds, classIds, f);
        for (const size of [10, 80]) {
          const last = Math.max(1, Math.ceil(all.length / size));
          for (const current of [...new Set([1, 2, Math.ceil(last / 2), last, last + 1])]) {
            const got = await page(scope, f, current, size);
            const label = `${JSON.stringify(f)} page ${current} of size ${size}`;
            expect(got.total, label).toBe(all.length);
            expect(
              got.records.map((r) => r.studentId),
              label,
            ).toEqual(all.slice((current - 1) * size, current * size));
          }
        }
      }
    },
    120_000,
  );

  // PGlite runs in this process as one backend, so its table statistics can be flushed and read around one request;
  // on PostgreSQL the pool's backends flush theirs on their own timer.
  it.skipIf(!!process.env.DATABASE_URL)("a district's first page reads its page's classes by key, not every student", async () => {
    const read = async () => {
      await t.db.execute(sql`select pg_stat_force_next_flush()`);
      await t.db.execute(sql`select 1`);
      const [row] = (
        await t.db.execute<{ n: number }>(sql`select (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int as n from pg_stat_user_tables where relname = 'students'`)
      ).rows;
      return Number(row.n);
    };
    const scope = SCOPES[2];
    const all = await reference(await scope.orgIds(), undefined, {});
    const before = await read();
    const got = await page(scope, { keyword: undefined }, 1, 20);
    const rowsRead = (await read()) - before;
    expect(got.records.map((r) => r.studentId)).toEqual(all.slice(0, 20));
    expect(rowsRead).toBeLessThan(all.length / 4);
  });
});
