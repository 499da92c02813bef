import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { eq, getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { ORG_TYPE, SEMESTER } from '@/domain/constants';
import { gradeInYear, STAGE_GRADES } from '@/domain/data-center/roster';
import { menuEntriesForGrant } from '@/domain/menus/menu-entries';
import { ROLE_TEMPLATES } from '@/domain/menus/role-templates';
import { scoreStudent } from '@/domain/physique/score';
import { gradeTable, itemMeta, type Gender, type Grade, type ItemKey, type ScoreTable, type Stage } from '@/domain/physique/standard';
import { planItemsForGrade } from '@/domain/test-plans/items';
import { WIDE_SCORE_FIELDS, wideFromScore, type WideRawFields } from '@/domain/physique-results/wide-row';
import { hashPassword, sha256Hex } from '../lib/password';
import { withBulkTransaction, copyLines, type BulkSession } from '../modules/physique-results/bulk-session';
import { migrateDb, openDb, type Db } from '../db/client';
import { memberships, membershipRoles, roleMenus, roles, users } from '../db/schema/auth';
import { orgs } from '../db/schema/orgs';
import { physiqueResults } from '../db/schema/physique';
import { classes, grades, schoolYears, semesters, students } from '../db/schema/school';
import { testPlanItems, testPlans, testPlanScopes } from '../db/schema/test-plans';
import { syncMenus } from '../modules/menus/menu-sync';
import { setOperatorTwoFactorRequired } from '../modules/security/two-factor.service';
import { DEMO_CURRENT_START_YEAR, DEMO_PASSWORD } from './demo';
import { createRandom, JIANGNING, NANJING_DISTRICTS, randomDate, randomEthnicity, randomIdNumber, randomMobile, randomName, type Random } from './people';

/**
 * Scale seed (docs/product-rules.md#data-centre): a realistic district for benchmarks — a bureau over K12 schools of ≈1,500–3,000 students
 * (primary, junior, senior and nine-year schools), grades and classes of 40–50, students (plus the cohorts that
 * graduated during the period), one autumn test plan per school and school year, and every student's physique results
 * of the last `years` school years scored by the national engine from raw values drawn per item so the levels look
 * like a real district (a student's fitness, the school's, a yearly drift, a few untested, incomplete and invalid).
 * Written with COPY, one transaction per school.
 *
 *   npm run seed:scale -- --students 200000 [--districts 6] [--school-sizes 9000,5000] [--years 3] [--seed 1] [--fresh]
 *
 * `--districts N` (N > 1) makes a city instead: a city bureau (`scalecity`) over N district bureaus (`scaledistrict`,
 * `scaledistrict02`…) sharing the schools in turn. `--students 1000000 --districts 6` is the province bench's city
 * (tests/bench/province.ts).
 *
 * About 2.9 result rows per current student over 3 years (graduated cohorts included): `--students 345000` makes a
 * district of ≈ 1,000,000 result rows.
 *
 * Target: DATABASE_URL (PostgreSQL), else PGLITE_DIR, else ./data/scale (PGlite, gitignored; --fresh empties it first). Sign in as `scaledistrict`
 * (bureau) or `scaleschool0001`… (schools) with the demo password.
 */

export interface ScaleOptions {
  students: number;
  /** School years of results, ending with the current one (default 3). */
  years?: number;
  seed?: number;
  /** Sizes of the first schools (students each), e.g. [9000] for one large school; the rest take 1,500–3,000. */
  schoolSizes?: readonly number[];
  /** Start year of the current school year (default: the demo's). */
  currentYear?: number;
  /** More than 1: a city bureau over this many district bureaus, which share the schools in turn (default 1: one district). */
  districts?: number;
  log?: (message: string) => void;
}

export interface ScaleSummary {
  /** The top bureau: the district, or the city when there are several districts. */
  districtId: string;
  /** The district bureaus (one: the top bureau itself). */
  districtIds: string[];
  schoolIds: string[];
  schools: number;
  classes: number;
  /** Current students (graduated cohorts not included). */
  students: number;
  graduates: number;
  plans: number;
  results: number;
  ms: number;
}

export const SCALE_DISTRICT_ACCOUNT = 'scaledistrict';
export const SCALE_CITY_ACCOUNT = 'scalecity';
/** The i-th district bureau's account of a city (the first is `scaledistrict`, as a lone district's). */
export const scaleDistrictAccount = (i: number): string => (i === 0 ? SCALE_DISTRICT_ACCOUNT : `${SCALE_DISTRICT_ACCOUNT}${String(i + 1).padStart(2, '0')}`);
export const scaleSchoolAccount = (i: number): string => `scaleschool${String(i + 1).padStart(4, '0')}`;

type Insert<T extends PgTable> = T['$inferInsert'];

/** COPY rows (objects keyed by Drizzle property, all with the keys of the first) into `table`. */
async function copyTable<T extends PgTable>(s: BulkSession, table: T, rows: readonly Insert<T>[]): Promise<void> {
  if (rows.length === 0) return;
  const cols = getTableColumns(table) as Record<string, { name: string }>;
  const keys = Object.keys(rows[0] as object);
  await s.copyIn(
    getTableName(table),
    keys.map((k) => cols[k].name),
    copyLines(rows, (r) => keys.map((k) => (r as Record<string, unknown>)[k])),
  );
}

// ---------------------------------------------------------------------------------------------
// The district's shape
// ---------------------------------------------------------------------------------------------

interface SchoolKind {
  kind: string;
  name: string;
  stages: readonly Stage[];
  /** Share of schools of this kind. */
  share: number;
}
const KINDS: readonly SchoolKind[] = [
  { kind: 'primary', name: '小学', stages: ['primary'], share: 0.5 },
  { kind: 'junior', name: '初级中学', stages: ['junior'], share: 0.22 },
  { kind: 'senior', name: '高级中学', stages: ['senior'], share: 0.14 },
  { kind: 'nine', name: '九年一贯制学校', stages: ['primary', 'junior'], share: 0.14 },
];
const PLACES = ['东山', '秣陵', '汤山', '淳化', '禄口', '江宁', '谷里', '湖熟', '横溪', '麒麟', '上坊', '百家湖', '九龙湖', '将军山', '翠屏山', '方山', '牛首', '天印', '竹山', '科学园'];
const STAGE_CODE: Record<Stage, string> = { primary: '01', junior: '02', senior: '03', university: '04' };
const K12_GRADE_NAMES = ['一年级', '二年级', '三年级', '四年级', '五年级', '六年级', '七年级', '八年级', '九年级', '高一', '高二', '高三'];
const SCHOOL_MIN = 1500;
const SCHOOL_MAX = 3000;

/** Mean heights (cm) by grade 1–12, boys and girls (rough national growth curves). */
const HEIGHT: Record<Gender, readonly number[]> = {
  male: [126, 132, 137, 142, 148, 154, 161, 167, 171, 173, 174, 175],
  female: [125, 131, 136, 142, 148, 153, 157, 159, 160, 161, 161, 162],
};
/** Share of each BMI band (China's children: ≈ 1 in 5 overweight or obese). */
const BMI_BANDS: readonly [string, number][] = [
  ['normal', 0.68],
  ['lowWeight', 0.06],
  ['overweight', 0.14],
  ['obese', 0.12],
];
/** Row offsets of items (positive = weaker), so the weakest items stand out as in real districts. */
const ITEM_OFFSET: Partial<Record<ItemKey, number>> = { pullUp: 3, run1000m: 2, run800m: 1.5, shuttle50x8: 1.2, sitUp1min: 0.5, sitAndReach: -1.5, rope1min: -1, vitalCapacity: -0.5 };
const TESTED_SHARE = 0.97;
const INCOMPLETE_SHARE = 0.02;
const INVALID_SHARE = 0.005;

function gaussian(rnd: Random): number {
  // Box–Muller; 1 - next() avoids log(0).
  return Math.sqrt(-2 * Math.log(1 - rnd.next())) * Math.cos(2 * Math.PI * rnd.next());
}

function schoolSizes(rnd: Random, total: number, fixed: readonly number[]): number[] {
  const sizes: number[] = [];
  let left = total;
  for (const size of fixed) {
    if (!(size >= 1) || size > left) throw new Error(`seedScale: a school of ${size} does not fit in ${left} students`);
    sizes.push(size);
    left -= size;
  }
  if (left === 0) return sizes;
  // Each school takes 1,500–3,000 students and leaves at least 1,500 for the next; the last takes the rest.
  while (left > SCHOOL_MAX) {
    const size = rnd.int(SCHOOL_MIN, Math.min(SCHOOL_MAX, left - SCHOOL_MIN));
    sizes.push(size);
    left -= size;
  }
  sizes.push(left);
  return sizes;
}

function pickKind(rnd: Random): SchoolKind {
  let x = rnd.next();
  for (const k of KINDS) {
    x -= k.share;
    if (x < 0) return k;
  }
  return KINDS[0];
}

// ---------------------------------------------------------------------------------------------
// Raw results: inverse of the scoring tables, so every grade and gender gets plausible values
// ---------------------------------------------------------------------------------------------

/** The raw value at a continuous row position of a table (0 = the 100-point threshold; beyond the last row scores 0). */
function rawAtPosition(t: ScoreTable, pos: number, resolution: number): number {
  const th = t.thresholds;
  const n = th.length;
  let v: number;
  if (pos <= 0) v = th[0] + -pos * (th[0] - th[1]);
  else if (pos >= n - 1) v = th[n - 1] + (pos - (n - 1)) * (th[n - 1] - th[n - 2]);
  else {
    const i = Math.floor(pos);
    v = th[i] + (pos - i) * (th[i + 1] - th[i]);
  }
  const digits = resolution < 1 ? Math.round(-Math.log10(resolution)) : 0;
  const rounded = Math.round(v / resolution) * resolution;
  return Math.max(0, Number(rounded.toFixed(digits)));
}

interface Fitness {
  /** The student's general fitness (standard normal). */
  z: number;
  /** Per-item strengths. */
  items: Partial<Record<ItemKey, number>>;
  bmiBand: string;
  heightZ: number;
  bmiU: number;
}

function newFitness(rnd: Random): Fitness {
  let x = rnd.next();
  let band = 'normal';
  for (const [b, share] of BMI_BANDS) {
    x -= share;
    if (x < 0) {
      band = b;
      break;
    }
  }
  return { z: gaussian(rnd), items: {}, bmiBand: band, heightZ: gaussian(rnd), bmiU: rnd.next() };
}

/** Raw results of one student in one year: `drift` moves the whole student (school effect, growth, noise). */
function rawResults(rnd: Random, grade: Grade, gender: Gender, f: Fitness, drift: number): Partial<WideRawFields> {
  const table = gradeTable(grade, gender);
  const out: Partial<WideRawFields> = {};
  for (const spec of table.specs) {
    const t = table.byItem[spec.item];
    if (!t) continue;
    if (t.kind === 'bmi') {
      const h = HEIGHT[gender][Math.min(grade, 12) - 1] + 6 * f.heightZ;
      const u = f.bmiU;
      const bmi =
        f.bmiBand === 'lowWeight'
          ? t.lowWeightMax - 1.5 * u
          : f.bmiBand === 'overweight'
            ? t.overweightMin + (t.overweightMax - t.overweightMin) * u
            : f.bmiBand === 'obese'
              ? t.obeseMin + 5 * u
              : t.normalMin + (t.normalMax - t.normalMin) * u;
      out.heightCm = Math.round(h * 10) / 10;
      out.weightKg = Math.round(bmi * (h / 100) ** 2 * 10) / 10;
      continue;
    }
    const own = (f.items[spec.item] ??= gaussian(rnd));
    // Row ≈ 7 (≈ 75 points) on average; a student's items move together (fitness) and apart (strengths, the day);
    // endurance and strength items are weaker, flexibility stronger, as in national surveys.
    const pos = 7 + (ITEM_OFFSET[spec.item] ?? 0) - 3.6 * (0.85 * f.z + 0.35 * own + drift) + 0.8 * gaussian(rnd);
    out[spec.item] = rawAtPosition(t, pos, itemMeta(spec.item).resolution);
  }
  return out;
}

const RESULT_FIELD_COLUMNS = (() => {
  const cols = getTableColumns(physiqueResults) as Record<string, { name: string }>;
  return WIDE_SCORE_FIELDS.map((f) => cols[f].name);
})();
const RESULT_COLUMNS = ['id', 'org_id', 'plan_id', 'student_id', 'class_id', 'grade_no', 'class_name', 'gender', 'tested_on', ...RESULT_FIELD_COLUMNS, 'invalid', 'source', 'school_year'];

// ---------------------------------------------------------------------------------------------

interface SchoolPlan {
  id: string;
  index: number;
  name: string;
  code: string;
  kind: SchoolKind;
  size: number;
  adminRoleId: string;
  districtId: string;
  /** Effect of the school on every student's results (standard deviations). */
  effect: number;
}

/** Builds the district into `db` (migrated). Refuses when a scale district exists already. */
export async function seedScale(db: Db, opts: ScaleOptions): Promise<ScaleSummary> {
  const started = performance.now();
  const log = opts.log ?? (() => {});
  const years = opts.years ?? 3;
  const currentYear = opts.currentYear ?? DEMO_CURRENT_START_YEAR;
  const rnd = createRandom(opts.seed ?? 20_260_401);
  if (!(opts.students >= 1)) throw new Error('seedScale: --students must be at least 1');

  await syncMenus(db);
  // As the demo seed: the bureaus' benchmark accounts sign in with the password alone (else every call answers 428).
  await setOperatorTwoFactorRequired(db, false);
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.accountNum, SCALE_DISTRICT_ACCOUNT));
  if (existing) throw new Error(`seedScale: a scale district exists already (account ${SCALE_DISTRICT_ACCOUNT}); use a fresh database`);

  const passwordHash = await hashPassword(sha256Hex(DEMO_PASSWORD));
  const mobiles = new Set<string>();
  const idNumbers = new Set<string>();
  const districtId = rnd.uuid();
  const sizes = schoolSizes(rnd, opts.students, opts.schoolSizes ?? []);
  const districtCount = Math.max(1, Math.min(opts.districts ?? 1, sizes.length));
  const city = districtCount > 1;
  // A city: the top bureau is the city's, its districts hang under it; one district: the top bureau is the district.
  const districts = city
    ? Array.from({ length: districtCount }, (_, i) => ({ id: rnd.uuid(), roleId: rnd.uuid(), code: String(i + 1).padStart(2, '0'), name: `滨江市第${i + 1}区教育局`, place: `第${i + 1}区` }))
    : [{ id: districtId, roleId: '', code: '90', name: '滨江新区教育局', place: '滨江新区' }];
  const places = new Map<string, number>();
  const schools: SchoolPlan[] = sizes.map((size, index) => {
    const kind = pickKind(rnd);
    const place = PLACES[index % PLACES.length];
    const n = (places.get(place + kind.kind) ?? 0) + 1;
    places.set(place + kind.kind, n);
    const ordinal = n === 1 ? '' : ['', '第二', '第三', '第四', '第五', '第六', '第七', '第八', '第九', '第十'][n - 1] ?? `第${n}`;
    const district = districts[index % districtCount];
    return {
      id: rnd.uuid(),
      index,
      name: `${district.place}${place}${ordinal}${kind.name}`,
      code: String(Math.floor(index / districtCount) + 1).padStart(2, '0'),
      districtId: district.id,
      kind,
      size,
      adminRoleId: rnd.uuid(),
      effect: 0.3 * gaussian(rnd),
    };
  });

  // Organisations, roles and sign-ins.
  const districtRoleId = rnd.uuid();
  const orgRows: Insert<typeof orgs>[] = [
    city
      ? { id: districtId, parentId: null, type: ORG_TYPE.management, code: '90', name: '滨江市教育局', title: '滨江市智慧体育平台', academicSystemYears: null }
      : { id: districtId, parentId: null, type: ORG_TYPE.management, code: '90', name: '滨江新区教育局', title: '滨江新区智慧体育平台', academicSystemYears: null },
    ...(city ? districts.map((d) => ({ id: d.id, parentId: districtId, type: ORG_TYPE.management, code: d.code, name: d.name, title: `${d.place}智慧体育平台`, academicSystemYears: null })) : []),
    ...schools.map((s) => ({ id: s.id, parentId: s.districtId, type: ORG_TYPE.k12, code: s.code, name: s.name, title: `${s.name}体育平台`, academicSystemYears: 12 })),
  ];
  const roleRows: Insert<typeof roles>[] = [
    { id: districtRoleId, orgId: districtId, name: '管理员', remark: '系统内置角色，拥有本单位全部功能权限', identity: 'administrator', builtin: true },
    ...(city ? districts.map((d) => ({ id: d.roleId, orgId: d.id, name: '管理员', remark: '系统内置角色，拥有本单位全部功能权限', identity: 'administrator' as const, builtin: true })) : []),
    ...schools.map((s) => ({ id: s.adminRoleId, orgId: s.id, name: '管理员', remark: '系统内置角色，拥有本单位全部功能权限', identity: 'administrator' as const, builtin: true })),
  ];
  const adminMenus = menuEntriesForGrant(ROLE_TEMPLATES.admin.administrator).map((m) => m.menuId);
  const k12Menus = menuEntriesForGrant(ROLE_TEMPLATES.k12.administrator).map((m) => m.menuId);
  const roleMenuRows: Insert<typeof roleMenus>[] = [
    ...adminMenus.map((menuId) => ({ roleId: districtRoleId, menuId })),
    ...(city ? districts.flatMap((d) => adminMenus.map((menuId) => ({ roleId: d.roleId, menuId }))) : []),
    ...schools.flatMap((s) => k12Menus.map((menuId) => ({ roleId: s.adminRoleId, menuId }))),
  ];
  const userRows: Insert<typeof users>[] = [];
  const membershipRows: Insert<typeof memberships>[] = [];
  const membershipRoleRows: Insert<typeof membershipRoles>[] = [];
  const addUser = (account: string, orgId: string, roleId: string) => {
    const userId = rnd.uuid();
    const gender: Gender = rnd.chance(0.5) ? 'male' : 'female';
    userRows.push({ id: userId, accountNum: account, mobile: randomMobile(rnd, mobiles), name: randomName(rnd, gender, { adult: true }), gender, passwordHash });
    const membershipId = rnd.uuid();
    membershipRows.push({ id: membershipId, userId, orgId, tenantOrgId: orgId, present: true });
    membershipRoleRows.push({ membershipId, roleId, present: true });
  };
  if (city) {
    addUser(SCALE_CITY_ACCOUNT, districtId, districtRoleId);
    districts.forEach((d, i) => addUser(scaleDistrictAccount(i), d.id, d.roleId));
  } else addUser(SCALE_DISTRICT_ACCOUNT, districtId, districtRoleId);
  schools.forEach((s, i) => addUser(scaleSchoolAccount(i), s.id, s.adminRoleId));
  await withBulkTransaction(db, async (s) => {
    await copyTable(s, orgs, orgRows);
    await copyTable(s, roles, roleRows);
    await copyTable(s, roleMenus, roleMenuRows);
    await copyTable(s, users, userRows);
    await copyTable(s, memberships, membershipRows);
    await copyTable(s, membershipRoles, membershipRoleRows);
  });
  log(`scale: ${schools.length} schools${city ? ` in ${districtCount} districts` : ''}, accounts ${city ? `${SCALE_CITY_ACCOUNT}, ${scaleDistrictAccount(0)}…${scaleDistrictAccount(districtCount - 1)}` : SCALE_DISTRICT_ACCOUNT} and ${scaleSchoolAccount(0)}…${scaleSchoolAccount(schools.length - 1)}`);

  const firstYear = currentYear - years + 1;
  const summary: ScaleSummary = { districtId, districtIds: districts.map((d) => d.id), schoolIds: schools.map((s) => s.id), schools: schools.length, classes: 0, students: 0, graduates: 0, plans: 0, results: 0, ms: 0 };
  const regions = [JIANGNING, JIANGNING, JIANGNING, ...NANJING_DISTRICTS];
  // One school's COPY runs while the next school's rows are generated (the database and this process each keep a core busy).
  let writing: Promise<void> = Promise.resolve();

  for (const school of schools) {
    const rows = {
      schoolYears: [] as Insert<typeof schoolYears>[],
      semesters: [] as Insert<typeof semesters>[],
      grades: [] as Insert<typeof grades>[],
      classes: [] as Insert<typeof classes>[],
      students: [] as Insert<typeof students>[],
      plans: [] as Insert<typeof testPlans>[],
      scopes: [] as Insert<typeof testPlanScopes>[],
      items: [] as Insert<typeof testPlanItems>[],
      results: [] as unknown[][],
    };
    const planByYear = new Map<number, string>();
    for (let y = firstYear; y <= currentYear; y++) {
      const yearId = rnd.uuid();
      const current = y === currentYear;
      rows.schoolYears.push({ id: yearId, orgId: school.id, academicYear: `${y}-${y + 1}`, startYear: y, current });
      rows.semesters.push(
        { id: rnd.uuid(), orgId: school.id, schoolYearId: yearId, code: SEMESTER.autumn, startDate: `${y}-09-01`, endDate: `${y + 1}-01-22`, breakStart: `${y + 1}-01-23`, breakEnd: `${y + 1}-02-22`, current },
        { id: rnd.uuid(), orgId: school.id, schoolYearId: yearId, code: SEMESTER.spring, startDate: `${y + 1}-02-23`, endDate: `${y + 1}-07-03`, breakStart: `${y + 1}-07-04`, breakEnd: `${y + 1}-08-31`, current: false },
      );
      const planId = rnd.uuid();
      planByYear.set(y, planId);
      rows.plans.push({
        id: planId,
        orgId: school.id,
        name: `${y}学年秋季体质测试`,
        schoolYearId: yearId,
        semesterCode: SEMESTER.autumn,
        startDate: `${y}-10-08`,
        endDate: `${y}-11-20`,
        scopeType: 'grade',
        standardVersion: '2014',
      });
    }

    // Cohorts: the current grades of each stage, plus those that graduated within the period.
    const stageGrades = school.kind.stages.reduce((n, st) => n + STAGE_GRADES[st][1] - STAGE_GRADES[st][0] + 1, 0);
    const perGrade = school.size / stageGrades;
    const classesPerGrade = Math.max(1, Math.round(perGrade / 45));
    const gradeIdsByYear = new Map<number, { gradeId: string; gradeNo: number }[]>();
    for (const stage of school.kind.stages) {
      const [first, last] = STAGE_GRADES[stage];
      for (let enrol = firstYear - (last - first); enrol <= currentYear; enrol++) {
        const currentGrade = gradeInYear(stage, enrol, currentYear);
        const graduated = currentGrade == null;
        const gradeId = rnd.uuid();
        const gradeNo = currentGrade ?? last;
        rows.grades.push({ id: gradeId, orgId: school.id, stage, enrolYear: enrol, gradeNo, graduated });
        for (let y = firstYear; y <= currentYear; y++) {
          const g = gradeInYear(stage, enrol, y);
          if (g != null) gradeIdsByYear.set(y, [...(gradeIdsByYear.get(y) ?? []), { gradeId, gradeNo: g }]);
        }
        for (let code = 1; code <= classesPerGrade; code++) {
          const classId = rnd.uuid();
          const classNo = `${enrol}${STAGE_CODE[stage]}${String(code).padStart(2, '0')}`;
          const size = Math.max(1, Math.round(perGrade / classesPerGrade) + rnd.int(-3, 3));
          const name = graduated ? `${enrol}级${code}班` : `${K12_GRADE_NAMES[gradeNo - 1]}${code}班`;
          rows.classes.push({ id: classId, orgId: school.id, gradeId, code, name, classNo, size });
          summary.classes++;
          const cohortEffect = 0.15 * gaussian(rnd);
          for (let i = 1; i <= size; i++) {
            const gender: Gender = rnd.chance(0.52) ? 'male' : 'female';
            const born = enrol - first - 5 - (rnd.chance(0.03) ? 1 : 0);
            const birthDate = randomDate(rnd, `${born - 1}-09-01`, `${born}-08-31`);
            const studentId = rnd.uuid();
            rows.students.push({
              id: studentId,
              orgId: school.id,
              classId,
              name: randomName(rnd, gender),
              regNo: `G${randomIdNumber(rnd, rnd.pick(regions), birthDate, gender, idNumbers)}`,
              studentNo: `${classNo}${String(i).padStart(2, '0')}`,
              gender,
              birthDate,
              ethnicity: randomEthnicity(rnd),
            });
            if (graduated) summary.graduates++;
            else summary.students++;
            const fitness = newFitness(rnd);
            let yearDrift = 0;
            for (let y = firstYear; y <= currentYear; y++) {
              const grade = gradeInYear(stage, enrol, y);
              yearDrift += 0.05 + 0.15 * gaussian(rnd);
              if (grade == null || !rnd.chance(TESTED_SHARE)) continue;
              let raw = rawResults(rnd, grade as Grade, gender, fitness, school.effect + cohortEffect + yearDrift);
              if (rnd.chance(INCOMPLETE_SHARE)) {
                const keys = (Object.keys(raw) as (keyof WideRawFields)[]).filter((k) => k !== 'heightCm' && k !== 'weightKg');
                const drop = rnd.pick(keys);
                raw = { ...raw, [drop]: undefined };
              }
              const score = scoreStudent({ grade: grade as Grade, gender, results: raw });
              const wide = wideFromScore(raw, score) as unknown as Record<string, unknown>;
              rows.results.push([
                rnd.uuid(),
                school.id,
                planByYear.get(y),
                studentId,
                classId,
                grade,
                // The class's name in that year: K12 class names carry the grade.
                `${K12_GRADE_NAMES[grade - 1]}${code}班`,
                gender,
                randomDate(rnd, `${y}-10-08`, `${y}-11-20`),
                ...WIDE_SCORE_FIELDS.map((f) => wide[f]),
                rnd.chance(INVALID_SHARE),
                'import',
                y,
              ]);
            }
          }
        }
      }
    }
    for (let y = firstYear; y <= currentYear; y++) {
      const planId = planByYear.get(y) ?? '';
      for (const { gradeId, gradeNo } of gradeIdsByYear.get(y) ?? []) {
        rows.scopes.push({ planId, gradeId, classId: null, collegeId: null });
        if (!rows.items.some((it) => it.planId === planId && it.gradeNo === gradeNo)) {
          for (const item of planItemsForGrade(gradeNo as Grade, '2014')) rows.items.push({ planId, gradeNo, item });
        }
      }
    }
    await writing;
    writing = withBulkTransaction(db, async (s) => {
      await copyTable(s, schoolYears, rows.schoolYears);
      await copyTable(s, semesters, rows.semesters);
      await copyTable(s, grades, rows.grades);
      await copyTable(s, classes, rows.classes);
      await copyTable(s, students, rows.students);
      await copyTable(s, testPlans, rows.plans);
      await copyTable(s, testPlanScopes, rows.scopes);
      await copyTable(s, testPlanItems, rows.items);
      await s.copyIn('physique_results', RESULT_COLUMNS, copyLines(rows.results, (r) => r));
    });
    summary.plans += rows.plans.length;
    summary.results += rows.results.length;
    if ((school.index + 1) % 10 === 0 || school.index === schools.length - 1) {
      log(`scale: ${school.index + 1}/${schools.length} schools, ${summary.students} students, ${summary.results} results (${Math.round(performance.now() - started)} ms)`);
    }
  }
  await writing;
  await db.execute(sql`analyze`);
  summary.ms = Math.round(performance.now() - started);
  return summary;
}

