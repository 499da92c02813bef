import { and, eq } from 'drizzle-orm';
import jsQR from 'jsqr';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageAccess } from '@/domain/menus/access';
import type { PlanFormOptions } from '@/domain/test-plans/types';
import { testCardCode } from '@/domain/test-day/test-card';
import type { TestSheetOptions } from '@/domain/test-day/test-sheets';
import { membershipRoles, memberships, menus, roleMenus, users } from '../../../server/db/schema/auth';
import { createClass, createStudent, currentGrade, dataOf, DEMO, nextSerial } from '../../support/factories';
import { pageTexts } from '../../support/pdf-text';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';

/** docs/product-rules.md#physique-year, "Test sheets": test cards and station rosters through HTTP. */
let t: TestApp;
const PLANS = '/api/busi/web/k12/organizeTest/testManage';
const sheets = (planId: string, rest: string) => `/api/busi/web/k12/physiqueManage/testDay/sheets/${planId}/${rest}`;

interface Made {
  planId: string;
  planName: string;
  /** A primary class (grade 1) and a junior class (grade 7) with their students. */
  young: { id: string; students: { regNo: string; name: string }[] };
  older: { id: string; students: { regNo: string; name: string }[] };
}
let made: Made;

async function classWithStudents(gradeNo: number, n: number) {
  const gradeId = (await currentGrade(t, { gradeNo })).id;
  const cls = await createClass(t, { gradeId, name: `打印${nextSerial()}班` });
  const list = [];
  for (let i = 0; i < n; i++) list.push(await createStudent(t, { classId: cls.id, gender: i % 2 ? 'female' : 'male' }));
  return { id: cls.id, students: list };
}

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  const young = await classWithStudents(1, 3);
  const older = await classWithStudents(7, 4);
  const options = dataOf(await t.as(DEMO.school).get<PlanFormOptions>(`${PLANS}/options`));
  const year = options.schoolYears.find((y) => y.current)!;
  const today = new Date(t.clock.now()).toISOString().slice(0, 10);
  const planName = `测试日计划${nextSerial()}`;
  const plan = dataOf(
    await t.as(DEMO.school).post<{ id: string }>(`${PLANS}/add`, {
      name: planName,
      schoolYearId: year.id,
      semesterCode: 13,
      startDate: today,
      endDate: today,
      scopeType: 'class',
      scopeIds: [young.id, older.id],
    }),
  );
  made = { planId: plan.id, planName, young, older };
});
afterAll(async () => {
  await t?.close();
});

const pdfOf = async (url: string, account: string = DEMO.school) => {
  const res = await t.request({ url, token: await t.as(account).token(), headers: { 'accept-language': 'zh-CN' } });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return { res, pdf: await PDFDocument.load(res.rawPayload) };
};

/**
 * Every QR code drawn on a page, read back with jsQR: each is a form XObject of dark rectangles in module units
 * (server/modules/test-day/test-sheets-pdf.ts), drawn here into a bitmap with a quiet zone.
 */
function qrTexts(pdf: PDFDocument, pageIndex: number): string[] {
  const page = pdf.getPages()[pageIndex];
  const xobjects = page.node.Resources()?.lookup(PDFName.of('XObject'), PDFDict);
  const out: string[] = [];
  for (const [, ref] of xobjects?.entries() ?? []) {
    const stream = pdf.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) continue;
    const box = stream.dict.lookup(PDFName.of('BBox'), PDFArray);
    const size = (box.lookup(2, PDFNumber) as PDFNumber).asNumber();
    const ops = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
    const px = 4;
    const side = (size + 8) * px;
    const rgba = new Uint8ClampedArray(side * side * 4).fill(255);
    for (const m of ops.matchAll(/(\d+) (\d+) (\d+) 1 re/g)) {
      const [c, yUp, w] = [Number(m[1]), Number(m[2]), Number(m[3])];
      const row = size - 1 - yUp;
      for (let y = (row + 4) * px; y < (row + 5) * px; y++) {
        for (let x = (c + 4) * px; x < (c + 4 + w) * px; x++) rgba.fill(0, (y * side + x) * 4, (y * side + x) * 4 + 3);
      }
    }
    const code = jsQR(rgba, side, side);
    if (code) out.push(code.data);
  }
  return out;
}

describe('test cards (PDF)', () => {
  it('prints a class on one A4 page: each student’s name and 学籍号, the plan, and a QR code a station reads back', async () => {
    const { res, pdf } = await pdfOf(sheets(made.planId, `cards.pdf?classId=${made.older.id}`));
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain(`${made.planName}-测试卡-`);
    expect(pdf.getPageCount()).toBe(1);
    const [w, h] = [pdf.getPages()[0].getWidth(), pdf.getPages()[0].getHeight()];
    expect([Math.round(w), Math.round(h)]).toEqual([595, 842]);
    const text = pageTexts(pdf)[0];
    expect(text).toContain(made.planName);
    for (const s of made.older.students) {
      expect(text).toContain(s.regNo);
      expect(text).toContain(s.name);
    }
    for (const s of made.young.students) expect(text).not.toContain(s.regNo);
    expect(qrTexts(pdf, 0).sort()).toEqual(made.older.students.map((s) => testCardCode(made.planId, s.regNo)).sort());
  });

  it('prints every class of the plan, a page per class', async () => {
    const { pdf } = await pdfOf(sheets(made.planId, 'cards.pdf'));
    expect(pdf.getPageCount()).toBe(2);
    const pages = pageTexts(pdf);
    // Classes by grade: the grade-1 class first.
    for (const s of made.young.students) expect(pages[0]).toContain(s.regNo);
    for (const s of made.older.students) expect(pages[1]).toContain(s.regNo);
    expect(qrTexts(pdf, 0)).toHaveLength(made.young.students.length);
  });
});

