/**
 * Test factories (the shape of outline's server/test/factories.ts): each builds what a test needs through the routes
 * the product uses, as an account of the demo seed, and answers the new row's ids and the account to act as. Values
 * are unique per call, so tests can build as many as they need on one app.
 */
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { expect } from 'vitest';
import { localDate } from '@/domain/dates';
import type { MeetDetail, MeetForm } from '@/domain/meets/meets';
import type { StaffFormOptions, StaffRow } from '@/domain/people/staff';
import type { StudentFormOptions, StudentRecord } from '@/domain/people/students';
import type { Gender, Grade } from '@/domain/physique/standard';
import { defaultSchoolYear } from '@/domain/school/school-years';
import type { PlanFormOptions } from '@/domain/test-plans/types';
import { memberships, users } from '../../server/db/schema/auth';
import { orgs } from '../../server/db/schema/orgs';
import { sha256Hex } from '../../server/lib/password';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { multipartBody, templateFor, xlsxOf, type FixtureStudent } from '../server/physique-results/physique-fixtures';
import { importJob } from './jobs';
import type { AsAnswer, TestApp } from './server-app';
import type { SchoolFamily } from '@/domain/menus/access';

let serial = 0;
/** A number unique in this test process (codes, serial numbers, names). */
/**
 * A plan's school year (its start year) for a physique result written straight into the table: the partition key every
 * writer sets (docs/decisions/064-partitions-by-school-year.md).
 */
export const planSchoolYear = (planId: string): SQL<number> =>
  sql<number>`(select y.start_year from test_plans p join school_years y on y.id = p.school_year_id where p.id = ${planId})`;

export const nextSerial = () => ++serial;

/**
 * Years are few (grades 2000–2100, the demo's cohorts among them) and the server project runs files in one process
 * (vite.config.ts, isolate: false), so a year comes from a count kept per test database, not from `nextSerial`.
 */
const yearCounts = new WeakMap<TestApp, Map<string, number>>();
function nextYearIndex(t: TestApp, kind: string): number {
  const counts = yearCounts.get(t) ?? new Map<string, number>();
  yearCounts.set(t, counts);
  const n = counts.get(kind) ?? 0;
  counts.set(kind, n + 1);
  return n;
}

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
export async function createSchoolYear(t: TestApp, { as = DEMO.school as string, startYear = 2060 + nextYearIndex(t, `year:${as}`) } = {}) {
  const body = defaultSchoolYear(startYear);
  const year = dataOf(await t.as(as).post<{ id: string; version: number }>(api(familyOf(as), 'org/acayear'), body));
  return { id: year.id, version: year.version, academicYear: body.academicYear, as };
}

/**
 * A K12 grade; pass `stage`/`enrolYear`/`graduated` when the test needs a given cohort. The grade follows from the
 * stage and enrolment year (docs/product-rules.md#grades), and a school has one cohort of a grade in school, so by
 * default this is a graduated senior cohort of an early year: as many as a test needs, none clashing with the demo's.
 */
