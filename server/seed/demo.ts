import { setOperatorTwoFactorRequired } from '../modules/security/two-factor.service';
import { count, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { ORG_TYPE, SEMESTER } from '@/domain/constants';
import { localDate } from '@/domain/dates';
import { CATALOG, getCatalogEntry } from '@/domain/menus/catalog';
import { menuEntriesForGrant, toMenuEntries, type RoleGrant } from '@/domain/menus/menu-entries';
import type { Family } from '@/domain/menus/access';
import { DISTRICT_RESEARCHER, ROLE_TEMPLATES, type TemplateIdentity } from '@/domain/menus/role-templates';
import { MOBILE_FUNCTIONS, type MobileFunction } from '@/domain/roles/roles';
import { hashPassword, sha256Hex } from '../lib/password';
import type { DbOrTx } from '../db/client';
import { departmentMembers, departments } from '../db/schema/departments';
import { orgs } from '../db/schema/orgs';
import { memberships, membershipRoles, roleMenus, roles, users } from '../db/schema/auth';
import {
  classes,
  colleges,
  grades,
  majors,
  parents,
  parentStudents,
  schoolYears,
  semesters,
  students,
  teacherClasses,
  teachers,
} from '../db/schema/school';
import { syncMenus } from '../modules/menus/menu-sync';
import { badgeIcon, loginImage } from './branding';
import { seedPhysiqueDemo } from './physique-demo';
import { seedConversionDemo } from './conversion-demo';
import { seedRetestDemo } from './retest-demo';
import { seedMeetDemo } from './meet-demo';
import { seedVenueDemo } from './venue-demo';
import { seedContestsDemo } from './contests-demo';
import { seedContentDemo } from './content-demo';
import { seedExemptionDemo } from './exemption-demo';
import { seedHomeworkDemo } from './homework-demo';
import { seedGraduationDemo } from './graduation-demo';
import { seedWarningsDemo } from './warnings-demo';
import { seedTestDayDemo } from './test-day-demo';
import { seedTrainingDemo } from './training-demo';
import { seedAppDemo } from './app-demo';
import { seedParentReportsDemo } from './parent-reports-demo';
import { seedLessonLoadDemo } from './lesson-load-demo';
import { seedConsentDemo } from './consent-demo';
import {
  createRandom,
  JIANGNING,
  NANJING_DISTRICTS,
  PROVINCE_REGIONS,
  randomDate,
  randomEthnicity,
  randomIdNumber,
  randomMobile,
  randomName,
  randomSurname,
  type Gender,
  type Random,
} from './people';
import { DEMO_PASSWORD } from './demo-accounts';

// The accounts live apart so a server start prints them without loading the seed (server/main.ts).
export { DEMO_ACCOUNTS, DEMO_PASSWORD, type DemoAccount } from './demo-accounts';

/**
 * The demo runs in school year 2026-2027, autumn semester (the project's "today" is 2026-11-23).
 * Fixed rather than read from the clock so the seeded database is the same on every run.
 */
export const DEMO_CURRENT_START_YEAR = 2026;
/** The demo's "today" (YYYY-MM-DD): the in-progress test plan has results and device records up to this day. */
export const DEMO_TODAY = '2026-11-23';
const SEED = 20_261_123;
const CHUNK = 1000;
/** Serialises seeding when several server instances start on one empty PostgreSQL. */
const SEED_LOCK_KEY = 7_461_302_027;

type Insert<T extends PgTable> = T['$inferInsert'];

async function insertChunks<T extends PgTable>(db: DbOrTx, table: T, rows: readonly Insert<T>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.insert(table).values(rows.slice(i, i + CHUNK) as Insert<T>[]);
  }
}

const two = (n: number): string => String(n).padStart(2, '0');

// ---------------------------------------------------------------------------------------------
// Builders: plain rows with ids chosen up front, so everything is inserted in a few statements.
// ---------------------------------------------------------------------------------------------

interface Ctx {
  rnd: Random;
  mobiles: Set<string>;
  idNumbers: Set<string>;
  passwordHash: string;
  rows: {
    orgs: Insert<typeof orgs>[];
    schoolYears: Insert<typeof schoolYears>[];
    semesters: Insert<typeof semesters>[];
    grades: Insert<typeof grades>[];
    colleges: Insert<typeof colleges>[];
    majors: Insert<typeof majors>[];
    classes: Insert<typeof classes>[];
    students: Insert<typeof students>[];
    parents: Insert<typeof parents>[];
    parentStudents: Insert<typeof parentStudents>[];
    roles: Insert<typeof roles>[];
    roleMenus: Insert<typeof roleMenus>[];
    users: Insert<typeof users>[];
    memberships: Insert<typeof memberships>[];
    membershipRoles: Insert<typeof membershipRoles>[];
    teachers: Insert<typeof teachers>[];
    teacherClasses: Insert<typeof teacherClasses>[];
    departments: Insert<typeof departments>[];
    departmentMembers: Insert<typeof departmentMembers>[];
  };
}

