import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { formatMark } from '@/domain/meets/marks';
import { meetRecords, meets } from '../../../server/db/schema/meets';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';
import { pageTexts } from '../../support/pdf-text';

let t: TestApp;
let springId: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  for (const account of ['school01']) tokens[account] = (await t.login(account)).access_token;
  springId = (await t.db.select({ id: meets.id }).from(meets).where(eq(meets.name, '2026年春季田径运动会')))[0].id;
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, account = 'school01', lang = 'zh-CN') => t.request({ url: `/api/busi/web/k12/sportsMeet/${url}`, token: tokens[account], headers: { 'accept-language': lang } });

interface Points {
  classes: { name: string; points: number; rank: number }[];
  lines: { eventName: string; groupName: string; name: string; className: string; place: number; mark: string; points: number }[];
}

describe('meet results book and points tables (PDF)', () => {
  it('the results book prints every event’s final results with their marks and points, the records set and the points tables', async () => {
    const res = await get(`${springId}/results-book.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain('2026年春季田径运动会-成绩册.pdf');
    const pdf = await PDFDocument.load(res.rawPayload);
    const pages = pageTexts(pdf);
    expect(pages.length).toBe(pdf.getPageCount());
    expect(pages.length).toBeGreaterThan(1);
    const text = pages.join('\n');
    expect(pages[0]).toContain('2026年春季田径运动会');
    expect(pages[0]).toContain('成绩册');
    expect(pages.at(-1)).toContain(`第 ${pages.length} 页 / 共 ${pages.length} 页`);

    // Every scoring line of the points screen is in the book: event, athlete, mark and points.
    const points = (await get(`${springId}/points`)).json<Envelope<Points>>().data;
    expect(points.lines.length).toBeGreaterThan(0);
    for (const section of ['各项目决赛成绩', '破纪录', '积分统计', '班级团体总分', '年级团体总分', '个人总分']) expect(text).toContain(section);
    const first = points.lines[0];
    expect(text).toContain(`${first.groupName} ${first.eventName}`);
    const lines = text.split('\n');
    // A row is drawn cell by cell: place, name, class, mark, points follow one another.
    for (const l of points.lines.slice(0, 10)) {
      const at = lines.findIndex((x, i) => x === String(l.place) && lines[i + 1] === l.name && lines[i + 2] === l.className);
      expect(at, `${l.eventName} ${l.name}`).toBeGreaterThanOrEqual(0);
      expect(lines[at + 3]).toBe(l.mark);
      expect(lines[at + 4]).toBe(String(l.points));
    }
    // The class totals as on the points screen.
    const top = points.classes[0];
    const ci = lines.findIndex((x, i) => x === String(top.rank) && lines[i + 1] === top.name && lines[i + 2] === String(top.points));
    expect(ci).toBeGreaterThanOrEqual(0);

    // Records set at the meet, with their marks.
    const records = await t.db.select().from(meetRecords).where(and(eq(meetRecords.meetId, springId)));
    for (const r of records) expect(text).toContain(formatMark(r.resultKind, r.mark));
    if (!records.length) expect(text).toContain('本届运动会未打破纪录');
  });

  it('the points tables alone, in the reader’s language; an unknown meet is 404', async () => {
    const res = await get(`${springId}/points-table.pdf`, 'school01', 'en-US');
    expect(res.statusCode).toBe(200);
    const pdf = await PDFDocument.load(res.rawPayload);
    const text = pageTexts(pdf).join('\n');
    expect(text).toContain('Points tables');
    expect(text).toContain('Grade totals');
    expect(text).not.toContain('Final results by event');
    expect(pdf.getPageCount()).toBeLessThan((await PDFDocument.load((await get(`${springId}/results-book.pdf`)).rawPayload)).getPageCount());

    expect((await get(`00000000-0000-4000-8000-000000000000/results-book.pdf`)).statusCode).toBe(404);
  });
});
