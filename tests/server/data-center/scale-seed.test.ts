import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { SchoolView } from '@/domain/data-center/types';
import { SCALE_CITY_ACCOUNT, SCALE_DISTRICT_ACCOUNT, scaleDistrictAccount, scaleSchoolAccount, seedScale, type ScaleSummary } from '../../../server/seed/scale';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let summary: ScaleSummary;

beforeAll(async () => {
  // A migrated, empty database: the scale seed brings its own menus, district, schools and sign-ins.
  t = await createTestApp({ seeded: false });
  summary = await seedScale(t.db, { students: 3600, years: 3 });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const one = async <T>(q: ReturnType<typeof sql>) => (await t.db.execute<T & Record<string, unknown>>(q)).rows[0];

describe('scale seed', () => {
  it('builds schools of 1,500–3,000 students with classes, plans and three years of results', async () => {
    expect(summary.schools).toBe(2);
    expect(Math.abs(summary.students - 3600)).toBeLessThan(150);
    const sizes = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from students s join classes c on c.id = s.class_id join grades g on g.id = c.grade_id where not g.graduated group by s.org_id`)).rows;
    for (const s of sizes) expect(Number(s.n)).toBeGreaterThan(1400);
    const counts = await one<{ plans: number; results: number; years: number }>(
      sql`select (select count(*)::int from test_plans) as plans, (select count(*)::int from physique_results) as results, (select count(distinct start_year)::int from school_years) as years`,
    );
    expect(counts).toEqual({ plans: 6, results: summary.results, years: 3 });
    // Roughly every student of every year's roster has a result; a few untested.
    expect(summary.results).toBeGreaterThan(summary.students * 2.5);
  });

  it('scores like a district: every level, a few incomplete and invalid, grade at test time follows the cohort', async () => {
    const levels = (await t.db.execute<{ level: string | null; n: number }>(sql`select level, count(*)::int as n from physique_results group by level`)).rows;
    const share = (l: string | null) => Number(levels.find((x) => x.level === l)?.n ?? 0) / summary.results;
    expect(share('excellent')).toBeGreaterThan(0.02);
    expect(share('good')).toBeGreaterThan(0.1);
    expect(share('pass')).toBeGreaterThan(0.3);
    expect(share('fail')).toBeGreaterThan(0.005);
    expect(share(null)).toBeGreaterThan(0.005);
    const wrongGrade = await one<{ n: number }>(sql`select count(*)::int as n from physique_results r join test_plans p on p.id = r.plan_id join school_years y on y.id = p.school_year_id
      join classes c on c.id = r.class_id join grades g on g.id = c.grade_id
      where r.grade_no <> (case g.stage when 'primary' then 1 when 'junior' then 7 when 'senior' then 10 else 13 end) + y.start_year - g.enrol_year`);
    expect(Number(wrongGrade.n)).toBe(0);
    const twice = await one<{ n: number }>(sql`select count(*)::int as n from (select student_id, plan_id from physique_results group by 1, 2 having count(*) > 1) x`);
    expect(Number(twice.n)).toBe(0);
    const invalid = await one<{ n: number }>(sql`select count(*)::int as n from physique_results where invalid`);
    expect(Number(invalid.n)).toBeGreaterThan(0);
  });

  it('signs in the district and school administrators, who see their dashboards', async () => {
    for (const account of [SCALE_DISTRICT_ACCOUNT, scaleSchoolAccount(0)]) {
      const token = (await t.login(account)).access_token;
      const family = account === SCALE_DISTRICT_ACCOUNT ? 'admin' : 'k12';
      const res = await t.request({ url: `/api/busi/web/${family}/dataCenter/school`, token });
      expect(res.statusCode, res.body).toBe(200);
      const v = res.json<Envelope<SchoolView>>().data;
      expect(v.trend.map((p) => p.schoolYear)).toHaveLength(3);
      expect(v.overview.participationRate).toBeGreaterThan(0.9);
      expect(v.overview.participationRate).toBeLessThanOrEqual(1);
    }
  });

  it('refuses a second district in the same database', async () => {
    await expect(seedScale(t.db, { students: 100 })).rejects.toThrow(/exists already/);
  });
});

describe('scale seed, a city', () => {
  let city: TestApp;
  let s: ScaleSummary;
  beforeAll(async () => {
    city = await createTestApp({ seeded: false });
    s = await seedScale(city.db, { students: 4600, years: 1, districts: 2 });
  }, 120_000);
  afterAll(async () => {
    await city?.close();
  });

  it('puts a city bureau over district bureaus that share the schools; each bureau sees its own schools', async () => {
    expect(s.schools).toBeGreaterThanOrEqual(2);
    expect(s.districtIds).toHaveLength(2);
    const tree = (await city.db.execute<{ parent_id: string | null; n: number }>(sql`select parent_id, count(*)::int as n from orgs group by parent_id`)).rows;
    expect(tree.find((r) => r.parent_id === null)?.n).toBe(1);
    expect(tree.find((r) => r.parent_id === s.districtId)?.n).toBe(2);
    const students = async (account: string) => {
      const res = await city.request({ url: '/api/busi/web/admin/dataCenter/student?current=1&size=10', token: (await city.login(account)).access_token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Envelope<{ total: number }>>().data.total;
    };
    const whole = await students(SCALE_CITY_ACCOUNT);
    const first = await students(scaleDistrictAccount(0));
    const second = await students(scaleDistrictAccount(1));
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(0);
    expect(first + second).toBe(whole);
    expect(Math.abs(whole - 4600)).toBeLessThan(200);
  });
});