const emptyRows = (): Ctx['rows'] => ({
  orgs: [],
  schoolYears: [],
  semesters: [],
  grades: [],
  colleges: [],
  majors: [],
  classes: [],
  students: [],
  parents: [],
  parentStudents: [],
  roles: [],
  roleMenus: [],
  users: [],
  memberships: [],
  membershipRoles: [],
  teachers: [],
  teacherClasses: [],
  departments: [],
  departmentMembers: [],
});

/** School years 2024-2025 … 2026-2027 with autumn (13) and spring (11) semesters and the breaks after them. */
function addSchoolYears(ctx: Ctx, orgId: string): void {
  for (let y = DEMO_CURRENT_START_YEAR - 2; y <= DEMO_CURRENT_START_YEAR; y++) {
    const current = y === DEMO_CURRENT_START_YEAR;
    const yearId = ctx.rnd.uuid();
    ctx.rows.schoolYears.push({ id: yearId, orgId, academicYear: `${y}-${y + 1}`, startYear: y, current });
    ctx.rows.semesters.push(
      {
        id: ctx.rnd.uuid(),
        orgId,
        schoolYearId: yearId,
        code: SEMESTER.autumn,
        startDate: `${y}-09-01`,
        endDate: `${y + 1}-01-22`,
        breakStart: `${y + 1}-01-23`,
        breakEnd: `${y + 1}-02-22`,
        current,
      },
      {
        id: ctx.rnd.uuid(),
        orgId,
        schoolYearId: yearId,
        code: SEMESTER.spring,
        startDate: `${y + 1}-02-23`,
        endDate: `${y + 1}-07-03`,
        breakStart: `${y + 1}-07-04`,
        breakEnd: `${y + 1}-08-31`,
        current: false,
      },
    );
  }
}

/**
 * Birth date of a student in grade `gradeNo` (1–12 K12, 13–16 university years 1–4) this school
 * year: children start grade 1 in the September after turning 6 (cut-off 31 August); a few are a year older.
 */
function birthDateFor(rnd: Random, gradeNo: number, olderShare: number): string {
  const born = DEMO_CURRENT_START_YEAR - gradeNo - 5 - (rnd.chance(olderShare) ? 1 : 0);
  return randomDate(rnd, `${born - 1}-09-01`, `${born}-08-31`);
}

interface StudentSpec {
  orgId: string;
  classId: string;
  classNo: string;
  gradeNo: number;
  size: number;
  regions: readonly string[];
  olderShare: number;
}

/** One class of students with names unique in the class; returns their ids and surnames (rows go to ctx). */
function addStudents(ctx: Ctx, spec: StudentSpec): { id: string; surname: string }[] {
  const { rnd } = ctx;
  const names = new Set<string>();
  const out: { id: string; surname: string }[] = [];
  for (let i = 1; i <= spec.size; i++) {
    const gender: Gender = rnd.chance(0.51) ? 'male' : 'female';
    let surname: string;
    let name: string;
    do {
      surname = randomSurname(rnd);
      name = randomName(rnd, gender, { surname });
    } while (names.has(name));
    names.add(name);
    const birthDate = birthDateFor(rnd, spec.gradeNo, spec.olderShare);
    const id = rnd.uuid();
    ctx.rows.students.push({
      id,
      orgId: spec.orgId,
      classId: spec.classId,
      name,
      regNo: `G${randomIdNumber(rnd, rnd.pick(spec.regions), birthDate, gender, ctx.idNumbers)}`,
      studentNo: `${spec.classNo}${two(i)}`,
      gender,
      birthDate,
      ethnicity: randomEthnicity(rnd),
    });
    out.push({ id, surname });
  }
  return out;
}

const K12_GRADE_NAMES = ['一年级', '二年级', '三年级', '四年级', '五年级', '六年级', '七年级', '八年级', '九年级', '高一', '高二', '高三'];
const K12_STAGES = [
  { stage: 'primary', code: '01', first: 1, last: 6 },
  { stage: 'junior', code: '02', first: 7, last: 9 },
  { stage: 'senior', code: '03', first: 10, last: 12 },
] as const;
const K12_CLASSES_PER_GRADE = 4;

