import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { WallSceneAnswer } from '@/domain/data-center/types';
import type { ScreenLinkCreated } from '@/domain/wall/wall';
import type { DistrictOverview } from '@/domain/data-center/district';
import { orgs } from '../../../server/db/schema/orgs';
import { students } from '../../../server/db/schema/school';
import { addPlanWithResults } from '../../../server/seed/scale';
import { createTestApp, type TestApp } from '../../support/server-app';
import { indicators, itemMeans, latestPerStudent, loadResults, near, type ResultRow } from './reference';

/**
 * The district view's charts (docs/product-rules.md#district-overview): levels and items per school, the trend over
 * school years per school and for the district, the weakest items, against an independent computation over the stored
 * results; tenant isolation; the district's wall scene.
 */

let t: TestApp;
const tokens: Record<string, string> = {};
/** A school moved to another district: its figures must never reach district01. */
let foreign: { id: string; name: string };

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['district01', 'school01']) tokens[account] = (await t.login(account)).access_token;
  const schools = await t.db.select({ id: orgs.id, name: orgs.name, type: orgs.type }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12));
  expect(schools.length).toBeGreaterThan(1);
  // A second bureau with one of the seeded K12 schools (results, plans and all), and an earlier school year of
  // results in a school that stays, so the trend has two years.
  const [other] = await t.db.insert(orgs).values({ type: ORG_TYPE.management, code: 'other-bureau', name: '另一教育局' }).returning({ id: orgs.id });
  foreign = schools.at(-1)!;
  await t.db.update(orgs).set({ parentId: other.id }).where(eq(orgs.id, foreign.id));
  await t.db.update(orgs).set({ name: '<img src=x onerror=alert(1)>外区学校' }).where(eq(orgs.id, foreign.id));
  const view = await overview();
  const year = view.period.schoolYear!;
  const tested = view.schools.find((s) => s.tested > 0)!;
  const [{ n }] = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from school_years where org_id = ${tested.orgId}::uuid and start_year = ${year - 1}`)).rows;
  if (n > 0) await addPlanWithResults(t.db, { orgId: tested.orgId, schoolYear: year - 1, seed: 11, invalid: 0.02 });
  await addPlanWithResults(t.db, { orgId: foreign.id, schoolYear: year, semesterCode: 11, seed: 12, invalid: 0 });
});
afterAll(() => t?.close());

const URL = '/api/busi/web/admin/dataCenter/overview';
async function overview(query = ''): Promise<DistrictOverview> {
  const res = await t.request({ url: `${URL}${query}`, token: tokens.district01 });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<DistrictOverview>>().data;
}

function expectItems(actual: DistrictOverview['total']['items'], rows: ResultRow[], label: string) {
  const ref = itemMeans(rows);
  expect(Object.keys(actual).sort(), label).toEqual(Object.keys(ref).sort());
  for (const [item, r] of Object.entries(ref)) {
    const a = actual[item as keyof typeof actual]!;
    expect(a.n, `${label} ${item}`).toBe(r.n);
    expect(near(a.meanScore, r.mean), `${label} ${item}: ${a.meanScore} vs ${r.mean}`).toBe(true);
    expect(a.failRate, `${label} ${item}`).toBe(r.failRate);
  }
}

describe('district view charts', () => {
  it('gives each school its level distribution and item means, and the weakest items of the district, as a direct computation does', async () => {
    const results = await loadResults(t.db);
    for (const gender of [undefined, 'male'] as const) {
      const view = await overview(gender ? `?gender=${gender}` : '');
      const year = view.period.schoolYear!;
      expect(view.filters).toMatchObject({ schoolYear: year, ...(gender ? { gender } : {}) });
      const ids = view.schools.map((s) => s.orgId);
      for (const row of view.schools) {
        const rows = latestPerStudent(results, { orgIds: [row.orgId], year, gender });
        expect(row.levels, row.name).toEqual(indicators(rows, null).levels);
        expectItems(row.items, rows, row.name);
      }
      const all = latestPerStudent(results, { orgIds: ids, year, gender });
      expect(view.total.levels).toEqual(indicators(all, null).levels);
      expectItems(view.total.items, all, 'district');
      const weakest = Object.entries(itemMeans(all))
        .filter(([item]) => item !== 'bmi')
        .map(([item, r]) => ({ item, mean: r.mean }))
        .sort((a, b) => a.mean - b.mean);
      // Weakest first (means to one decimal: equal ones may come in either order).
      expect(view.weakestItems.map((w) => w.item).sort()).toEqual(weakest.map((w) => w.item).sort());
      view.weakestItems.forEach((w, i) => {
        expect(near(w.meanScore, itemMeans(all)[w.item]!.mean), w.item).toBe(true);
        if (i > 0) expect(w.meanScore).toBeGreaterThanOrEqual(view.weakestItems[i - 1]!.meanScore);
      });
      expect(near(view.weakestItems[0]!.meanScore, weakest[0]!.mean)).toBe(true);
    }
  });

  it('follows every school year with results: the district and each school, oldest first', async () => {
    const results = await loadResults(t.db);
    const view = await overview();
    const ids = view.schools.map((s) => s.orgId);
    const years = [...new Set(results.filter((r) => !r.invalid && ids.includes(r.orgId)).map((r) => r.schoolYear))].sort();
    expect(years.length).toBeGreaterThan(1);
    expect(view.trend.map((p) => p.schoolYear)).toEqual(years);
    for (const point of view.trend) {
      const ref = indicators(latestPerStudent(results, { orgIds: ids, year: point.schoolYear }), null);
      expect(point.indicators).toMatchObject({ tested: ref.tested, assessed: ref.assessed, excellentRate: ref.excellentRate, passRate: ref.passRate });
      expect(near(point.indicators.meanTotal, ref.meanTotal)).toBe(true);
      const schoolsTested = ids.filter((id) => latestPerStudent(results, { orgIds: [id], year: point.schoolYear }).length > 0);
      expect(point.schools.map((s) => s.orgId).sort()).toEqual(schoolsTested.sort());
      for (const s of point.schools) {
        const own = indicators(latestPerStudent(results, { orgIds: [s.orgId], year: point.schoolYear }), null);
        expect(s.tested).toBe(own.tested);
        expect(s.passRate).toBe(own.passRate);
        expect(near(s.meanTotal, own.meanTotal), `${s.orgId} ${point.schoolYear}`).toBe(true);
      }
    }
  });

  it("never shows another district's school, and is not for a school administrator", async () => {
    const view = await overview();
    const body = JSON.stringify(view);
    expect(body).not.toContain(foreign.id);
    expect(body).not.toContain('外区学校');
    for (const p of view.trend) expect(p.schools.map((s) => s.orgId)).not.toContain(foreign.id);
    // The district's figures are its own schools' only: the moved school's results are not in the total.
    const results = await loadResults(t.db);
    const year = view.period.schoolYear!;
    const mine = indicators(latestPerStudent(results, { orgIds: view.schools.map((s) => s.orgId), year }), null);
    expect(view.total.tested).toBe(mine.tested);
    expect(mine.tested).toBeLessThan(indicators(latestPerStudent(results, { orgIds: [...view.schools.map((s) => s.orgId), foreign.id], year }), null).tested);

    expect((await t.request({ url: URL, token: tokens.school01 })).statusCode).toBe(403);
    // The district's wall scene cannot be put on a school's wall.
    const res = await t.request({
      method: 'POST',
      url: '/api/busi/web/k12/dataCenter/screenLink',
      token: tokens.school01,
      payload: { name: '操场大屏', playlist: { scenes: ['schoolOverview', 'districtSchools'] } },
    });
    expect(res.statusCode, res.body).toBe(400);
  });
});

describe("the district's wall scene", () => {
  it('shows counts and school figures of the district only, never a student', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/busi/web/admin/dataCenter/screenLink',
      token: tokens.district01,
      payload: { name: '教育局大屏', playlist: { scenes: ['districtSchools', 'classRanking'] } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json<Envelope<ScreenLinkCreated>>().data;
    const scene = await t.request({ url: `/api/screen/${link.token}/scene/districtSchools` });
    expect(scene.statusCode, scene.body).toBe(200);
    const answer = scene.json<Envelope<WallSceneAnswer>>().data;
    const view = await overview();
    expect(answer.data).toEqual({ scene: 'districtSchools', total: view.total, schools: view.schools });
    expect(scene.body).not.toContain(foreign.id);
    // No student's name (nor id) is in the answer.
    const names = await t.db.select({ id: students.id, name: students.name }).from(students);
    const hits = names.filter((s) => scene.body.includes(`"${s.name}"`) || scene.body.includes(s.id));
    expect(hits).toEqual([]);
  });
});
