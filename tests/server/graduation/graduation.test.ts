import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraduationCohort, GraduationPage, StudentHistory } from '@/domain/graduation/graduation';
import { pageAccess } from '@/domain/menus/access';
import { membershipRoles, memberships, menus, roleMenus, users } from '../../../server/db/schema/auth';
import { physiqueResults } from '../../../server/db/schema/physique';
import { physiqueExemptions } from '../../../server/db/schema/physique-year';
import { classes, grades, schoolYears, students } from '../../../server/db/schema/school';
import { testPlans } from '../../../server/db/schema/test-plans';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { pageTexts } from '../../support/pdf-text';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';
import { dataOf } from '../../support/factories';
import { demoOrgs } from '../physique-results/physique-fixtures';

/**
 * 毕业成绩 (docs/product-rules.md#physique-year: Graduation): a graduated senior cohort and a university cohort made
 * here with known year totals, so each student's score follows from the rule by hand.
 */
let t: TestApp;
let org: { k12: string; uni: string };
const ENROL = 2040; // years 2040–2042 (senior) and 2040–2043 (university): no demo data there
const ids: Record<string, string> = {};
let seniorGrade = '';
let seniorClass = '';
let uniGrade = '';

const api = (path: string, family = 'k12') => `/api/busi/web/${family}/physiqueManage/graduation/${path}`;

async function yearId(orgId: string, startYear: number): Promise<string> {
  const [found] = await t.db.select({ id: schoolYears.id }).from(schoolYears).where(and(eq(schoolYears.orgId, orgId), eq(schoolYears.startYear, startYear)));
  if (found) return found.id;
  const [made] = await t.db.insert(schoolYears).values({ orgId, academicYear: `${startYear}-${startYear + 1}`, startYear }).returning({ id: schoolYears.id });
  return made.id;
}

async function plan(orgId: string, startYear: number, retestOf: string | null = null): Promise<string> {
  const [p] = await t.db
    .insert(testPlans)
    .values({
      orgId,
      name: retestOf ? `${startYear}补测` : `${startYear}学年测试`,
      schoolYearId: await yearId(orgId, startYear),
      semesterCode: 13,
      startDate: retestOf ? `${startYear + 1}-03-01` : `${startYear}-10-08`,
      endDate: retestOf ? `${startYear + 1}-03-30` : `${startYear}-12-18`,
      scopeType: 'grade',
      retestOfPlanId: retestOf,
    })
    .returning({ id: testPlans.id });
  return p.id;
}

/** A cohort with one class and students whose totals per year are given (null: no result; 'exempt': approved 免测). */
async function cohort(orgId: string, stage: 'senior' | 'university', people: Record<string, (number | null | 'exempt' | { plan: number; retest: number })[]>) {
  const [g] = await t.db.insert(grades).values({ orgId, stage, enrolYear: ENROL, gradeNo: stage === 'senior' ? 12 : 16, graduated: true }).returning({ id: grades.id });
  const [c] = await t.db.insert(classes).values({ orgId, gradeId: g.id, code: 1, name: `${stage}毕业班` }).returning({ id: classes.id });
  const years = Object.values(people)[0].length;
  const plans: string[] = [];
  for (let i = 0; i < years; i++) plans.push(await plan(orgId, ENROL + i));
  let n = 0;
  for (const [name, totals] of Object.entries(people)) {
    const id = randomUUID();
    ids[name] = id;
    await t.db.insert(students).values({ id, orgId, classId: c.id, name, regNo: `G${stage}${++n}${Date.now()}`, gender: 'male', status: 'graduated' });
    for (const [i, v] of totals.entries()) {
      const gradeNo = (stage === 'senior' ? 10 : 13) + i;
      const result = (planId: string, total: number) => ({ orgId, planId, schoolYear: ENROL + i, studentId: id, classId: c.id, gradeNo, className: `${stage}毕业班`, gender: 'male' as const, source: 'import' as const, complete: true, standardScore: total, bonus: 0, total, level: (total >= 90 ? 'excellent' : total >= 80 ? 'good' : total >= 60 ? 'pass' : 'fail') as 'pass', run50m: 8.1, run50mScore: 70, run50mLevel: 'pass' });
      if (v === null) continue;
      if (v === 'exempt') {
        await t.db.insert(physiqueExemptions).values({ orgId, studentId: id, schoolYearId: await yearId(orgId, ENROL + i), kind: 'exempt', reason: '伤病', status: 'approved' });
      } else if (typeof v === 'number') {
        await t.db.insert(physiqueResults).values(result(plans[i], v));
      } else {
        await t.db.insert(physiqueResults).values(result(plans[i], v.plan));
        await t.db.insert(physiqueResults).values(result(await plan(orgId, ENROL + i, plans[i]), v.retest));
      }
    }
  }
  return { grade: g.id, cls: c.id };
}

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  org = await demoOrgs(t.db);
  const senior = await cohort(org.k12, 'senior', {
    三年齐全: [70, 80, 90],
    中间免测: [70, 'exempt', 90],
    毕业免测: [70, 80, 'exempt'],
    补测一年: [70, { plan: 50, retest: 65 }, 80],
    低于五十: [40, 45, 48],
    缺毕业年: [70, 80, null],
  });
  seniorGrade = senior.grade;
  seniorClass = senior.cls;
  uniGrade = (await cohort(org.uni, 'university', { 大学及格: [60, 60, 60, 40], 大学结业: [50, 50, 50, 45] })).grade;
});
afterAll(async () => {
  await t?.close();
});