/** K12 school: grades 1–12 as enrolment cohorts of three stages, 4 classes each, ~40 students per class, parents for some. */
function addK12(ctx: Ctx, orgId: string): Map<number, string[]> {
  const { rnd } = ctx;
  const classesByGrade = new Map<number, string[]>();
  // Most children live in the district; some in neighbouring ones.
  const regions = [JIANGNING, JIANGNING, JIANGNING, JIANGNING, ...NANJING_DISTRICTS];
  for (const st of K12_STAGES) {
    for (let gradeNo = st.first; gradeNo <= st.last; gradeNo++) {
      const enrolYear = DEMO_CURRENT_START_YEAR - (gradeNo - st.first);
      const gradeId = rnd.uuid();
      ctx.rows.grades.push({ id: gradeId, orgId, stage: st.stage, enrolYear, gradeNo, graduated: false });
      const ids: string[] = [];
      for (let code = 1; code <= K12_CLASSES_PER_GRADE; code++) {
        const classId = rnd.uuid();
        const classNo = `${enrolYear}${st.code}${two(code)}`;
        const size = rnd.int(37, 43);
        ctx.rows.classes.push({ id: classId, orgId, gradeId, code, name: `${K12_GRADE_NAMES[gradeNo - 1]}${code}班`, classNo, size });
        ids.push(classId);
        const kids = addStudents(ctx, { orgId, classId, classNo, gradeNo, size, regions, olderShare: 0.03 });
        for (const kid of kids) {
          if (!rnd.chance(0.2)) continue;
          const mother = rnd.chance(0.55);
          const parentId = rnd.uuid();
          ctx.rows.parents.push({
            id: parentId,
            orgId,
            name: randomName(rnd, mother ? 'female' : 'male', { adult: true, surname: mother ? undefined : kid.surname }),
            gender: mother ? 'female' : 'male',
            mobile: randomMobile(rnd, ctx.mobiles),
          });
          ctx.rows.parentStudents.push({ parentId, studentId: kid.id, relation: mother ? 'mother' : 'father' });
        }
      }
      classesByGrade.set(gradeNo, ids);
    }
  }
  return classesByGrade;
}

/**
 * Demo people data beyond the random roster, chosen by position so the random stream (and every seeded name) stays
 * as it was: some parents with a second child in another grade (same surname), a few students suspended or
 * transferred out.
 */
function addFamiliesAndStatuses(ctx: Ctx, orgId: string): void {
  const roster = ctx.rows.students.filter((s) => s.orgId === orgId);
  const byId = new Map(roster.map((s) => [s.id!, s]));
  const classGrade = new Map(ctx.rows.classes.filter((c) => c.orgId === orgId).map((c) => [c.id!, c.gradeId]));
  const links = ctx.rows.parentStudents.filter((l) => byId.has(l.studentId));
  const withParent = new Set(links.map((l) => l.studentId));
  for (const [i, link] of links.entries()) {
    if (i % 8 !== 0) continue;
    const child = byId.get(link.studentId)!;
    const sibling = roster.find(
      (s) => s.name[0] === child.name[0] && classGrade.get(s.classId) !== classGrade.get(child.classId) && !withParent.has(s.id!),
    );
    if (!sibling) continue;
    withParent.add(sibling.id!);
    ctx.rows.parentStudents.push({ parentId: link.parentId, studentId: sibling.id!, relation: link.relation });
  }
  for (const [i, s] of roster.entries()) {
    if (i % 151 === 150) s.status = 'suspended';
    else if (i % 211 === 210) s.status = 'transferred';
  }
}

const UNIVERSITY = [
  {
    code: '01',
    name: '体育学院',
    majors: [
      { code: '01', name: '体育教育', short: '体教' },
      { code: '02', name: '运动训练', short: '运训' },
    ],
  },
  {
    code: '02',
    name: '运动健康科学学院',
    majors: [
      { code: '01', name: '运动康复', short: '康复' },
      { code: '02', name: '运动人体科学', short: '人体' },
    ],
  },
] as const;
const UNIVERSITY_CLASSES_PER_MAJOR_YEAR = 3;
const UNIVERSITY_YEARS = 4;