export async function createGrade(t: TestApp, { as = DEMO.school as string, stage = 'senior', enrolYear = -1, graduated = true } = {}) {
  // Graduated cohorts of the early 2000s: 24 per stage before the demo's current cohorts.
  if (enrolYear < 0) enrolYear = 2000 + nextYearIndex(t, `grade:${as}:${stage}`);
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

/** The day `offset` days from the test clock's today, in the organisations' local date (docs/product-rules.md#dates). */
const localDay = (t: TestApp, offset = 0) => localDate(new Date(t.clock.now().getTime() + offset * 86_400_000));

/** A current (not graduated) grade of the school by grade number (default 7), as the student form offers it. */
export async function currentGrade(t: TestApp, { as = DEMO.school as string, gradeNo = 7 } = {}) {
  const options = dataOf(await t.as(as).get<StudentFormOptions>(api(familyOf(as), 'user/student/options')));
  const grade = options.grades.find((g) => g.gradeNo === gradeNo);
  if (!grade) throw new Error(`${as} has no grade ${gradeNo} in school`);
  return grade;
}

/** A student (studying, a unique registration number) of a class: a new class of a current grade unless `classId` is given. */
export async function createStudent(
  t: TestApp,
  { as = DEMO.school as string, classId, gender = 'male', ...over }: { as?: string; classId?: string; gender?: Gender } & Record<string, unknown> = {},
) {
  const cls = classId ?? (await createClass(t, { as, gradeId: (await currentGrade(t, { as })).id })).id;
  const n = nextSerial();
  const student = dataOf(
    await t.as(as).post<StudentRecord>(api(familyOf(as), 'user/student'), {
      name: `测试学生${n}`,
      regNo: `F${Date.now()}${n}`,
      studentNo: '',
      classId: cls,
      gender,
      birthDate: '2013-05-01',
      ethnicity: '01',
      status: 'studying',
      photoFileId: '',
      parents: [],
      newParents: [],
      ...over,
    }),
  );
  return { id: student.id, version: student.version, name: student.name, regNo: student.regNo, gender: student.gender, classId: cls, as };
}

/**
 * A staff member with a sign-in account holding the school's role named `role` (default the PE teacher's), teaching
 * `classIds`. The first password is changed at first sign-in (docs/product-rules.md#users), here to the demo
 * password, so `t.as(staff.accountNum)` acts as them.
 */
const FIRST_PASSWORD = 'Start123';

export async function createStaff(t: TestApp, { as = DEMO.school as string, role = '体育教师', classIds = [] as string[] } = {}) {
  const family = familyOf(as);
  const options = dataOf(await t.as(as).get<StaffFormOptions>(api(family, 'user/teacher/options')));
  const roleId = options.roles.find((r) => r.name === role)?.id;
  if (!roleId) throw new Error(`${as} has no role ${role}`);
  const n = nextSerial();
  const staff = dataOf(
    await t.as(as).post<StaffRow>(api(family, 'user/teacher'), {
      name: `测试老师${n}`,
      accountNum: `factory${Date.now().toString(36)}${n}`.slice(0, 20),
      password: FIRST_PASSWORD,
      roleId,
      mobile: '',
      gender: 'female',
      workNo: '',
      idCard: '',
      certificateType: '',
      certificateNo: '',
      photoFileId: '',
      taughtClasses: classIds.map((classId) => ({ classId, subject: 'pe' })),
    }),
  );
  const first = await t.login(staff.accountNum!, FIRST_PASSWORD);
  const changed = await t.request({
    method: 'POST',
    url: '/api/busi/web/myInfo/editAccount',
    token: first.access_token,
    payload: { oldPassword: sha256Hex(FIRST_PASSWORD), newPassword: DEMO_PASSWORD },
  });
  expect(changed.statusCode, changed.body).toBe(200);
  return { id: staff.id, version: staff.version, accountNum: staff.accountNum!, roleId, as };
}

/**
 * A K12 test plan in progress (yesterday to ten days on) over one new class of a current grade with `students` new
 * students, of whom the first `results` have physique results imported through the plan's score import (a job: the
 * test app needs `jobWorker: true`).
 */
export async function createTestPlan(t: TestApp, { as = DEMO.school as string, gradeNo = 7, students = 3, results = 2 } = {}) {
  const me = t.as(as);
  const base = '/api/busi/web/k12/organizeTest/testManage';
  const options = dataOf(await me.get<PlanFormOptions>(`${base}/options`));
  const year = options.schoolYears.find((y) => y.current)!;
  const gradeId = (await currentGrade(t, { as, gradeNo })).id;
  const className = `测试${nextSerial()}班`;
  const cls = await createClass(t, { as, gradeId, name: className });
  const made = [];
  for (let i = 0; i < students; i++) made.push(await createStudent(t, { as, classId: cls.id, gender: i % 2 ? 'female' : 'male' }));
  const plan = dataOf(
    await me.post<{ id: string; version: number }>(`${base}/add`, {
      name: `测试计划${nextSerial()}`,
      schoolYearId: year.id,
      semesterCode: 13,
      startDate: localDay(t, -1),
      endDate: localDay(t, 10),
      scopeType: 'class',
      scopeIds: [cls.id],
    }),
  );
  if (results > 0) {
    const tested: FixtureStudent[] = made
      .slice(0, results)
      .map((s) => ({ id: s.id, name: s.name, regNo: s.regNo, gender: s.gender, classId: cls.id, className, classNo: null, grade: gradeNo as Grade }));
    const upload = multipartBody(xlsxOf(templateFor(tested)), 'scores.xlsx');
    // The import runs as a job (docs/product-rules.md#jobs): its outcome is waited for.
    const start = await me.post(`${base}/import/${plan.id}`, upload.payload, { headers: upload.headers });
    const outcome = await importJob(t, await me.token(), start.res);
    expect(outcome.statusCode, outcome.body).toBe(200);
    expect(outcome.headers['x-import-success']).toBe(String(results));
  }
  return { id: plan.id, version: plan.version, classId: cls.id, gradeId, students: made, tested: made.slice(0, results), as };
}

/**
 * A meet in sign-up (sign-up yesterday to tomorrow, the meet the two days after) with one boys' group of a 100 m
 * (heats) and a long jump, and `entries` new boys entered in the 100 m, each of their own new class (a class may
 * enter two athletes per event).
 */
export async function createMeet(t: TestApp, { as = DEMO.school as string, entries = 2, ...over }: { as?: string; entries?: number } & Partial<MeetForm> = {}) {
  const me = t.as(as);
  const base = api(familyOf(as), 'sportsMeet');
  const form: MeetForm = {
    name: `测试运动会${nextSerial()}`,
    signupStart: localDay(t, -1),
    signupEnd: localDay(t, 1),
    startDate: localDay(t, 2),
    endDate: localDay(t, 3),
    athleteCap: 2,
    groups: [
      {
        name: '男子组',
        gender: 'male',
        bibStart: 1001,
        gradeIds: [],
        events: [
          { name: '100米', type: 'track', resultKind: 'time', lanes: 8, heatSize: 8, classCap: 2 },
          { name: '跳远', type: 'field', resultKind: 'distance', lanes: 0, heatSize: 12, classCap: 2 },
        ],
      },
    ],
    ...over,
  };
  const meet = dataOf(await me.post<MeetDetail>(base, form));
  const run = meet.groups[0].events[0];
  const athletes = [];
  for (let i = 0; i < entries; i++) {
    const student = await createStudent(t, { as, gender: 'male' });
    dataOf(await me.post(`${base}/${meet.id}/entries`, { studentId: student.id, eventIds: [run.id] }));
    athletes.push(student);
  }
  return { id: meet.id, version: meet.version, meet, athletes, as };
}
