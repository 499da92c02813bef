import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEMESTER } from '@/domain/constants';
import { isGrade } from '@/domain/physique/standard';
import { LEVEL_FILTERS, type ScoreFilter } from '@/domain/physique-results/schemas';
import { physiqueResults } from '../../../server/db/schema/physique';
import { testPlans } from '../../../server/db/schema/test-plans';
import { WHOLE_ORG } from '../../../server/lib/data-scope';
import { orderedResults, resultFilter, searchResults, summaryAndGroups, type Caller, type ResultGroup } from '../../../server/modules/physique-results/physique-results.service';
import { createTestApp, type TestApp } from '../../support/server-app';
import { createPlan, demoOrgs, multipartBody, someStudents, templateFor, xlsxOf } from './physique-fixtures';
import { importJob } from '../../support/jobs';

/**
 * The score list reads its summary and counts per (plan, grade, class) from physique_result_counts (kept by triggers)
 * whenever the filter names no student. For random filters, callers and scopes, after invalidations and a binned plan,
 * that summary and those groups equal the ones read from the results, and the pages hold the rows of the full sort.
 */

let t: TestApp;
let token: string;
let org: { bureau: string; k12: string; uni: string };

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  token = (await t.login('school01')).access_token;
  org = await demoOrgs(t.db);
});
afterAll(async () => {
  await t?.close();
});

const post = (path: string, payload?: Record<string, unknown>) =>
  t.request({ method: 'POST', url: `/api/busi/web/k12/${path}`, token, ...(payload ? { payload } : {}) });