const page = async (query: string, account = 'school01', family = 'k12') => dataOf(await t.as(account).get<GraduationPage>(api(`page?${query}`, family)));
const rowOf = (p: GraduationPage, name: string) => p.records.find((r) => r.name === name)!;

describe('graduation scores of a cohort', () => {
  it('scores the graduation year × 50 % + the mean of the other years × 50 %, leaving exempt years out', async () => {
    const p = await page(`gradeId=${seniorGrade}&size=50`);
    expect(p.cohort?.gradeId).toBe(seniorGrade);
    expect(p.years.map((y) => y.academicYear)).toEqual(['2040-2041', '2041-2042', '2042-2043']);
    expect(p.total).toBe(6);
    const all = rowOf(p, '三年齐全');
    expect(all.years.map((y) => y.total)).toEqual([70, 80, 90]);
    expect([all.score, all.level, all.outcome]).toEqual([82.5, 'good', 'scored']);
    // The exempt middle year is left out: 0.5 × 90 + 0.5 × 70, not a mean over three years.
    const middle = rowOf(p, '中间免测');
    expect(middle.years[1]).toMatchObject({ source: 'exempt', total: null });
    expect(middle.score).toBe(80);
    expect(middle.missingYears).toBe(0);
  });

  it('an exempt graduation year makes the record 免测; a graduation year without a result is missing', async () => {
    const p = await page(`gradeId=${seniorGrade}&size=50`);
    expect(rowOf(p, '毕业免测')).toMatchObject({ outcome: 'exempt', score: null, level: null, belowFifty: false });
    expect(rowOf(p, '缺毕业年')).toMatchObject({ outcome: 'missing', score: null });
    expect(p.summary).toMatchObject({ students: 6, scored: 4, exempt: 1, missing: 1, belowFifty: 1 });
  });

  it('counts a re-tested year as the rule says: a passing re-test is the pass mark, 60', async () => {
    const row = rowOf(await page(`gradeId=${seniorGrade}&size=50`), '补测一年');
    expect(row.years[1]).toMatchObject({ source: 'retest', total: 60, planTotal: 50, retestTotal: 65 });
    // 0.5 × 80 + 0.5 × (70 + 60) / 2
    expect(row.score).toBe(72.5);
  });

  it('lists the students below 50; senior school and university complete without graduating (结业/肄业)', async () => {
    const below = await page(`gradeId=${seniorGrade}&flag=belowFifty`);
    expect(below.records.map((r) => r.name)).toEqual(['低于五十']);
    // 0.5 × 48 + 0.5 × 42.5 = 45.25 → 45.3
    expect(below.records[0]).toMatchObject({ score: 45.3, level: 'fail', belowFifty: true, consequence: 'completion' });
    expect(below.summary.students).toBe(6); // the counts are the cohort's, not the filter's
    expect((await page(`gradeId=${seniorGrade}&flag=exempt`)).records.map((r) => r.name)).toEqual(['毕业免测']);
    expect((await page(`gradeId=${seniorGrade}&classId=${seniorClass}`)).total).toBe(6);

    const uni = await page(`gradeId=${uniGrade}&size=50`, 'college01', 'gx');
    expect(uni.years).toHaveLength(4);
    expect(uni.years.at(-1)?.gradeNo).toBe(16);
    // 0.5 × 40 + 0.5 × 60 = 50: not below 50.
    expect(rowOf(uni, '大学及格')).toMatchObject({ score: 50, belowFifty: false, consequence: null });
    expect(rowOf(uni, '大学结业')).toMatchObject({ score: 47.5, belowFifty: true, consequence: 'completion' });
  });

  it('offers the cohorts in their stage’s last grade this school year first (K12: grades 6, 9, 12; university: year 4), past ones after', async () => {
    const k12 = dataOf(await t.as('school01').get<GraduationCohort[]>(api('cohorts')));
    const current = k12.filter((c) => c.current);
    expect(current.map((c) => c.stage).sort()).toEqual(['junior', 'primary', 'senior']);
    const [{ startYear }] = await t.db.select({ startYear: schoolYears.startYear }).from(schoolYears).where(and(eq(schoolYears.orgId, org.k12), eq(schoolYears.current, true)));
    for (const c of current) expect(c.graduationYear).toBe(`${startYear}-${startYear + 1}`);
    expect(k12.find((c) => c.gradeId === seniorGrade)).toMatchObject({ current: false, graduationYear: '2042-2043' });
    expect(k12.findIndex((c) => !c.current)).toBe(current.length);
    // Without a cohort named, the list shows the first graduating one (senior school before junior and primary), with
    // the stage's school years the school has on record: the primary cohort's first three years predate the demo's.
    expect(current[0].stage).toBe('senior');
    const first = await page('size=10');
    expect(first.cohort?.gradeId).toBe(current[0].gradeId);
    expect(first.years.map((y) => y.gradeNo)).toEqual([10, 11, 12]);
    const primary = current.find((c) => c.stage === 'primary')!;
    expect(primary.startYears).toEqual([startYear - 2, startYear - 1, startYear]);
    expect((await page(`gradeId=${primary.gradeId}&size=10`)).years.map((y) => y.gradeNo)).toEqual([4, 5, 6]);

    const gx = dataOf(await t.as('college01').get<GraduationCohort[]>(api('cohorts', 'gx')));
    expect(gx.filter((c) => c.current).map((c) => c.stage)).toEqual(['university']);
    expect(gx.some((c) => c.gradeId === uniGrade)).toBe(true);
  });

  it('exports the list as a workbook with each year and the graduation score', async () => {
    const res = await t.as('school01').get(api(`export?gradeId=${seniorGrade}`));
    expect(res.status).toBe(200);
    const { rows } = await readXlsxRows(res.res.rawPayload);
    expect(rows[0]).toEqual(expect.arrayContaining(['姓名', '2040-2041学年总分', '2042-2043学年总分', '毕业成绩', '等级']));
    const line = rows.find((r) => r.includes('低于五十'))!;
    expect(line).toEqual(expect.arrayContaining([45.3, '不及格']));
    expect(line.join(' ')).toContain('结业或肄业');
    expect(rows.find((r) => r.includes('毕业免测'))!.join(' ')).toContain('免测');
    // Hidden list columns (the class, the other years, the flags) are left out, the rest in the list's order; gender stays.
    const shown = await t.as('school01').get(api(`export?gradeId=${seniorGrade}&columns=name,regNo,year2042,score,level`));
    expect((await readXlsxRows(shown.res.rawPayload)).rows[0]).toEqual(['姓名', '学籍号', '性别', '2042-2043学年总分', '毕业成绩', '等级']);
  });
});

