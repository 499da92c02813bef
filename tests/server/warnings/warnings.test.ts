/**
 * Physique warnings (docs/product-rules.md#warnings) through HTTP on the demo: each kind and its threshold, an exempt
 * student left out, the list's filters and export, tenancy, data scope and permissions.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import { pageAccess } from '@/domain/menus/access';
import { WARNING_KINDS, type WarningRow, type WarningSettingsRow, type WarningSummary } from '@/domain/warnings/warnings';
import { menus, roleMenus } from '../../../server/db/schema/auth';
import { physiqueExemptions } from '../../../server/db/schema/physique-year';
import { schoolYears } from '../../../server/db/schema/school';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';
import { dataOf, orgOf } from '../../support/factories';

const K12 = '/api/busi/web/k12/physiqueManage/warning';
const GX = '/api/busi/web/gx/physiqueManage/warning';
let t: TestApp;

const list = async (account: string, query = '', base = K12) => dataOf<Page<WarningRow>>(await t.as(account).get(`${base}/warnings?current=1&size=80${query}`));
const totalOf = async (account: string, query = '', base = K12) => (await list(account, query, base)).total;
const settings = async (account = 'school01', base = K12) => dataOf<WarningSettingsRow>(await t.as(account).get(`${base}/settings`));
const save = (body: Record<string, unknown>, account = 'school01', base = K12) => t.as(account).put(`${base}/settings`, body);

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
});
afterAll(async () => {
  await t?.close();
});

describe('warning list', () => {
  it('the demo K12 school and the university warn of every kind', async () => {
    for (const [account, base] of [['school01', K12], ['college01', GX]] as const) {
      for (const kind of WARNING_KINDS) expect(await totalOf(account, `&kind=${kind}`, base), `${account} ${kind}`).toBeGreaterThan(0);
    }
  });

  it('uses the defaults until the school saves its own thresholds', async () => {
    const s = await settings();
    expect(s).toMatchObject({ declinePoints: 10, bmiBands: ['obese', 'lowWeight'], failingItem: true, missing: true, version: 0 });
  });

  it('a failing-item warning names the failed items; a BMI warning its band; a decline the two totals', async () => {
    const failing = (await list('school01', '&kind=failingItem')).records;
    expect(failing.every((r) => r.items.length > 0)).toBe(true);
    const bmi = (await list('school01', '&kind=bmi')).records;
    expect(new Set(bmi.map((r) => r.bmiBand))).toEqual(new Set(['obese', 'lowWeight']));
    const decline = (await list('school01', '&kind=decline')).records;
    for (const r of decline) {
      expect(r.lastTotal! - r.thisTotal!).toBeGreaterThan(10);
      expect(r.declinePoints).toBeCloseTo(r.lastTotal! - r.thisTotal!, 1);
    }
  });

  it('each threshold changes the list: decline points, BMI bands, failing items and missing switched off', async () => {
    const before = { decline: await totalOf('school01', '&kind=decline'), bmi: await totalOf('school01', '&kind=bmi') };
    let s = await settings();
    // A higher decline threshold warns fewer; a lower one more.
    expect((await save({ declinePoints: 25, bmiBands: s.bmiBands, failingItem: true, missing: true, version: s.version })).status).toBe(200);
    const fewer = await totalOf('school01', '&kind=decline');
    expect(fewer).toBeLessThan(before.decline);
    s = await settings();
    expect(s.version).toBe(1);
    expect((await save({ declinePoints: 3, bmiBands: ['obese', 'overweight', 'lowWeight'], failingItem: false, missing: false, version: s.version })).status).toBe(200);
    expect(await totalOf('school01', '&kind=decline')).toBeGreaterThan(before.decline);
    // Overweight now warns too.
    expect(await totalOf('school01', '&kind=bmi')).toBeGreaterThan(before.bmi);
    expect((await list('school01', '&kind=bmi')).records.some((r) => r.bmiBand === 'overweight')).toBe(true);
    expect(await totalOf('school01', '&kind=failingItem')).toBe(0);
    expect(await totalOf('school01', '&kind=missing')).toBe(0);
    // Another school keeps its own (the defaults).
    expect(await totalOf('college01', '&kind=missing', GX)).toBeGreaterThan(0);
    // A stale form is refused; bad input changes nothing.
    expect((await save({ declinePoints: 10, bmiBands: [], failingItem: true, missing: true, version: 1 })).status).toBe(409);
    const bad = await save({ declinePoints: 0, bmiBands: [], failingItem: true, missing: true, version: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('下滑分值须在 1–100 之间');
    s = await settings();
    expect(s.declinePoints).toBe(3);
    // Back to the defaults for the other tests.
    expect((await save({ declinePoints: 10, bmiBands: ['obese', 'lowWeight'], failingItem: true, missing: true, version: s.version })).status).toBe(200);
    expect(await totalOf('school01', '&kind=decline')).toBe(before.decline);
  });

  it('an approved exempt student is not warned; a pending request changes nothing', async () => {
    const [row] = (await list('school01', '&kind=failingItem')).records;
    const { orgId } = await orgOf(t, 'school01');
    const [year] = await t.db.select({ id: schoolYears.id }).from(schoolYears).where(and(eq(schoolYears.orgId, orgId), eq(schoolYears.current, true)));
    const [request] = await t.db
      .insert(physiqueExemptions)
      .values({ orgId, studentId: row.studentId, schoolYearId: year.id, kind: 'exempt', reason: '骨折', status: 'pending' })
      .returning();
    const ofStudent = async () => (await list('school01', `&classId=${row.classId}`)).records.filter((r) => r.studentId === row.studentId);
    expect((await ofStudent()).length).toBeGreaterThan(0);
    await t.db.update(physiqueExemptions).set({ status: 'approved' }).where(eq(physiqueExemptions.id, request.id));
    expect(await ofStudent()).toEqual([]);
    await t.db.delete(physiqueExemptions).where(eq(physiqueExemptions.id, request.id));
  });

  it('filters by grade and class, and pages', async () => {
    const all = await list('school01');
    const { gradeNo, classId } = all.records[0];
    const grade = await list('school01', `&gradeNo=${gradeNo}`);
    expect(grade.total).toBeLessThan(all.total);
    expect(grade.records.every((r) => r.gradeNo === gradeNo)).toBe(true);
    const cls = await list('school01', `&classId=${classId}`);
    expect(cls.records.every((r) => r.classId === classId)).toBe(true);
    const page2 = dataOf<Page<WarningRow>>(await t.as('school01').get(`${K12}/warnings?current=2&size=10`));
    expect(page2.records.map((r) => r.id)).toEqual(all.records.slice(10, 20).map((r) => r.id));
    expect((await t.as('school01').get(`${K12}/warnings?current=1&size=10&kind=nope`)).status).toBe(400);
  });

  it('exports the filtered list as a workbook', async () => {
    const res = await t.as('school01').get(`${K12}/export?kind=bmi`);
    expect(res.status).toBe(200);
    const { rows } = await readXlsxRows(res.res.rawPayload);
    expect(rows[0]).toEqual(['年级', '班级', '姓名', '学籍号', '预警类型', '预警内容', '跟进状态', '跟进教师']);
    expect(rows.length - 1).toBe(await totalOf('school01', '&kind=bmi'));
    expect(rows.slice(1).every((r) => r[4] === 'BMI 异常')).toBe(true);
    // A column the list hides (the teacher) is left out, the rest in the list's order; the grade keeps its place.
    const shown = await t.as('school01').get(`${K12}/export?kind=bmi&columns=kind,name,className,detail,caseStatus`);
    expect((await readXlsxRows(shown.res.rawPayload)).rows[0]).toEqual(['年级', '预警类型', '姓名', '学籍号', '班级', '预警内容', '跟进状态']);
  });

  it("a class-scoped teacher sees only their classes' students", async () => {
    const all = await list('school01');
    const mine = await list('myclass01');
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.total).toBeLessThan(all.total);
    const classes = new Set(mine.records.map((r) => r.classId));
    expect(classes.size).toBeLessThanOrEqual(2);
    const summary = dataOf<WarningSummary>(await t.as('myclass01').get(`${K12}/summary`));
    expect(summary.students).toBe(new Set((await list('myclass01', '', K12)).records.map((r) => r.studentId)).size);
  });

  it('another school sees its own warnings only', async () => {
    const theirs = await list('school01');
    const mine = await list('school02');
    const ids = new Set(theirs.records.map((r) => r.studentId));
    expect(mine.records.some((r) => ids.has(r.studentId))).toBe(false);
  });

  it('refuses the settings without the setting button, and the export without export (403)', async () => {
    const s = await settings();
    const codes = [pageAccess('k12.test.warning').need('setting'), pageAccess('k12.test.warning').need('export')];
    const menuIds = (await t.db.select({ id: menus.menuId }).from(menus).where(inArray(menus.permission, codes))).map((m) => m.id);
    const kept = await t.db.select().from(roleMenus).where(inArray(roleMenus.menuId, menuIds));
    await t.db.delete(roleMenus).where(inArray(roleMenus.menuId, menuIds));
    try {
      t.signInAgain();
      expect((await save({ declinePoints: 12, bmiBands: [], failingItem: true, missing: true, version: s.version })).status).toBe(403);
      expect((await t.as('school01').get(`${K12}/export`)).status).toBe(403);
      expect((await t.as('school01').get(`${K12}/warnings?current=1&size=10`)).status).toBe(200);
    } finally {
      await t.db.insert(roleMenus).values(kept);
      t.signInAgain();
    }
    expect((await settings()).declinePoints).toBe(10);
  });
});
