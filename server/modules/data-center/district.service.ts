import { sql, type SQL } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { DistrictOverview, DistrictSchoolRow, DistrictTrendPoint } from '@/domain/data-center/district';
import type { DbOrTx } from '../../db/client';
import { appliedFilters, context, groupedQuery, heavyRows, splitGroups, viewScope, weakestOf } from './data-center.service';
import { academicYearOf, type PlanInfo, type Viewer } from './data-center.scope';
import { idList, indicatorsOf, itemStatsOf, population, rankFields, rate, type AggRow, type ResultFilters } from './data-center.sql';

interface SchoolCounts {
  org_id: string;
  students: number;
  homework: number;
  contest: number;
  devices: number;
  online: number;
}

/**
 * Per school: students now (enabled, in a class of a grade that has not graduated: dc_roster by class), students who
 * took part in homework or contests in the school year (activity_participation_counts, kept by triggers from the valid
 * records; a school year from August 1st, as its SQL says), devices and devices online. One statement; each part
 * reads its own index by organisation.
 */
function schoolCountsQuery(orgIds: readonly string[], schoolYear: number | null): SQL {
  const ids = idList(orgIds);
  return sql`with o(org_id) as (select unnest(array[${ids}]::uuid[])),
s as (select r.org_id, sum(r.enabled)::int as students from dc_roster r join classes c on c.id = r.class_id join grades g on g.id = c.grade_id
  where r.org_id in (${ids}) and c.org_id in (${ids}) and not g.graduated group by r.org_id),
a as (select org_id,
    coalesce(sum(students) filter (where kind = 'homework'), 0)::int as homework,
    coalesce(sum(students) filter (where kind = 'contest'), 0)::int as contest
  from activity_participation_counts where org_id in (${ids}) and school_year = ${schoolYear ?? -1}::int group by org_id),
d as (select org_id, count(*)::int as devices, (count(*) filter (where status = 'online'))::int as online from devices where org_id in (${ids}) group by org_id)
select o.org_id, coalesce(s.students, 0) as students, coalesce(a.homework, 0) as homework, coalesce(a.contest, 0) as contest,
  coalesce(d.devices, 0) as devices, coalesce(d.online, 0) as online
from o left join s using (org_id) left join a using (org_id) left join d using (org_id)`;
}

type Figures = DistrictOverview['total'];

function figuresOf(agg: AggRow | undefined, counts: Omit<SchoolCounts, 'org_id'>): Figures {
  const i = indicatorsOf(agg ?? {}, counts.students);
  return {
    students: counts.students,
    tested: i.tested,
    assessed: i.assessed,
    excellentRate: i.excellentRate,
    goodRate: i.goodRate,
    passRate: i.passRate,
    failRate: i.levelRates.fail,
    meanTotal: i.meanTotal,
    homeworkStudents: counts.homework,
    homeworkRate: rate(counts.homework, counts.students),
    contestStudents: counts.contest,
    contestRate: rate(counts.contest, counts.students),
    devices: counts.devices,
    devicesOnline: counts.online,
    levels: i.levels,
    items: itemStatsOf(agg ?? {}),
  };
}

/**
 * The district and each of its schools per school year, in one scan of the school rollups (per plan × grade ×
 * gender): rows are first added up per school and year, so the grouping sets sort a few hundred rows.
 */
function trendQuery(orgIds: readonly string[], plans: readonly PlanInfo[], filters: ResultFilters): SQL {
  const { src, agg, counters } = population({ orgIds, plans, filters, perYear: true, bySchool: true });
  const rows = counters
    ? sql`r0 as (${src}), r as (select school_year, org_id, ${sql.raw(counters.map((c) => `sum(${c})::bigint as ${c}`).join(', '))} from r0 group by school_year, org_id)`
    : sql`r as (${src})`;
  return sql`with ${rows}
select grouping(r.org_id)::int as g_org, r.school_year::int as school_year, r.org_id, ${agg}
from r group by grouping sets ((r.school_year), (r.school_year, r.org_id)) order by 2`;
}