describe('the graduation record card (PDF)', () => {
  it('prints one student in the 登记卡 layout: title, name, every year with its items, the graduation score', async () => {
    const res = await t.as('school01').get(api(`cards.pdf?studentId=${ids['补测一年']}`));
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toBe('application/pdf');
    const pdf = await PDFDocument.load(res.res.rawPayload);
    const pages = pageTexts(pdf);
    expect(pages).toHaveLength(1);
    const text = pages[0];
    expect(text).toContain('国家学生体质健康标准登记卡');
    expect(text).toContain('补测一年');
    for (const y of ['2040-2041', '2041-2042', '2042-2043']) expect(text).toContain(y);
    expect(text).toContain('50米跑');
    expect(text).toContain('72.5');
    expect(text).toContain('体育教师签字');
  });

  it('prints a whole class, a page per student; an exempt graduation year says 免测', async () => {
    const res = await t.as('school01').get(api(`cards.pdf?gradeId=${seniorGrade}&classId=${seniorClass}`));
    expect(res.status).toBe(200);
    const pages = pageTexts(await PDFDocument.load(res.res.rawPayload));
    expect(pages).toHaveLength(6);
    // A whole cohort is not printed in one request: a student or a class is named.
    for (const query of ['', `?gradeId=${seniorGrade}`]) {
      const none = await t.as('school01').get(api(`cards.pdf${query}`));
      expect([none.status, none.body.msg]).toEqual([400, '请选择要打印的学生或班级']);
    }
    const exempt = pages.find((p) => p.includes('毕业免测'))!;
    expect(exempt).toContain('毕业成绩注明免测');
  });
});

