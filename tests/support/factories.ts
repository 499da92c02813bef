/**
 * Test factories (the shape of outline's server/test/factories.ts): each builds what a test needs through the routes
 * the product uses, as an account of the demo seed, and answers the new row's ids and the account to act as. Values
 * are unique per call, so tests can build as many as they need on one app.
 */
import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { defaultSchoolYear } from '@/domain/school/school-years';
import { memberships, users } from '../../server/db/schema/auth';
import { orgs } from '../../server/db/schema/orgs';
import type { AsAnswer, TestApp } from './server-app';
import type { SchoolFamily } from '@/domain/menus/access';

let serial = 0;
/** A number unique in this test process (codes, serial numbers, names). */
export const nextSerial = () => ++serial;

/** The demo accounts by what they administer (README): the K12 school, the second school, the university, the district. */
export const DEMO = { school: 'school01', school2: 'school02', college: 'college01', district: 'district01', teacher: 'teacher01' } as const;

/** The answer's data, after checking the call succeeded (the message says what the server refused otherwise). */
export function dataOf<T>(answer: AsAnswer<T>, status = 200): T {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body.data;
}

export interface OrgOf {
  orgId: string;
  orgType: number;
  name: string;
  /** The account that administers it. */
  account: string;
}

/** The organisation an account acts in (its first membership), instead of looking org ids up by hand. */
export async function orgOf(t: TestApp, account: string): Promise<OrgOf> {
  const [row] = await t.db
    .select({ orgId: orgs.id, orgType: orgs.type, name: orgs.name })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(orgs, eq(orgs.id, memberships.orgId))
    .where(eq(users.accountNum, account))
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  if (!row) throw new Error(`${account} has no organisation`);
  return { ...row, account };
}

const familyOf = (account: string): SchoolFamily => (account.startsWith('college') ? 'gx' : 'k12');
const api = (family: SchoolFamily, path: string) => `/api/busi/web/${family}/${path}`;

/** A school year (both semesters and breaks at the default dates) starting in `startYear` (default: far in the future). */
export async function createSchoolYear(t: TestApp, { as = DEMO.school as string, startYear = 2060 + nextSerial() } = {}) {
  const body = defaultSchoolYear(startYear);
  const year = dataOf(await t.as(as).post<{ id: string; version: number }>(api(familyOf(as), 'org/acayear'), body));
  return { id: year.id, version: year.version, academicYear: body.academicYear, as };
}

/**
 * A K12 grade; pass `stage`/`enrolYear`/`graduated` when the test needs a given cohort. The grade follows from the
 * stage and enrolment year (docs/product-rules.md#grades), and a school has one cohort of a grade in school, so by
 * default this is a graduated senior cohort of an early year: as many as a test needs, none clashing with the demo's.
 */
export async function createGrade(t: TestApp, { as = DEMO.school as string, stage = 'senior', enrolYear = 2000 + nextSerial(), graduated = true } = {}) {
  const grade = dataOf(await t.as(as).post<{ id: string; version: number }>(api('k12', 'org/grade'), { stage, enrolYear, graduated }));
  return { id: grade.id, version: grade.version, as };
}

/** A class of a grade (a new grade unless `gradeId` is given). */
export async function createClass(t: TestApp, { as = DEMO.school as string, gradeId, name }: { as?: string; gradeId?: string; name?: string } = {}) {
  const grade = gradeId ?? (await createGrade(t, { as })).id;
  const n = nextSerial();
  const made = dataOf(await t.as(as).post<{ id: string; version: number }>(api(familyOf(as), 'org/class'), { gradeId: grade, code: 50 + (n % 49), name: name ?? `测试${n}班` }));
  return { id: made.id, version: made.version, gradeId: grade, as };
}

/** A university college (and the account acting for it). */
export async function createCollege(t: TestApp, { as = DEMO.college as string } = {}) {
  const n = nextSerial();
  const college = dataOf(await t.as(as).post<{ id: string; version: number }>(api('gx', 'org/college'), { name: `测试学院${n}`, code: String(10 + (n % 89)) }));
  return { id: college.id, version: college.version, as };
}

/** A major of a college (a new college unless `collegeId` is given). */
export async function createMajor(t: TestApp, { as = DEMO.college as string, collegeId }: { as?: string; collegeId?: string } = {}) {
  const college = collegeId ?? (await createCollege(t, { as })).id;
  const n = nextSerial();
  const major = dataOf(await t.as(as).post<{ id: string; version: number }>(api('gx', 'org/major'), { collegeId: college, name: `测试专业${n}`, code: String(10 + (n % 89)), schoolLength: 4 }));
  return { id: major.id, version: major.version, collegeId: college, as };
}

/** A device of the school (offline-capable smart device, not activated). */
export async function createDevice(t: TestApp, { as = DEMO.school, ...extra }: { as?: string } & Record<string, unknown> = {}) {
  const device = dataOf(
    await t.as(as).post<{ id: string; version: number; serialNo: string }>(api(familyOf(as), 'device'), {
      name: '测试设备',
      serialNo: `FACTORY-${nextSerial()}`,
      status: 'online',
      activated: false,
      ...extra,
    }),
  );
  return { id: device.id, version: device.version, serialNo: device.serialNo, as };
}

/** A wiki article of the school (a draft unless `published`). */
export async function createWiki(t: TestApp, { as = DEMO.school as string, published = false } = {}) {
  const n = nextSerial();
  const wiki = dataOf(
    await t.as(as).post<{ id: string; version: number }>(api(familyOf(as), 'wikiManagement/schoolWiki'), { title: `测试百科${n}`, category: 'rules', content: '<p>测试</p>', published }),
  );
  return { id: wiki.id, version: wiki.version, as };
}