/** University: 2 colleges × 2 majors, years 1–4 (grades 13–16), 3 classes per major and year, ~42 students each. */
function addUniversity(ctx: Ctx, orgId: string): string[] {
  const { rnd } = ctx;
  const regions = [...NANJING_DISTRICTS, ...PROVINCE_REGIONS];
  const classIds: string[] = [];
  const gradeIds: string[] = [];
  for (let year = 1; year <= UNIVERSITY_YEARS; year++) {
    const id = rnd.uuid();
    gradeIds.push(id);
    ctx.rows.grades.push({ id, orgId, stage: 'university', enrolYear: DEMO_CURRENT_START_YEAR - year + 1, gradeNo: 12 + year, graduated: false });
  }
  for (const college of UNIVERSITY) {
    const collegeId = rnd.uuid();
    ctx.rows.colleges.push({ id: collegeId, orgId, code: college.code, name: college.name });
    for (const major of college.majors) {
      const majorId = rnd.uuid();
      ctx.rows.majors.push({ id: majorId, orgId, collegeId, code: major.code, name: major.name, schoolLength: UNIVERSITY_YEARS });
      for (let year = 1; year <= UNIVERSITY_YEARS; year++) {
        const enrolYear = DEMO_CURRENT_START_YEAR - year + 1;
        for (let code = 1; code <= UNIVERSITY_CLASSES_PER_MAJOR_YEAR; code++) {
          const classId = rnd.uuid();
          const classNo = `${enrolYear}${college.code}${major.code}${two(code)}`;
          const size = rnd.int(38, 46);
          ctx.rows.classes.push({
            id: classId,
            orgId,
            gradeId: gradeIds[year - 1],
            collegeId,
            majorId,
            code,
            name: `${major.short}${String(enrolYear).slice(2)}${two(code)}班`,
            classNo,
            size,
          });
          classIds.push(classId);
          addStudents(ctx, { orgId, classId, classNo, gradeNo: 12 + year, size, regions, olderShare: 0.1 });
        }
      }
    }
  }
  return classIds;
}

/** The two roles of a school (one for a bureau) with their menus from the role templates (docs/product-rules.md#roles). */
function addRoles(ctx: Ctx, orgId: string, family: Family, identities: readonly TemplateIdentity[]): Record<TemplateIdentity, string> {
  const ids = {} as Record<TemplateIdentity, string>;
  for (const identity of identities) {
    const id = ctx.rnd.uuid();
    ids[identity] = id;
    const admin = identity === 'administrator';
    ctx.rows.roles.push({
      id,
      orgId,
      name: admin ? '管理员' : '体育教师',
      remark: admin ? '系统内置角色，拥有本单位全部功能权限' : '体育教师：教学、测试与赛事',
      identity,
      builtin: admin,
    });
    for (const m of menuEntriesForGrant(ROLE_TEMPLATES[family][identity])) ctx.rows.roleMenus.push({ roleId: id, menuId: m.menuId });
  }
  return ids;
}

interface PersonSpec {
  account: string;
  name: string;
  gender: Gender;
  /** Memberships in order; the first is the present one. Each lists role ids, the first role present. */
  memberships: readonly { orgId: string; roleIds: readonly string[]; presentRole?: string }[];
}

function addUser(ctx: Ctx, spec: PersonSpec): { userId: string; mobile: string; accountIds: string[] } {
  const userId = ctx.rnd.uuid();
  const mobile = randomMobile(ctx.rnd, ctx.mobiles);
  const accountIds: string[] = [];
  ctx.rows.users.push({ id: userId, accountNum: spec.account, mobile, name: spec.name, gender: spec.gender, passwordHash: ctx.passwordHash });
  spec.memberships.forEach((m, i) => {
    const membershipId = ctx.rnd.uuid();
    accountIds.push(membershipId);
    ctx.rows.memberships.push({ id: membershipId, userId, orgId: m.orgId, tenantOrgId: m.orgId, present: i === 0 });
    const presentRole = m.presentRole ?? m.roleIds[0];
    for (const roleId of m.roleIds) ctx.rows.membershipRoles.push({ membershipId, roleId, present: roleId === presentRole });
  });
  return { userId, mobile, accountIds };
}

function addTeacher(
  ctx: Ctx,
  orgId: string,
  workNo: string,
  person: { userId: string; mobile: string; name: string; gender: Gender },
  classIds: readonly string[],
): void {
  const { rnd } = ctx;
  const id = rnd.uuid();
  const birthDate = randomDate(rnd, '1972-01-01', '1999-12-31');
  ctx.rows.teachers.push({
    id,
    orgId,
    userId: person.userId,
    name: person.name,
    gender: person.gender,
    mobile: person.mobile,
    workNo,
    idCard: randomIdNumber(rnd, rnd.pick([JIANGNING, ...NANJING_DISTRICTS, ...PROVINCE_REGIONS]), birthDate, person.gender, ctx.idNumbers),
  });
  for (const classId of classIds) ctx.rows.teacherClasses.push({ teacherId: id, classId });
}