/** A small deterministic generator, so a failure replays. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => ((s = (s * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32);
  return { next, pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] };
}

const caller = (family: Caller['family'], tenantOrgId: string, classScope: Caller['classScope'] = WHOLE_ORG): Caller => ({
  family,
  tenantOrgId,
  userId: '00000000-0000-0000-0000-000000000000',
  classScope,
});

async function expectSameAsResults(who: Caller, f: ScoreFilter, label: string): Promise<void> {
  const counts = await summaryAndGroups(t.db, who, f, 'counts');
  const results = await summaryAndGroups(t.db, who, f, 'results');
  expect(counts.summary, label).toEqual(results.summary);
  // Groups that tie on the list's order (start date, grade, class code) come in either order; the pages take them together.
  const key = (g: ResultGroup) => `${g.startDate}|${String(g.gradeNo).padStart(2, '0')}|${String(g.code).padStart(6, '0')}`;
  const byId = (gs: ResultGroup[]) => [...gs].sort((a, b) => `${a.planId}${a.gradeNo}${a.classId}`.localeCompare(`${b.planId}${b.gradeNo}${b.classId}`));
  expect(byId(counts.groups), label).toEqual(byId(results.groups));
  expect(counts.groups.map(key), label).toEqual(results.groups.map(key));
  const size = 20;
  const last = Math.max(1, Math.ceil(results.summary.matched / size));
  for (const current of [...new Set([1, Math.ceil(last / 2), last])]) {
    // allYears: the filter exactly as drawn (a bureau's list naming no year would open on the current one).
    const page = await searchResults(t.db, who, { ...f, allYears: true, current, size });
    const full = await orderedResults(t.db, resultFilter(who, f))
      .limit(size)
      .offset((current - 1) * size);
    expect(page.total, `${label}, page ${current}`).toBe(results.summary.matched);
    expect(page.records.map((r) => r.id), `${label}, page ${current}`).toEqual(full.map((r) => r.id));
  }
}

describe('score list summary from the counts', () => {
  it('equals the summary and groups read from the results, for random filters, after invalidations and a binned plan', async () => {
    const rnd = random(12);
    const results = await t.db
      .select({ id: physiqueResults.id, planId: physiqueResults.planId, classId: physiqueResults.classId, gradeNo: physiqueResults.gradeNo, invalid: physiqueResults.invalid })
      .from(physiqueResults)
      .where(eq(physiqueResults.orgId, org.k12));
    const plans = await t.db.select({ id: testPlans.id, schoolYearId: testPlans.schoolYearId }).from(testPlans).where(eq(testPlans.orgId, org.k12));
    const classIds = [...new Set(results.map((r) => r.classId))];
    const grades = [...new Set(results.map((r) => r.gradeNo))].filter(isGrade);

    // Invalidate a few results through the route, so invalid rows sit beside valid ones in some classes.
    const some = results.filter((r) => !r.invalid && rnd.next() < 0.02).map((r) => r.id);
    expect((await post('organizeTest/scoreSearch/invalid', { ids: some.slice(0, 200) })).statusCode).toBe(200);

    const callers = [
      caller('k12', org.k12),
      caller('k12', org.k12, { all: false, classIds: classIds.filter(() => rnd.next() < 0.3) }),
      caller('admin', org.bureau),
    ];
    const filterOf = (): ScoreFilter => {
      const f: ScoreFilter = {};
      if (rnd.next() < 0.6) f.schoolYearId = rnd.pick(plans).schoolYearId;
      if (rnd.next() < 0.2) f.semesterCode = rnd.pick([SEMESTER.spring, SEMESTER.autumn]);
      if (rnd.next() < 0.2) f.planId = rnd.pick(plans).id;
      if (rnd.next() < 0.3) f.gradeNo = rnd.pick(grades);
      if (rnd.next() < 0.2) f.classId = rnd.pick(classIds);
      if (rnd.next() < 0.3) f.gender = rnd.pick(['male', 'female'] as const);
      if (rnd.next() < 0.4) f.level = rnd.pick(LEVEL_FILTERS);
      if (rnd.next() < 0.3) f.invalid = rnd.next() < 0.5;
      if (rnd.next() < 0.1) f.orgId = org.k12;
      return f;
    };
    for (let i = 0; i < 40; i++) {
      const who = rnd.pick(callers);
      const f = filterOf();
      await expectSameAsResults(who, f, `${who.family}${who.classScope.all ? '' : ' (some classes)'} ${JSON.stringify(f)}`);
    }

    // A binned plan's results leave both. Only an ended plan that no re-test names can be deleted (#test-plans, #physique-year).
    const deletable = await t.db
      .select({ id: testPlans.id })
      .from(testPlans)
      .where(and(eq(testPlans.orgId, org.k12), sql`${testPlans.endDate} < current_date`, sql`not exists (select 1 from test_plans r where r.retest_of_plan_id = ${testPlans.id})`));
    const binned = rnd.pick(deletable.filter((p) => results.some((r) => r.planId === p.id)));
    const del = await post(`organizeTest/testManage/delete/${binned.id}`);
    expect(del.statusCode, del.body).toBe(200);
    const gone = await t.db.$count(testPlans, and(inArray(testPlans.id, [binned.id]), sql`${testPlans.deletedAt} is not null`));
    expect(gone).toBe(1);
    for (const who of callers) {
      await expectSameAsResults(who, {}, `${who.family}, plan binned`);
      const { groups } = await summaryAndGroups(t.db, who, {}, 'counts');
      expect(groups.some((g) => g.planId === binned.id)).toBe(false);
    }
  }, 300_000);

  it('follows a score import (written in replica mode) and its re-import', async () => {
    const pupils = await someStudents(t.db, org.k12, [1, 7, 11], 5);
    const planId = await createPlan(t.db, org.k12);
    const upload = (seed: number) => {
      const body = multipartBody(xlsxOf(templateFor(pupils, seed)), 'scores.xlsx');
      return t.request({ method: 'POST', url: `/api/busi/web/k12/organizeTest/testManage/import/${planId}`, token, payload: body.payload, headers: body.headers }).then((start) => importJob(t, token, start));
    };
    const who = caller('k12', org.k12);
    for (const seed of [7, 8]) {
      const res = await upload(seed);
      expect(res.statusCode, res.body).toBe(200);
      expect((await summaryAndGroups(t.db, who, { planId }, 'counts')).summary.matched).toBe(pupils.length);
      await expectSameAsResults(who, { planId }, `import ${seed}`);
      await expectSameAsResults(who, { planId, level: 'incomplete' }, `import ${seed}, incomplete`);
    }
  }, 120_000);
});