describe('a student’s physique history', () => {
  it('answers every school year with its items and the year’s result, and the graduation so far', async () => {
    const h = dataOf(await t.as('school01').get<StudentHistory>(api(`history/${ids['补测一年']}`)));
    expect(h.student.name).toBe('补测一年');
    expect(h.years.map((y) => [y.academicYear, y.total, y.source])).toEqual([
      ['2040-2041', 70, 'plan'],
      ['2041-2042', 60, 'retest'],
      ['2042-2043', 80, 'plan'],
    ]);
    expect(h.years[0].items).toContainEqual(expect.objectContaining({ item: 'run50m', raw: 8.1, score: 70 }));
    expect(h.graduation).toMatchObject({ outcome: 'scored', score: 72.5 });
    const exempt = dataOf(await t.as('school01').get<StudentHistory>(api(`history/${ids['中间免测']}`)));
    expect(exempt.years.map((y) => y.source)).toEqual(['plan', 'exempt', 'plan']);
  });
});

describe('tenancy and permissions', () => {
  it("answers 404 for another school's student or cohort", async () => {
    expect((await t.as('school02').get(api(`history/${ids['三年齐全']}`))).status).toBe(404);
    expect((await t.as('school02').get(api(`cards.pdf?studentId=${ids['三年齐全']}`))).status).toBe(404);
    expect((await t.as('school02').get(api(`page?gradeId=${seniorGrade}`))).status).toBe(404);
    expect((await t.as('college01').get(api(`history/${ids['三年齐全']}`, 'gx'))).status).toBe(404);
  });

  it('refuses printing without the print button (403), and the list and history still answer', async () => {
    const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'school01'));
    const ms = await t.db.select({ id: memberships.id }).from(memberships).where(eq(memberships.userId, user.id));
    const roleIds = (await t.db.select({ roleId: membershipRoles.roleId }).from(membershipRoles).where(inArray(membershipRoles.membershipId, ms.map((m) => m.id)))).map((r) => r.roleId);
    const printMenus = (await t.db.select({ menuId: menus.menuId }).from(menus).where(eq(menus.permission, pageAccess('k12.test.graduation').need('print')))).map((m) => m.menuId);
    expect(printMenus.length).toBeGreaterThan(0);
    const where = and(inArray(roleMenus.roleId, roleIds), inArray(roleMenus.menuId, printMenus));
    const kept = await t.db.select().from(roleMenus).where(where);
    await t.db.delete(roleMenus).where(where);
    try {
      expect((await t.as('school01').get(api(`cards.pdf?studentId=${ids['三年齐全']}`))).status).toBe(403);
      expect((await t.as('school01').get(api(`page?gradeId=${seniorGrade}`))).status).toBe(200);
      expect((await t.as('school01').get(api(`history/${ids['三年齐全']}`))).status).toBe(200);
    } finally {
      if (kept.length) await t.db.insert(roleMenus).values(kept);
    }
  });
});