/** A staff member with a sign-in, the school's PE-teacher role and a teachers row. */
function addStaff(
  ctx: Ctx,
  orgId: string,
  roleIds: readonly string[],
  account: string,
  workNo: string,
  classIds: readonly string[],
  fixed?: { name: string; gender: Gender },
): void {
  const gender: Gender = fixed?.gender ?? (ctx.rnd.chance(0.6) ? 'male' : 'female');
  const name = fixed?.name ?? randomName(ctx.rnd, gender, { adult: true });
  const user = addUser(ctx, { account, name, gender, memberships: [{ orgId, roleIds }] });
  addTeacher(ctx, orgId, workNo, { ...user, name, gender }, classIds);
}

/**
 * Roles a school made itself (last, so the random rows before stay as they were): a class keeper with only the class
 * screens, a read-only data viewer, mobile functions by identity, and an account with no role yet to hand one to.
 */
function addDemoRoles(ctx: Ctx, k12Id: string): void {
  for (const r of ctx.rows.roles) r.mobileFunctions = r.identity === 'administrator' ? [...MOBILE_FUNCTIONS] : ['signIn', 'physiqueResults', 'homework', 'exercise'];
  const custom: { name: string; remark: string; grant: RoleGrant; mobile: MobileFunction[] }[] = [
    {
      name: '班级管理员',
      remark: '只管理班级',
      grant: { keys: ['k12.org.class', 'k12.org.class.add', 'k12.org.class.edit'], buttons: getCatalogEntry('k12.org.class')!.buttons.map((b) => b.permission) },
      mobile: ['signIn'],
    },
    { name: '数据查看员', remark: '只读查看数据中心', grant: { keys: ['k12.dataCenter.school'], buttons: [] }, mobile: ['physiqueResults'] },
  ];
  for (const c of custom) {
    const id = ctx.rnd.uuid();
    ctx.rows.roles.push({ id, orgId: k12Id, name: c.name, remark: c.remark, identity: 'teacher', builtin: false, mobileFunctions: c.mobile });
    for (const m of menuEntriesForGrant(c.grant)) ctx.rows.roleMenus.push({ roleId: id, menuId: m.menuId });
  }
  addUser(ctx, { account: 'staff0001', name: '赵敏', gender: 'female', memberships: [{ orgId: k12Id, roleIds: [] }] });
}

/**
 * What the staff screen shows beyond a PE teacher's classes (no random draws, so the rows before keep their values):
 * teacher02 also teaches health in the first class of theirs, and teacher06, who came from Hong Kong, holds a
 * passport instead of a resident ID.
 */
function addStaffDetails(ctx: Ctx): void {
  const byWorkNo = (workNo: string) => ctx.rows.teachers.find((x) => x.workNo === workNo)!;
  const teacher02 = byWorkNo('100004');
  const first = ctx.rows.teacherClasses.find((c) => c.teacherId === teacher02.id);
  if (first) ctx.rows.teacherClasses.push({ teacherId: teacher02.id!, classId: first.classId, subject: 'health' });
  Object.assign(byWorkNo('100008'), { idCard: null, certificateType: 'passport', certificateNo: 'K34801276' });
}

/**
 * A second, smaller K12 school under the district that joined this year (no physique tests yet): primary grades 1–6
 * with one class each, its administrator (school02) and a PE teacher, through the same builders as the first.
 */
function addSecondSchool(ctx: Ctx, bureauId: string): void {
  const { rnd } = ctx;
  const orgId = rnd.uuid();
  ctx.rows.orgs.push({
    id: orgId,
    parentId: bureauId,
    type: ORG_TYPE.k12,
    code: '03',
    name: '南京市江宁区东山小学',
    title: '东山小学体育平台',
    icon: badgeIcon('#7c3aed', '#fde68a'),
    academicSystemYears: 6,
    latitude: '31.934527',
    longitude: '118.852316',
    deviceActivationCode: 'JN-2026-0301',
    activatableDevices: 30,
  });
  addSchoolYears(ctx, orgId);
  const classIds: string[] = [];
  for (let gradeNo = 1; gradeNo <= 6; gradeNo++) {
    const enrolYear = DEMO_CURRENT_START_YEAR - (gradeNo - 1);
    const gradeId = rnd.uuid();
    ctx.rows.grades.push({ id: gradeId, orgId, stage: 'primary', enrolYear, gradeNo, graduated: false });
    const classId = rnd.uuid();
    const classNo = `${enrolYear}0101`;
    const size = rnd.int(30, 36);
    ctx.rows.classes.push({ id: classId, orgId, gradeId, code: 1, name: `${K12_GRADE_NAMES[gradeNo - 1]}1班`, classNo, size });
    classIds.push(classId);
    addStudents(ctx, { orgId, classId, classNo, gradeNo, size, regions: [JIANGNING], olderShare: 0.03 });
  }
  const schoolRoles = addRoles(ctx, orgId, 'k12', ['administrator', 'teacher']);
  addStaff(ctx, orgId, [schoolRoles.administrator], 'school02', '300001', [], { name: '黄晓燕', gender: 'female' });
  addStaff(ctx, orgId, [schoolRoles.teacher], 'dsteacher01', '300002', classIds, { name: '马俊', gender: 'male' });
}

