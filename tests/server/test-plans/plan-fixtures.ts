import { and, asc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Envelope } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { PlanRequestInput } from '@/domain/test-plans/schemas';
import { localDate } from '@/domain/dates';
import { orgs } from '../../../server/db/schema/orgs';
import { classes, colleges, grades, schoolYears } from '../../../server/db/schema/school';
import { planJobs } from '../../../server/db/schema/test-plans';
import { holdJob, PROCESS_HOLDER_ID } from '../../../server/modules/test-plans/plan-job-holder';
import type { TestApp } from '../../support/server-app';
import type { Family } from '@/domain/menus/access';

/** Ids of the demo organisations and a few of their rows, read from the seeded test database. */
export interface DemoIds {
  bureauId: string;
  k12Id: string;
  uniId: string;
  k12Year: string;
  uniYear: string;
  k12Grades: { id: string; gradeNo: number }[];
  k12Classes: { id: string; gradeNo: number; name: string }[];
  uniColleges: string[];
  uniClasses: string[];
}

export async function demoIds(t: TestApp): Promise<DemoIds> {
  const rows = await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs);
  const of = (type: number) => rows.find((o) => o.type === type)!.id;
  const bureauId = of(ORG_TYPE.management);
  const k12Id = of(ORG_TYPE.k12);
  const uniId = of(ORG_TYPE.university);
  const currentYear = async (orgId: string) =>
    (await t.db.select({ id: schoolYears.id }).from(schoolYears).where(and(eq(schoolYears.orgId, orgId), eq(schoolYears.current, true))))[0].id;
  const k12Grades = await t.db.select({ id: grades.id, gradeNo: grades.gradeNo }).from(grades).where(eq(grades.orgId, k12Id)).orderBy(asc(grades.gradeNo));
  const k12Classes = await t.db
    .select({ id: classes.id, gradeNo: grades.gradeNo, name: classes.name })
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(eq(classes.orgId, k12Id))
    .orderBy(asc(grades.gradeNo), asc(classes.code));
  const uniColleges = (await t.db.select({ id: colleges.id }).from(colleges).where(eq(colleges.orgId, uniId)).orderBy(asc(colleges.code))).map((r) => r.id);
  const uniClasses = (await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, uniId))).map((r) => r.id);
  return { bureauId, k12Id, uniId, k12Year: await currentYear(k12Id), uniYear: await currentYear(uniId), k12Grades, k12Classes, uniColleges, uniClasses };
}

/** The day `offset` days from the clock's today, in the organisations' local date. */
export function day(t: TestApp, offset = 0): string {
  return localDate(new Date(t.clock.now().getTime() + offset * 86_400_000));
}

export const data = <T>(res: LightMyRequestResponse): T => res.json<Envelope<T>>().data;
export const msg = (res: LightMyRequestResponse): string => res.json<Envelope<unknown>>().msg;

/** A valid K12 plan body over two grades, running today. */
export function k12Plan(t: TestApp, ids: DemoIds, over: Partial<PlanRequestInput> = {}): PlanRequestInput {
  return {
    name: '2026秋季体质测试',
    schoolYearId: ids.k12Year,
    semesterCode: 13,
    startDate: day(t, -1),
    endDate: day(t, 10),
    scopeType: 'grade',
    scopeIds: [ids.k12Grades.find((g) => g.gradeNo === 7)!.id, ids.k12Grades.find((g) => g.gradeNo === 8)!.id],
    feeAmount: 12.5,
    feePrecision: 2,
    feeRounding: 'round',
    ...over,
  };
}

/** A small client for one family's testManage routes, signed in as `account`. */
export function planClient(t: TestApp, family: Family, token: () => string) {
  const base = `/api/busi/web/${family}/organizeTest/testManage`;
  const headers = (lang?: string) => (lang ? { 'accept-language': lang } : {});
  return {
    get: (path: string, lang?: string) => t.request({ url: `${base}/${path}`, token: token(), headers: headers(lang) }),
    post: (path: string, payload?: object, lang?: string) =>
      t.request({ method: 'POST', url: `${base}/${path}`, token: token(), headers: headers(lang), ...(payload ? { payload } : {}) }),
  };
}

/**
 * A job row this test process holds as running (what startPlanJob writes), for tests that need a plan busy without
 * going through an import or sync. A bare 'running' row counts as left over by a dead process.
 */
export async function liveJob(db: TestApp['db'], values: Omit<typeof planJobs.$inferInsert, 'holderId'>) {
  const [job] = await db
    .insert(planJobs)
    .values({ ...values, holderId: PROCESS_HOLDER_ID })
    .returning();
  holdJob(job.id);
  return job;
}