export interface PlanResultsOptions {
  orgId: string;
  /** Start year of the school year (its school_years row must exist). */
  schoolYear: number;
  semesterCode?: 11 | 13;
  name?: string;
  /** YYYY-MM-DD; default the 8th of October (autumn) or of April (spring). */
  startDate?: string;
  /** Only these classes (default: every class whose cohort is in the school that year). */
  classIds?: readonly string[];
  /** Share of the students tested (default 0.97). */
  tested?: number;
  /** Share of the results marked invalid (default 0.005). */
  invalid?: number;
  seed?: number;
}

/**
 * One more test plan for an existing school with generated, engine-scored results for its students (the scale seed's
 * generator), e.g. for tests and demos on the demo seed. Grade at test time follows the cohort (roster rule).
 */
export async function addPlanWithResults(db: Db, opts: PlanResultsOptions): Promise<{ planId: string; results: number }> {
  const rnd = createRandom(opts.seed ?? 7);
  const semesterCode = opts.semesterCode ?? SEMESTER.autumn;
  const startDate = opts.startDate ?? (semesterCode === SEMESTER.autumn ? `${opts.schoolYear}-10-08` : `${opts.schoolYear + 1}-04-08`);
  const [year] = await db
    .select({ id: schoolYears.id })
    .from(schoolYears)
    .where(sql`${schoolYears.orgId} = ${opts.orgId} and ${schoolYears.startYear} = ${opts.schoolYear}`);
  if (!year) throw new Error(`addPlanWithResults: no school year ${opts.schoolYear} for ${opts.orgId}`);
  const list = await db
    .select({ id: students.id, gender: students.gender, classId: students.classId, className: classes.name, stage: grades.stage, enrolYear: grades.enrolYear })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(eq(students.orgId, opts.orgId));
  const planId = rnd.uuid();
  const lines: unknown[][] = [];
  const wanted = opts.classIds ? new Set(opts.classIds) : null;
  for (const st of list) {
    if (wanted && !wanted.has(st.classId)) continue;
    const grade = gradeInYear(st.stage as Stage, st.enrolYear, opts.schoolYear);
    if (grade == null || !rnd.chance(opts.tested ?? TESTED_SHARE)) continue;
    const raw = rawResults(rnd, grade as Grade, st.gender, newFitness(rnd), 0.3 * gaussian(rnd));
    const wide = wideFromScore(raw, scoreStudent({ grade: grade as Grade, gender: st.gender, results: raw })) as unknown as Record<string, unknown>;
    lines.push([rnd.uuid(), opts.orgId, planId, st.id, st.classId, grade, st.className, st.gender, startDate, ...WIDE_SCORE_FIELDS.map((f) => wide[f]), rnd.chance(opts.invalid ?? INVALID_SHARE), 'import', opts.schoolYear]);
  }
  await withBulkTransaction(db, async (s) => {
    await copyTable(s, testPlans, [
      {
        id: planId,
        orgId: opts.orgId,
        name: opts.name ?? `${opts.schoolYear}学年${semesterCode === SEMESTER.autumn ? '秋季' : '春季'}体质测试`,
        schoolYearId: year.id,
        semesterCode,
        startDate,
        endDate: startDate,
        scopeType: 'grade',
        standardVersion: '2014',
      },
    ]);
    await s.copyIn('physique_results', RESULT_COLUMNS, copyLines(lines, (r) => r));
  });
  return { planId, results: lines.length };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      students: { type: 'string', default: '20000' },
      districts: { type: 'string', default: '1' },
      years: { type: 'string', default: '3' },
      seed: { type: 'string' },
      'school-sizes': { type: 'string' },
      fresh: { type: 'boolean', default: false },
    },
  });
  const databaseUrl = process.env.DATABASE_URL;
  const pgliteDir = resolve(process.env.PGLITE_DIR ?? './data/scale');
  if (values.fresh && !databaseUrl) await rm(pgliteDir, { recursive: true, force: true });
  const handle = await openDb(databaseUrl ? { databaseUrl } : { pgliteDir });
  try {
    await migrateDb(handle);
    const summary = await seedScale(handle.db, {
      students: Number(values.students),
      years: Number(values.years),
      districts: Number(values.districts),
      seed: values.seed ? Number(values.seed) : undefined,
      schoolSizes: values['school-sizes'] ? values['school-sizes'].split(',').map(Number) : undefined,
      log: (m) => console.log(m),
    });
    const { schoolIds: _ids, districtIds: _districts, ...rest } = summary;
    console.log(`scale seed done in ${databaseUrl ? 'PostgreSQL' : pgliteDir}:`, rest);
  } finally {
    await handle.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('server/seed/scale.ts')) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