/**
 * The district's own people and departments: a second administrator, two PE researchers with a read-only role, and a
 * small department tree (office; PE, health and arts section with two groups; information centre) with members.
 */
function addDistrictStaff(ctx: Ctx, bureauId: string, adminRoleId: string, adminAccountId: string): void {
  const { rnd } = ctx;
  const researcherRole = rnd.uuid();
  ctx.rows.roles.push({ id: researcherRole, orgId: bureauId, name: '体育教研员', remark: '查看学校概览、测试计划与成绩', identity: 'teacher', builtin: false, mobileFunctions: ['physiqueResults'] });
  for (const m of menuEntriesForGrant(DISTRICT_RESEARCHER)) ctx.rows.roleMenus.push({ roleId: researcherRole, menuId: m.menuId });
  const [second] = addUser(ctx, { account: 'district02', name: '孙伟', gender: 'male', memberships: [{ orgId: bureauId, roleIds: [adminRoleId] }] }).accountIds;
  const [r1] = addUser(ctx, { account: 'jiaoyan01', name: '吴芳', gender: 'female', memberships: [{ orgId: bureauId, roleIds: [researcherRole] }] }).accountIds;
  const [r2] = addUser(ctx, { account: 'jiaoyan02', name: '郑强', gender: 'male', memberships: [{ orgId: bureauId, roleIds: [researcherRole] }] }).accountIds;

  const dept = (name: string, code: string, parentId: string | null = null) => {
    const id = rnd.uuid();
    ctx.rows.departments.push({ id, orgId: bureauId, parentId, name, code });
    return id;
  };
  const office = dept('办公室', '01');
  const section = dept('体卫艺科', '02');
  const pe = dept('体育组', '01', section);
  dept('卫生健康组', '02', section);
  dept('信息中心', '03');
  for (const [departmentId, membershipId] of [
    [office, adminAccountId],
    [office, second],
    [section, second],
    [pe, r1],
    [pe, r2],
  ] as const) {
    ctx.rows.departmentMembers.push({ departmentId, membershipId });
  }
}

/**
 * A PE teacher whose role sees only the classes they teach (docs/product-rules.md#data-scopes): the PE-teacher
 * template's permissions with the 'classes' data scope, held by myclass01, who teaches two classes of the school.
 */
function addClassScopedTeacher(ctx: Ctx, k12Id: string, classIds: readonly string[]): void {
  const roleId = ctx.rnd.uuid();
  ctx.rows.roles.push({
    id: roleId,
    orgId: k12Id,
    name: '本班体育教师',
    remark: '体育教师，只看自己任教班级的学生与成绩',
    identity: 'teacher',
    builtin: false,
    dataScope: 'classes',
    mobileFunctions: ['signIn', 'physiqueResults', 'homework', 'exercise'],
  });
  for (const m of menuEntriesForGrant(ROLE_TEMPLATES.k12.teacher)) ctx.rows.roleMenus.push({ roleId, menuId: m.menuId });
  addStaff(ctx, k12Id, [roleId], 'myclass01', '100009', classIds, { name: '周敏', gender: 'female' });
}

/**
 * Builds every row of the demo in memory (deterministic for a given password hash). `later` holds what the demo adds
 * after the physique tests were seeded (an organisation that joined this year, the district's own people).
 */