function trendOf(list: readonly AggRow[], plans: readonly PlanInfo[], schoolIds: ReadonlySet<string>): DistrictTrendPoint[] {
  const years = new Map<number, DistrictTrendPoint>();
  const point = (year: number): DistrictTrendPoint => {
    let p = years.get(year);
    if (!p) {
      p = { schoolYear: year, academicYear: plans.find((x) => x.schoolYear === year)?.academicYear ?? academicYearOf(year), indicators: indicatorsOf({}, null), items: {}, schools: [] };
      years.set(year, p);
    }
    return p;
  };
  for (const row of list) {
    const p = point(Number(row.school_year));
    if (Number(row.g_org) === 1) {
      p.indicators = indicatorsOf(row, null);
      p.items = itemStatsOf(row);
    } else if (schoolIds.has(String(row.org_id))) {
      const f = rankFields(row);
      p.schools.push({ orgId: String(row.org_id), tested: f.tested, meanTotal: f.meanTotal, excellentRate: f.excellentRate, passRate: f.passRate });
    }
  }
  return [...years.values()].sort((a, b) => a.schoolYear - b.schoolYear);
}

/**
 * GET …/admin/dataCenter/overview: the management organisation's schools side by side for one period (the data
 * centre's period filters), in one request: the physique figures from the rollups grouped by school (with the
 * district's total in the same scan), and the per-school counts of students, homework and contest participation and
 * devices. A school's drill-down is the data centre's school view with `orgId` (read-only).
 */
export async function districtOverview(db: DbOrTx, viewer: Viewer, f: DataCenterFilter): Promise<DistrictOverview> {
  const filters = { ...f, orgId: undefined, gradeNo: undefined, classId: undefined, collegeId: undefined, majorId: undefined };
  const { scope, period, plans, trendPlans } = await context(db, 'admin', viewer, filters);
  const schoolIds = [...scope.orgs.values()].filter((o) => o.type === ORG_TYPE.k12 || o.type === ORG_TYPE.university).map((o) => o.id);
  const rf = { gender: f.gender };
  const [grouped, counts, trendRows] = await Promise.all([
    plans.length && schoolIds.length ? heavyRows(db, groupedQuery(population({ orgIds: scope.orgIds, plans, filters: rf, bySchool: true }), ['org_id'], true)) : Promise.resolve([]),
    schoolIds.length ? db.execute<SchoolCounts & Record<string, unknown>>(schoolCountsQuery(schoolIds, period.schoolYear)).then((r) => r.rows) : Promise.resolve([]),
    trendPlans.length && schoolIds.length ? heavyRows(db, trendQuery(scope.orgIds, trendPlans, rf)) : Promise.resolve([]),
  ]);
  const g = splitGroups(grouped, ['org_id']);
  const aggOf = new Map(g.by.org_id.map((row) => [String(row.org_id), row]));
  const num = (c: SchoolCounts): Omit<SchoolCounts, 'org_id'> => ({
    students: Number(c.students),
    homework: Number(c.homework),
    contest: Number(c.contest),
    devices: Number(c.devices),
    online: Number(c.online),
  });
  const schools: DistrictSchoolRow[] = counts
    .map((c) => {
      const org = scope.orgs.get(c.org_id)!;
      return { orgId: org.id, name: org.name, type: org.type, ...figuresOf(aggOf.get(org.id), num(c)) };
    })
    .sort((a, b) => (b.meanTotal ?? -1) - (a.meanTotal ?? -1) || a.name.localeCompare(b.name, 'zh'));
  const sum = (k: keyof Omit<SchoolCounts, 'org_id'>) => counts.reduce((n, c) => n + Number(c[k]), 0);
  const total = figuresOf(g.all ?? undefined, { students: sum('students'), homework: sum('homework'), contest: sum('contest'), devices: sum('devices'), online: sum('online') });
  return {
    scope: viewScope(scope),
    period,
    filters: appliedFilters(filters, scope, period),
    total,
    schools,
    trend: trendOf(trendRows, trendPlans, new Set(schoolIds)),
    weakestItems: weakestOf(total.items),
  };
}