describe('station roster (PDF)', () => {
  it('lists by class only the students whose grade takes the station’s items, with blank value and signature columns', async () => {
    // 立定跳远 is tested from grade 5 on (the standard's items per grade), so the grade-1 class is not on the roster.
    const { pdf } = await pdfOf(sheets(made.planId, 'roster.pdf?items=standingLongJump,sitAndReach'));
    const text = pageTexts(pdf).join('\n');
    expect(text).toContain('测试站名册');
    expect(text).toContain('立定跳远\n（厘米）');
    expect(text).toContain('坐位体前屈\n（厘米）');
    expect(text).toContain('学生签字');
    for (const s of made.older.students) expect(text).toContain(s.regNo);
    // 坐位体前屈 is every grade's item: the grade-1 class is listed, on a page of its own, with that column only.
    const pages = pageTexts(pdf);
    expect(pages).toHaveLength(2);
    for (const s of made.young.students) expect(pages[0]).toContain(s.regNo);
    expect(pages[0]).not.toContain('立定跳远\n（厘米）');

    const jump = pageTexts((await pdfOf(sheets(made.planId, 'roster.pdf?items=standingLongJump'))).pdf).join('\n');
    for (const s of made.older.students) expect(jump).toContain(s.regNo);
    for (const s of made.young.students) expect(jump).not.toContain(s.regNo);
  });

  it('measures BMI as height and weight', async () => {
    const text = pageTexts((await pdfOf(sheets(made.planId, `roster.pdf?items=bmi&classId=${made.young.id}`))).pdf).join('\n');
    expect(text).toContain('身高\n（厘米）');
    expect(text).toContain('体重\n（千克）');
    for (const s of made.young.students) expect(text).toContain(s.regNo);
  });

  it('refuses a roster without items, an unknown item, or one no student of the class takes, with a translated message', async () => {
    const none = await t.as(DEMO.school).get(sheets(made.planId, 'roster.pdf'));
    expect(none.status).toBe(400);
    expect(none.body.msg).toContain('请选择测试站的测试项目');
    const unknown = await t.as(DEMO.school).get(sheets(made.planId, 'roster.pdf?items=swim'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toContain('测试项目无效');
    const nobody = await t.as(DEMO.school).get(sheets(made.planId, `roster.pdf?items=run1000m&classId=${made.young.id}`));
    expect(nobody.status).toBe(400);
    expect(nobody.body.msg).toContain('没有可打印的学生');
  });
});

describe('who may print', () => {
  it('offers the plan’s classes and items to the print dialog', async () => {
    const options = dataOf(await t.as(DEMO.school).get<TestSheetOptions>(sheets(made.planId, 'options')));
    expect(options.planName).toBe(made.planName);
    expect(options.classes.map((c) => [c.id, c.students])).toEqual([
      [made.young.id, 3],
      [made.older.id, 4],
    ]);
    expect(options.items).toContain('standingLongJump');
    expect(options.items).toContain('rope1min');
  });

  it('answers 404 for another school’s plan, and for a class outside the plan', async () => {
    for (const rest of ['options', 'cards.pdf', 'roster.pdf?items=bmi']) {
      expect((await t.as(DEMO.school2).get(sheets(made.planId, rest))).status).toBe(404);
    }
    // A university's console (gx) serves the same routes for its own plans only.
    expect((await t.as(DEMO.college).get(`/api/busi/web/gx/physiqueManage/testDay/sheets/${made.planId}/options`)).status).toBe(404);
    const other = await classWithStudents(7, 1);
    expect((await t.as(DEMO.school).get(sheets(made.planId, `cards.pdf?classId=${other.id}`))).status).toBe(404);
  });

  it('answers 403 without the test-day page’s print button', async () => {
    const [teacher] = await t.db
      .select({ roleId: membershipRoles.roleId })
      .from(users)
      .innerJoin(memberships, eq(memberships.userId, users.id))
      .innerJoin(membershipRoles, eq(membershipRoles.membershipId, memberships.id))
      .where(eq(users.accountNum, DEMO.teacher));
    const [button] = await t.db.select({ menuId: menus.menuId }).from(menus).where(eq(menus.permission, pageAccess('k12.test.testDay').need('print')));
    await t.db.delete(roleMenus).where(and(eq(roleMenus.roleId, teacher.roleId), eq(roleMenus.menuId, button.menuId)));
    for (const rest of ['options', 'cards.pdf', 'roster.pdf?items=bmi']) {
      expect((await t.as(DEMO.teacher).get(sheets(made.planId, rest))).status).toBe(403);
    }
    await t.db.insert(roleMenus).values({ roleId: teacher.roleId, menuId: button.menuId });
    expect((await t.as(DEMO.teacher).get(sheets(made.planId, 'options'))).status).toBe(200);
  });

  it('keeps to the caller’s data scope: a teacher who sees only their classes prints only those', async () => {
    // myclass01's role sees the classes they teach (docs/product-rules.md#data-scopes), none of this plan's.
    const options = dataOf(await t.as('myclass01').get<TestSheetOptions>(sheets(made.planId, 'options')));
    expect(options.classes).toEqual([]);
    expect((await t.as('myclass01').get(sheets(made.planId, `cards.pdf?classId=${made.older.id}`))).status).toBe(404);
    expect((await t.as('myclass01').get(sheets(made.planId, 'cards.pdf'))).status).toBe(400);
  });
});