function buildDemo(passwordHash: string): { rows: Ctx['rows']; later: Ctx['rows'] } {
  const ctx: Ctx = {
    rnd: createRandom(SEED),
    mobiles: new Set(),
    idNumbers: new Set(),
    passwordHash,
    rows: emptyRows(),
  };
  const { rnd, rows } = ctx;

  const bureauId = rnd.uuid();
  const k12Id = rnd.uuid();
  const uniId = rnd.uuid();
  rows.orgs.push(
    {
      id: bureauId,
      parentId: null,
      type: ORG_TYPE.management,
      code: '01',
      name: '江宁区教育局',
      title: '江宁区智慧体育管理平台',
      icon: badgeIcon('#1d4ed8', '#facc15'),
      loginImg: loginImage('#1d4ed8', '#facc15'),
      filingNumber: '苏ICP备2026000001号',
      latitude: '31.953418',
      longitude: '118.839720',
      deviceActivationCode: 'JN-2026-0001',
      activatableDevices: 200,
    },
    {
      id: k12Id,
      parentId: bureauId,
      type: ORG_TYPE.k12,
      code: '01',
      name: '南京市江宁区实验学校',
      title: '江宁区实验学校体育平台',
      icon: badgeIcon('#059669', '#fde047'),
      academicSystemYears: 12,
      latitude: '31.950112',
      longitude: '118.846031',
      deviceActivationCode: 'JN-2026-0101',
      activatableDevices: 50,
    },
    {
      id: uniId,
      parentId: bureauId,
      type: ORG_TYPE.university,
      code: '02',
      name: '江苏体育科技大学',
      title: '江苏体育科技大学体育管理平台',
      icon: badgeIcon('#b91c1c', '#fbbf24'),
      academicSystemYears: 4,
      latitude: '31.912905',
      longitude: '118.891562',
      deviceActivationCode: 'JN-2026-0201',
      activatableDevices: 80,
    },
  );
  for (const orgId of [bureauId, k12Id, uniId]) addSchoolYears(ctx, orgId);

  const k12Classes = addK12(ctx, k12Id);
  addFamiliesAndStatuses(ctx, k12Id);
  const uniClasses = addUniversity(ctx, uniId);

  const bureauRoles = addRoles(ctx, bureauId, 'admin', ['administrator']);
  const k12Roles = addRoles(ctx, k12Id, 'k12', ['administrator', 'teacher']);
  const uniRoles = addRoles(ctx, uniId, 'gx', ['administrator', 'teacher']);

  const grades = (...nos: number[]) => nos.flatMap((n) => k12Classes.get(n) ?? []);

  const [districtAccount] = addUser(ctx, { account: 'district01', name: '周建华', gender: 'male', memberships: [{ orgId: bureauId, roleIds: [bureauRoles.administrator] }] }).accountIds;
  addStaff(ctx, k12Id, [k12Roles.administrator], 'school01', '100001', [], { name: '陈丽华', gender: 'female' });
  addStaff(ctx, k12Id, [k12Roles.teacher], 'teacher01', '100002', grades(7, 8), { name: '王磊', gender: 'male' });
  addStaff(ctx, uniId, [uniRoles.administrator], 'college01', '200001', [], { name: '刘志强', gender: 'male' });

  // One person, two schools: K12 administrator and PE teacher (teacher role in use), university PE teacher.
  const multi = { name: '李静', gender: 'female' as const };
  const multiUser = addUser(ctx, {
    account: 'multi0001',
    ...multi,
    memberships: [
      { orgId: k12Id, roleIds: [k12Roles.administrator, k12Roles.teacher], presentRole: k12Roles.teacher },
      { orgId: uniId, roleIds: [uniRoles.teacher] },
    ],
  });
  addTeacher(ctx, k12Id, '100003', { ...multiUser, ...multi }, grades(1, 2));
  addTeacher(ctx, uniId, '200002', { ...multiUser, ...multi }, uniClasses.slice(0, 8));

  // A few more PE teachers per school, sharing the remaining classes.
  const k12Shares = [grades(3, 4), grades(5, 6), grades(9, 10), grades(11, 12), []];
  k12Shares.forEach((share, i) => addStaff(ctx, k12Id, [k12Roles.teacher], `teacher${two(i + 2)}`, `1000${two(i + 4)}`, share));
  for (let i = 0; i < 4; i++) {
    addStaff(ctx, uniId, [uniRoles.teacher], `gxteacher${two(i + 1)}`, `2000${two(i + 3)}`, uniClasses.slice(8 + i * 10, 18 + i * 10));
  }
  addDemoRoles(ctx, k12Id);
  addStaffDetails(ctx);

  // Last, so every row before keeps its random values.
  const later: Ctx = { ...ctx, rows: emptyRows() };
  addSecondSchool(later, bureauId);
  addDistrictStaff(later, bureauId, bureauRoles.administrator, districtAccount);
  addClassScopedTeacher(later, k12Id, grades(7).slice(2, 4));
  return { rows, later: later.rows };
}

async function insertRows(tx: DbOrTx, rows: Ctx['rows']): Promise<void> {
  await insertChunks(tx, orgs, rows.orgs);
  await insertChunks(tx, schoolYears, rows.schoolYears);
  await insertChunks(tx, semesters, rows.semesters);
  await insertChunks(tx, grades, rows.grades);
  await insertChunks(tx, colleges, rows.colleges);
  await insertChunks(tx, majors, rows.majors);
  await insertChunks(tx, classes, rows.classes);
  await insertChunks(tx, students, rows.students);
  await insertChunks(tx, parents, rows.parents);
  await insertChunks(tx, parentStudents, rows.parentStudents);
  await insertChunks(tx, roles, rows.roles);
  await insertChunks(tx, roleMenus, rows.roleMenus);
  await insertChunks(tx, users, rows.users);
  await insertChunks(tx, memberships, rows.memberships);
  await insertChunks(tx, membershipRoles, rows.membershipRoles);
  await insertChunks(tx, teachers, rows.teachers);
  await insertChunks(tx, teacherClasses, rows.teacherClasses);
  await insertChunks(tx, departments, rows.departments);
  await insertChunks(tx, departmentMembers, rows.departmentMembers);
}

export interface SeedDemoOptions {
  /** The clock: contests, homework, training and meets are dated around it. */
  now?: Date;
  /**
   * 'full': the whole demo. 'people': menus, the organisations, classes, people and accounts only (TIYU_DEMO_SEED=people;
   * for tests that need a first start quickly: tests/server/db/first-run-kill.test.ts).
   */
  scope?: 'full' | 'people';
  /** Progress lines, one per stage (server/main.ts prints them). */
  log?: (line: string) => void;
}

/**
 * Seeds the demo data set (docs/product-rules.md#demo-data) in one transaction: the catalogue's menus, a district bureau
 * over a K12 school (≈1,920 students) and a university (≈2,000 students), school years,
 * roles with menus, the DEMO_ACCOUNTS, and physique test plans with results and test records
 * (physique-demo.ts); then a small second school without tests and the district's departments and staff; contests
 * and homework dated around `now` (the clock by default), so that the simulator's records of the last days reach them.
 * Does nothing when any organisation exists.
 * Returns whether it wrote anything.
 */
export async function seedDemo(db: DbOrTx, { now = new Date(), scope = 'full', log = () => {} }: SeedDemoOptions = {}): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(orgs);
  if (n > 0) return false;
  const passwordHash = await hashPassword(sha256Hex(DEMO_PASSWORD));
  const { rows, later } = buildDemo(passwordHash);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    // Another instance may have seeded while this one waited for the lock.
    const [{ n: again }] = await tx.select({ n: count() }).from(orgs);
    if (again > 0) return false;
    log(`menus and roles (${toMenuEntries(CATALOG).length} menu entries)`);
    await syncMenus(tx);
    log(`the district: ${rows.orgs.length} organisations, ${rows.classes.length} classes, ${rows.students.length} students, ${rows.users.length} accounts`);
    await insertRows(tx, rows);
    // The demo's district and platform accounts sign in with the password alone (README "Demo accounts"); the product's
    // default requires two-factor sign-in of them (docs/product-rules.md#sign-in-security).
    await setOperatorTwoFactorRequired(tx, false, now);
    if (scope === 'full') {
      log('physique test plans and results (three school years)');
      await seedPhysiqueDemo(tx, { currentStartYear: DEMO_CURRENT_START_YEAR, today: DEMO_TODAY });
      await seedConversionDemo(tx, DEMO_CURRENT_START_YEAR);
      await seedGraduationDemo(tx, { currentStartYear: DEMO_CURRENT_START_YEAR, today: DEMO_TODAY });
      await seedRetestDemo(tx, { lastStartYear: DEMO_CURRENT_START_YEAR - 1 });
      log('venues, banners and the wiki');
      await seedVenueDemo(tx, DEMO_TODAY);
      await seedContentDemo(tx, new Date(`${DEMO_TODAY}T08:00:00+08:00`));
    }
    log(`a second school and the district's staff: ${later.students.length} students, ${later.users.length} accounts`);
    await insertRows(tx, later);
    log(`guardian consents: ${await seedConsentDemo(tx, now)} recorded`);
    if (scope === 'full') {
      // Contests, homework, training and the meets are live: they run around the day of seeding (the clock), as the
      // records the simulator sends for the days before `now` do (docs/product-rules.md#activities, "Demo dates"); the
      // autumn meet is therefore in sign-up on the day a demo is created.
      log('sports meets, contests, homework and training');
      await seedMeetDemo(tx, localDate(now));
      await seedContestsDemo(tx, localDate(now));
      await seedHomeworkDemo(tx, localDate(now));
      await seedTrainingDemo(tx, localDate(now));
      await seedWarningsDemo(tx, now);
      await seedTestDayDemo(tx, now);
      log('app accounts of students and parents');
      await seedAppDemo(tx, passwordHash);
      await seedParentReportsDemo(tx, DEMO_TODAY);
      await seedExemptionDemo(tx, localDate(now));
      // Live like the contests: a term of heart-rate lessons up to `now` and one in progress at `now`.
      const started = performance.now();
      const load = await seedLessonLoadDemo(tx, now);
      log(`lesson load: ${load.lessons} heart-rate lessons, ${load.samples} samples (one lesson in progress) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    log('committing');
    return true;
  });
}
