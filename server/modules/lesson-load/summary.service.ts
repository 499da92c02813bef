import { sql, type SQL } from 'drizzle-orm';
import { ORG_TYPE, type SemesterCode } from '@/domain/constants';
import { localDate, ORG_TIME_ZONE } from '@/domain/dates';
import { ERR } from '@/domain/errors';
import {
  aboveAgeSteps,
  abovePeakBpm,
  calendarTerm,
  isPersistent,
  PERSISTENT_MIN_LESSONS,
  termOfDay,
  type LessonsSceneData,
  type LoadCard,
  type LoadCardQuery,
  type LoadDistrict,
  type LoadDistrictQuery,
  type LoadFigures,
  type LoadFlaggedStudent,
  type LoadGroup,
  type LoadSummary,
  type LoadSummaryQuery,
  type LoadTerm,
  type LoadWeek,
} from '@/domain/lesson-load/reports';
import { lessonLoad } from '@/domain/lesson-load/summary';
import { CURRICULUM_TARGETS } from '@/domain/lesson-load/zones';
import { gradeNameKey } from '@/domain/school/grade-name';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { classScopeOf, scopedClassIds, WHOLE_ORG, type ClassScope } from '../../lib/data-scope';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';
import { orgSubtree } from '../../lib/tenancy';
import type { Actor } from '../../plugins/tenant';
import { minuteRowsOf } from './lesson-load.store';
import { aboveAgeIndexSql, persistentSql } from './ages';

/**
 * Lesson-load reports (docs/product-rules.md#lesson-load: reports): every figure comes from the stored lesson rows
 * (lesson_loads, one per closed lesson, and lesson_load_students) through their write-time rollups (decision 051),
 * grouped in SQL; the raw samples are never read. A lesson weighs the same in every mean, whatever its class size.
 */

type Translate = (key: string, options?: Record<string, unknown>) => string;
const RAW = { interpolation: { escapeValue: false } };
const DAY_MS = 86_400_000;

/** What a report reads: an organisation (with its semesters), the classes it may see, the term. */
export interface LoadScope {
  orgId: string;
  classScope: ClassScope;
  term: LoadTerm;
}
/** Where a report's figures come from: the write-time rollups (decision 051) or every stored row (the direct computation). */
type Source = 'rollups' | 'rows';

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const round = (v: unknown, digits: number) => {
  const n = num(v);
  return n === null ? null : Math.round(n * 10 ** digits) / 10 ** digits;
};

/**
 * A statement's rows as ONE json text, parsed here: on PGlite handing rows to JavaScript field by field costs more than
 * building and parsing the text (docs/decisions/028-score-import-at-copy-speed.md; the term summary's lists and
 * groupings, decision 051). Values come back as JSON has them: numbers, strings, null.
 */
async function rowsAsJson<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const { rows } = await db.execute<{ j: string }>(sql`select coalesce(json_agg(r), '[]')::text as j from (${query}) r`);
  return JSON.parse(rows[0].j) as T[];
}

/** The term of the query on the organisation: its semester when it has that one, else the calendar term; no query: the current one. */
export async function resolveTerm(db: DbOrTx, orgId: string, q: { schoolYear?: number; semester?: SemesterCode }, now: Date): Promise<LoadTerm> {
  let schoolYear = q.schoolYear;
  let semester = q.semester;
  if (schoolYear === undefined || semester === undefined) {
    const { rows } = await db.execute<{ start_year: number; code: number }>(sql`
      select sy.start_year, se.code from semesters se join school_years sy on sy.id = se.school_year_id
       where se.org_id = ${orgId} and ${localDate(now)}::date between se.start_date and coalesce(se.break_end, se.end_date)
       order by se.start_date desc limit 1`);
    const current = rows[0] ? { schoolYear: Number(rows[0].start_year), semester: Number(rows[0].code) as SemesterCode } : termOfDay(localDate(now));
    schoolYear ??= current.schoolYear;
    semester ??= current.semester;
  }
  const { rows } = await db.execute<{ from: string; to: string }>(sql`
    select se.start_date::text as "from", coalesce(se.break_end, se.end_date)::text as "to"
      from semesters se join school_years sy on sy.id = se.school_year_id
     where se.org_id = ${orgId} and sy.start_year = ${schoolYear} and se.code = ${semester} limit 1`);
  const dates = rows[0] ?? calendarTerm(schoolYear, semester);
  return { schoolYear, semester, from: dates.from, to: dates.to };
}

/** The term's bounds as instants in the organisations' time zone: [from 00:00, day after `to` 00:00). */
const termBounds = (term: LoadTerm) => sql`ll.started_at >= (${term.from}::date)::timestamp at time zone ${ORG_TIME_ZONE}
  and ll.started_at < (${term.to}::date + 1)::timestamp at time zone ${ORG_TIME_ZONE}`;

/** The term's lessons of a term rollup (alias `ll`): those counted in that term when stored. */
const termKey = (term: LoadTerm) => sql`ll.school_year = ${term.schoolYear} and ll.semester = ${term.semester}`;

/**
 * The scope's rows of `ll` (lesson_loads, lesson_load_students or lesson_load_student_terms: each carries org_id and
 * class_id), of the term (`inTerm`: by start, or a term rollup's key).
 */
function scopeWhere(scope: LoadScope, extra: { classId?: string; gradeNo?: number } = {}, inTerm: SQL = termBounds(scope.term)): SQL {
  const ids = scopedClassIds(scope.classScope);
  const parts = [sql`ll.org_id = ${scope.orgId}`, inTerm];
  if (ids) parts.push(ids.length ? sql`ll.class_id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})` : sql`false`);
  if (extra.classId) parts.push(sql`ll.class_id = ${extra.classId}`);
  if (extra.gradeNo) parts.push(sql`g.grade_no = ${extra.gradeNo}`);
  return sql.join(parts, sql` and `);
}

type FigureRow = { lessons: number; meets_share: unknown; main_mean_bpm: unknown; group_density: unknown; individual_density: unknown; target_share: unknown };
function figuresOf(r: FigureRow | undefined): LoadFigures {
  if (!r || !Number(r.lessons)) return { lessons: 0, meetsShare: null, mainMeanBpm: null, groupDensity: null, individualDensity: null, targetShare: null };
  return {
    lessons: Number(r.lessons),
    meetsShare: round(r.meets_share, 3),
    mainMeanBpm: round(r.main_mean_bpm, 1),
    groupDensity: round(r.group_density, 3),
    individualDensity: round(r.individual_density, 3),
    targetShare: round(r.target_share, 3),
  };
}

/** The key and name of a group (teacher: the lesson's teacher; grade: its number, named by the browser). */
const GROUP_SQL: Record<LoadGroup, { id: SQL; name: SQL }> = {
  class: { id: sql`c.id::text`, name: sql`c.name` },
  teacher: { id: sql`te.id::text`, name: sql`te.name` },
  grade: { id: sql`g.grade_no::text`, name: sql`null::text` },
  college: { id: sql`co.id::text`, name: sql`co.name` },
  school: { id: sql`o.id::text`, name: sql`o.name` },
};

/** Sums of class-week rollup rows (alias `ll`, lesson_load_class_weeks): the same sums as SUMS over their lessons. */
const WEEK_SUMS = sql`sum(ll.lessons)::int as lessons, sum(ll.meets)::int as meets, sum(ll.bpm_sum) as bpm_sum, sum(ll.bpm_n)::int as bpm_n,
  sum(ll.group_sum) as group_sum, sum(ll.group_n)::int as group_n, sum(ll.individual_sum) as individual_sum, sum(ll.individual_n)::int as individual_n,
  sum(ll.target_sum) as target_sum, sum(ll.target_n)::int as target_n`;

/**
 * Figures of the scope over all, by group (when asked) and by week, in one statement (grouping sets). From the class
 * weeks (lesson_load_class_weeks, decision 051: sums and counts per class, teacher, week and term, so every grouping's
 * means are the same means over its lessons) when the term's lessons are exactly those counted in it (rollupsCover);
 * else, and with `source: 'rows'`, over every lesson row of the term (the direct computation).
 */
async function groupedFigures(db: DbOrTx, scope: LoadScope, group: LoadGroup | null, extra: { classId?: string; gradeNo?: number }, source: 'rollups' | 'rows') {
  const fromRollups = source === 'rollups';
  const key = group ? GROUP_SQL[group] : { id: sql`null::text`, name: sql`null::text` };
  const week = fromRollups ? sql`ll.week` : WEEK;
  const base = fromRollups ? sql`from lesson_load_class_weeks ll` : sql`from lesson_loads ll`;
  // The school's classes and grades only (by their organisation's index): the planner then hashes a school's few, not every class stored.
  const classJoins = sql`${base} join classes c on c.id = ll.class_id and c.org_id = ${scope.orgId} join grades g on g.id = c.grade_id and g.org_id = ${scope.orgId}`;
  const joins = group === 'teacher' ? sql`${classJoins} ${fromRollups ? sql`` : sql`join lessons l on l.id = ll.lesson_id`} left join teachers te on te.id = ${fromRollups ? sql`ll` : sql`l`}.teacher_id`
    : group === 'college' ? sql`${classJoins} left join colleges co on co.id = c.college_id`
      : group === 'school' ? sql`${classJoins} join orgs o on o.id = ll.org_id` : classJoins;
  const sets = group ? sql`(), (${key.id}, ${key.name}), (${week})` : sql`(), (${week})`;
  const rows = await rowsAsJson<SumRow & { gk: number; gw: number; id: string | null; name: string | null; week: string | null }>(db, sql`
    select ${group ? sql`grouping(${key.id})::int` : sql`1`} as gk, grouping(${week})::int as gw,
           ${group ? key.id : sql`null::text`} as id, ${group ? key.name : sql`null::text`} as name, ${week}::text as week, ${fromRollups ? WEEK_SUMS : SUMS}
      ${joins}
     where ${scopeWhere(scope, extra, fromRollups ? termKey(scope.term) : termBounds(scope.term))}
     group by grouping sets (${sets})`);
  const total = rows.find((r) => Number(r.gk) === 1 && Number(r.gw) === 1);
  const weeks: LoadWeek[] = rows
    .filter((r) => Number(r.gw) === 0)
    .map((r) => ({ week: r.week!, ...figuresOfSums(r) }))
    .sort((a, b) => (a.week < b.week ? -1 : a.week > b.week ? 1 : 0));
  const byGroup = rows.filter((r) => Number(r.gk) === 0 && Number(r.gw) === 1).map((r) => ({ id: r.id, name: r.name, ...figuresOfSums(r) }));
  return { total: figuresOfSums(total ?? {}), weeks, rows: byGroup };
}

/**
 * The rollups answer a term when its lessons counted in them are exactly the term's days (rollupsCover); else (the
 * school's semesters changed since the lessons were stored) every stored row of the term does, the same answer.
 */
const sourceOf = async (db: DbOrTx, orgId: string, term: LoadTerm): Promise<Source> => ((await rollupsCover(db, orgId, term)) ? 'rollups' : 'rows');

/** The zone as SQL text: a constant, inlined so an expression in the select list matches the same one in GROUP BY. */
const TZ = sql.raw(`'${ORG_TIME_ZONE}'`);
/** The lesson's Monday in the organisations' time zone (lesson-load.store.ts keys lesson_load_class_weeks by the same). */
const WEEK = sql`date_trunc('week', ll.started_at at time zone ${TZ})::date`;

/** Whether the term's lessons counted in the rollups are exactly those of the term's days: no day of it counted in another term, no day outside it in this one. */
export async function rollupsCover(db: DbOrTx, orgId: string, term: LoadTerm): Promise<boolean> {
  const inside = sql`d.day between ${term.from}::date and ${term.to}::date`;
  const counted = sql`d.school_year = ${term.schoolYear} and d.semester = ${term.semester}`;
  const { rows } = await db.execute<{ inside: number; counted: number; both: number }>(sql`
    select count(*) filter (where ${inside})::int as inside, count(*) filter (where ${counted})::int as counted, count(*) filter (where ${inside} and ${counted})::int as both
      from lesson_load_school_days d where d.org_id = ${orgId} and (${inside} or ${counted})`);
  const r = rows[0];
  return Number(r.inside) === Number(r.both) && Number(r.counted) === Number(r.both);
}

/**
 * Students of the scope persistently below or above (docs/product-rules.md#lesson-load: reports): per student, the
 * lessons, those below (isBelow: density under the curriculum's individual target) and those at or above the
 * student's own peak threshold (abovePeakBpm). From the students' term rollups (lesson_load_student_terms, decision
 * 051) or from every per-student row of the term (the direct computation, also the rollups' check in tests).
 */
export async function flaggedStudentsOf(db: DbOrTx, scope: LoadScope, extra: { classId?: string; gradeNo?: number }, source: Source) {
  const byGrade = extra.gradeNo ? sql`join classes c on c.id = ll.class_id join grades g on g.id = c.grade_id` : sql``;
  type Row = { student_id: string; name: string; reg_no: string; class_name: string; lessons: number; below: number };
  const counted: (Row & { above: number })[] = [];
  if (source === 'rollups') {
    // One statement over the rows that may flag a student (decision 051: each row's flag is kept when written, at the
    // student's age on its term's first day), with the rows whose flag was read on another day than this term's first
    // (the school's semester start moved since) and those whose flag is unknown (birth date or class changed since):
    // summed per student, "above" read at the student's age on the term's start (aboveAgeSteps: zoneAge as step
    // functions of the birth date and grade, handed as two short arrays), and only the students who may be flagged
    // (isPersistent, applied again below) with their names. The students are joined for those rows only.
    const steps = aboveAgeSteps(scope.term.from);
    const age = aboveAgeIndexSql(sql`${sql.param(steps.from)}::date[]`, sql`${sql.param(steps.byGrade)}::int[]`, steps.byGrade.length);
    const where = scopeWhere(scope, extra, termKey(scope.term));
    const mayFlag = sql`(ll.flagged is not false or ll.shared)`;
    // Each arm by its index (lesson_load_student_terms_flag_idx, _age_idx): `<` or `>`, not `<>`, so the day is an index condition.
    const rowsOf = (cond: SQL) => sql`select ll.student_id, ll.lessons, ll.below, ll.above from lesson_load_student_terms ll ${byGrade} where ${where} and ${cond}`;
    const rows = await rowsAsJson<Row & { above: number }>(db, sql`
      select * from (
        select ll.student_id, s.name, s.reg_no, s.class_name, sum(ll.lessons)::int as lessons, sum(ll.below)::int as below, sum(ll.above[s.age + 1])::int as above
          from (${rowsOf(mayFlag)} union all ${rowsOf(sql`not ${mayFlag} and (ll.age_on < ${scope.term.from}::date or ll.age_on > ${scope.term.from}::date)`)}) ll
          cross join lateral (select st.name, st.reg_no, sc.name as class_name, ${age} as age
                                from students st join classes sc on sc.id = st.class_id join grades sg on sg.id = sc.grade_id where st.id = ll.student_id limit 1) s
         group by ll.student_id, s.name, s.reg_no, s.class_name) per
       where ${persistentSql(sql`per.lessons`, sql`per.below`)} or ${persistentSql(sql`per.lessons`, sql`per.above`)}`);
    counted.push(...rows.map((r) => ({ ...r, lessons: Number(r.lessons), below: Number(r.below), above: Number(r.above) })));
  } else {
    const { rows: people } = await db.execute<{ id: string; birth_date: string | null; grade_no: number }>(sql`
      select st.id, st.birth_date::text as birth_date, g.grade_no from students st join classes c on c.id = st.class_id join grades g on g.id = c.grade_id where c.org_id = ${scope.orgId}`);
    const ids = people.map((p) => p.id);
    const thresholds = people.map((p) => abovePeakBpm(p.birth_date, Number(p.grade_no), scope.term.from));
    const { rows } = await db.execute<Row & { birth_date: string | null; grade_no: number; above: number | null }>(sql`
      with th as (select * from unnest(${sql.param(ids)}::uuid[], ${sql.param(thresholds)}::int[]) as t(id, bpm)),
      per as (
        select ll.student_id, count(*)::int as lessons,
               count(*) filter (where ll.density < ${CURRICULUM_TARGETS.individualDensity}::real)::int as below,
               case when bool_and(th.id is not null) then count(*) filter (where ll.peak_bpm >= th.bpm)::int end as above
          from lesson_load_students ll left join th on th.id = ll.student_id ${byGrade}
         where ${scopeWhere(scope, extra)} and ll.measured > 0
         group by ll.student_id having count(*) >= ${PERSISTENT_MIN_LESSONS})
      select per.student_id, st.name, st.reg_no, st.birth_date::text as birth_date, c.name as class_name, g.grade_no, per.lessons, per.below, per.above
        from per join students st on st.id = per.student_id join classes c on c.id = st.class_id join grades g on g.id = c.grade_id`);
    // A student no longer of the school (rare): the peaks of their lessons, counted against their own threshold below.
    const gone = rows.filter((r) => r.above === null).map((r) => r.student_id);
    const peaksOf = new Map<string, number[]>();
    if (gone.length) {
      const { rows: peaks } = await db.execute<{ student_id: string; peaks: number[] }>(sql`
        select ll.student_id, array_agg(ll.peak_bpm) as peaks from lesson_load_students ll ${byGrade}
         where ${scopeWhere(scope, extra)} and ll.measured > 0 and ll.peak_bpm is not null and ll.student_id = any(${sql.param(gone)}::uuid[]) group by ll.student_id`);
      for (const r of peaks) peaksOf.set(r.student_id, r.peaks.map(Number));
    }
    for (const r of rows) {
      const threshold = abovePeakBpm(r.birth_date, Number(r.grade_no), scope.term.from);
      counted.push({ ...r, lessons: Number(r.lessons), below: Number(r.below), above: r.above !== null ? Number(r.above) : (peaksOf.get(r.student_id) ?? []).filter((p) => p >= threshold).length });
    }
  }
  const below: LoadFlaggedStudent[] = [];
  const above: LoadFlaggedStudent[] = [];
  for (const r of counted) {
    const base = { studentId: r.student_id, name: r.name, regNo: r.reg_no, className: r.class_name, lessons: r.lessons };
    if (isPersistent(r.lessons, r.below)) below.push({ ...base, count: r.below, share: round(r.below / r.lessons, 3)! });
    if (isPersistent(r.lessons, r.above)) above.push({ ...base, count: r.above, share: round(r.above / r.lessons, 3)! });
  }
  const order = (a: LoadFlaggedStudent, b: LoadFlaggedStudent) => b.share - a.share || b.lessons - a.lessons || byText(a.className, b.className) || byText(a.regNo, b.regNo);
  return { below: below.sort(order), above: above.sort(order) };
}

async function schoolScope(db: DbOrTx, actor: Actor, q: { schoolYear?: number; semester?: SemesterCode }, now: Date, force?: 'rows'): Promise<LoadScope & { source: Source }> {
  const [classScope, term] = await Promise.all([classScopeOf(db, actor), resolveTerm(db, actor.tenantOrgId, q, now)]);
  return { orgId: actor.tenantOrgId, classScope, term, source: force ?? (await sourceOf(db, actor.tenantOrgId, term)) };
}

/**
 * class/load/summary: the term's figures by group, the weekly trend and the flagged students, within the data scope.
 * From the rollups (a few statements over one row per class week and per student term); `source: 'rows'` computes
 * the same answer over every stored row of the term.
 */
export async function loadSummary(db: DbOrTx, actor: Actor, q: LoadSummaryQuery, now: Date, source?: 'rows'): Promise<LoadSummary> {
  const scope = await schoolScope(db, actor, q, now, source);
  const group = q.group ?? 'class';
  const extra = { classId: q.classId, gradeNo: q.gradeNo };
  const [figures, flagged] = await Promise.all([groupedFigures(db, scope, group, extra, scope.source), flaggedStudentsOf(db, scope, extra, scope.source)]);
  const rows = figures.rows.sort((a, b) => (group === 'grade' ? Number(a.id) - Number(b.id) : byName(a.name ?? '', b.name ?? '')));
  return { term: scope.term, group, total: figures.total, rows, weeks: figures.weeks, ...flagged };
}

/** localeCompare's orders with their collators made once (String#localeCompare builds one per call: most of a list's sort). */
const byText = new Intl.Collator().compare;
const byName = new Intl.Collator('zh-CN').compare;

const pct = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 10);

/** How many students the summary's workbook names: its flagged students, the longer of its two sheets (the export approval's count). */
export async function loadSummaryExportRows(db: DbOrTx, actor: Actor, q: LoadSummaryQuery, now: Date): Promise<number> {
  const scope = await schoolScope(db, actor, q, now);
  const flagged = await flaggedStudentsOf(db, scope, { classId: q.classId, gradeNo: q.gradeNo }, scope.source);
  return Math.max(flagged.below.length, flagged.above.length);
}

/** The term's figures as a workbook: one sheet per grouping, the weeks and the flagged students. */
export async function loadSummaryExport(db: DbOrTx, actor: Actor, q: LoadSummaryQuery, t: Translate, now: Date, family: string) {
  const scope = await schoolScope(db, actor, q, now);
  const extra = { classId: q.classId, gradeNo: q.gradeNo };
  const h = (k: string) => t(`lessonLoad:summary.${k}`, RAW);
  const groups: LoadGroup[] = ['class', 'teacher', family === 'gx' ? 'college' : 'grade', 'school'];
  const results = await Promise.all(groups.map((g) => groupedFigures(db, scope, g, extra, scope.source)));
  const flagged = await flaggedStudentsOf(db, scope, extra, scope.source);
  const figureHead = [h('lessons'), h('meetsShare'), h('mainMeanBpm'), h('groupDensity'), h('individualDensity'), h('targetShare')];
  const figureCells = (f: LoadFigures) => [f.lessons, pct(f.meetsShare), f.mainMeanBpm, pct(f.groupDensity), pct(f.individualDensity), pct(f.targetShare)];
  const nameOf = (g: LoadGroup, r: { id: string | null; name: string | null }) => (g === 'grade' ? t(gradeNameKey(Number(r.id)), RAW) : (r.name ?? h('noTeacher')));
  const sheets = groups.map((g, i) => ({
    name: h(`by.${g}`),
    rows: [[h(`group.${g}`), ...figureHead], ...results[i].rows.map((r) => [nameOf(g, r), ...figureCells(r)]), [h('total'), ...figureCells(results[i].total)]],
  }));
  const flaggedSheet = (key: 'below' | 'above', list: LoadFlaggedStudent[]) => ({
    name: h(`${key}Title`),
    rows: [[h('student'), h('regNo'), h('class'), h('lessons'), h(`${key}Count`), h('share')], ...list.map((s) => [s.name, s.regNo, s.className, s.lessons, s.count, pct(s.share)])],
    textColumns: [1],
  });
  return {
    workbook: writeXlsx([
      ...sheets,
      { name: h('trend'), rows: [[h('week'), ...figureHead], ...results[0].weeks.map((w) => [w.week, ...figureCells(w)])] },
      flaggedSheet('below', flagged.below),
      flaggedSheet('above', flagged.above),
    ]),
    fileName: `${h('fileName')}_${scope.term.schoolYear}-${scope.term.schoolYear + 1}_${t(`lessonLoad:summary.semester.${scope.term.semester}`, RAW)}.xlsx`,
  };
}

/**
 * The data-centre card (school, grade or class view): this term's figures and weekly trend. A bureau looking at one
 * of its schools names it (`orgId`); another organisation's is not found.
 */
export async function loadCard(db: DbOrTx, actor: Actor, q: LoadCardQuery, now: Date): Promise<LoadCard> {
  let orgId = actor.tenantOrgId;
  let classScope: ClassScope;
  if (q.orgId && q.orgId !== actor.tenantOrgId) {
    if (!(await orgSubtree(db, actor.tenantOrgId)).includes(q.orgId)) throw new AppError(404, ERR.notFound);
    orgId = q.orgId;
    classScope = WHOLE_ORG;
  } else classScope = await classScopeOf(db, actor);
  const scope: LoadScope = { orgId, classScope, term: await resolveTerm(db, orgId, q, now) };
  const figures = await groupedFigures(db, scope, null, { classId: q.classId, gradeNo: q.gradeNo }, await sourceOf(db, orgId, scope.term));
  return { term: scope.term, total: figures.total, weeks: figures.weeks };
}

/**
 * admin class/load: the district's schools (its subtree) over a term, side by side; a school without lessons has none.
 * One aggregate per school over the term's days of the schools' day rollups (lesson_load_school_days, decision 051:
 * sums and counts, so a school's means and the district's total are the same means over all their lessons, and the
 * total is added up here instead of aggregated a second time). `source: 'rows'` reads every lesson row instead (the
 * direct computation the rollups are checked against).
 */
export async function loadDistrict(db: DbOrTx, actor: Actor, q: LoadDistrictQuery, now: Date, source: Source = 'rollups'): Promise<LoadDistrict> {
  const term = await resolveTerm(db, actor.tenantOrgId, q, now);
  const per = source === 'rollups'
    ? sql`select d.org_id, sum(d.lessons)::int as lessons, sum(d.meets)::int as meets, sum(d.bpm_sum) as bpm_sum, sum(d.bpm_n)::int as bpm_n,
             sum(d.group_sum) as group_sum, sum(d.group_n)::int as group_n, sum(d.individual_sum) as individual_sum, sum(d.individual_n)::int as individual_n,
             sum(d.target_sum) as target_sum, sum(d.target_n)::int as target_n
        from lesson_load_school_days d where d.org_id in (select id from schools) and d.day between ${term.from}::date and ${term.to}::date group by d.org_id`
    : sql`select ll.org_id, ${SUMS} from lesson_loads ll where ll.org_id in (select id from schools) and ${termBounds(term)} group by ll.org_id`;
  const { rows } = await db.execute<{ id: string; name: string } & Partial<SumRow>>(sql`
    with recursive subtree(id) as (select id from orgs where id = ${actor.tenantOrgId} union all select o.id from orgs o join subtree s on o.parent_id = s.id),
    schools as (select o.id, o.name, o.code from orgs o join subtree s on s.id = o.id where o.type in (${ORG_TYPE.k12}, ${ORG_TYPE.university})),
    per as (${per})
    select sc.id::text as id, sc.name, per.* from schools sc left join per on per.org_id = sc.id order by sc.code, sc.name`);
  const total = SUM_KEYS.reduce((t, k) => ({ ...t, [k]: rows.reduce((n, r) => n + Number(r[k] ?? 0), 0) }), {} as SumRow);
  return {
    term,
    total: figuresOfSums(total),
    schools: rows.map((r) => ({ orgId: r.id, name: r.name, ...figuresOfSums(r) })),
  };
}

/** Sums and counts of stored lessons (alias `ll`): the figures' means are sum / count, so groups add up exactly. */
const SUMS = sql`count(*)::int as lessons, count(*) filter (where ll.meets_targets)::int as meets,
  sum(ll.main_mean_bpm::float8) as bpm_sum, count(ll.main_mean_bpm)::int as bpm_n,
  sum(ll.group_density::float8) as group_sum, count(ll.group_density)::int as group_n,
  sum(ll.individual_density::float8) as individual_sum, count(ll.individual_density)::int as individual_n,
  sum(ll.target_share::float8) as target_sum, count(ll.target_share)::int as target_n`;
const SUM_KEYS = ['lessons', 'meets', 'bpm_sum', 'bpm_n', 'group_sum', 'group_n', 'individual_sum', 'individual_n', 'target_sum', 'target_n'] as const;
type SumRow = Record<(typeof SUM_KEYS)[number], unknown>;
/** The figures of summed lessons, as figuresOf answers the same lessons' averages (avg ignores nulls: sum / count of non-null). */
function figuresOfSums(r: Partial<SumRow>): LoadFigures {
  const lessons = Number(r.lessons ?? 0);
  const mean = (sum: unknown, n: unknown) => (Number(n ?? 0) ? Number(sum) / Number(n) : null);
  return figuresOf({
    lessons,
    meets_share: lessons ? Number(r.meets) / lessons : null,
    main_mean_bpm: mean(r.bpm_sum, r.bpm_n),
    group_density: mean(r.group_sum, r.group_n),
    individual_density: mean(r.individual_sum, r.individual_n),
    target_share: mean(r.target_sum, r.target_n),
  });
}

export async function loadDistrictExport(db: DbOrTx, actor: Actor, q: LoadDistrictQuery, t: Translate, now: Date) {
  const view = await loadDistrict(db, actor, q, now);
  const h = (k: string) => t(`lessonLoad:summary.${k}`, RAW);
  const cells = (f: LoadFigures) => [f.lessons, pct(f.meetsShare), f.mainMeanBpm, pct(f.groupDensity), pct(f.individualDensity), pct(f.targetShare)];
  const head = [h('group.school'), h('lessons'), h('meetsShare'), h('mainMeanBpm'), h('groupDensity'), h('individualDensity'), h('targetShare')];
  return {
    workbook: writeXlsx([{ name: h('by.school'), rows: [head, ...view.schools.map((s) => [s.name, ...cells(s)]), [h('total'), ...cells(view.total)]] }]),
    fileName: `${h('districtFileName')}_${view.term.schoolYear}-${view.term.schoolYear + 1}_${t(`lessonLoad:summary.semester.${view.term.semester}`, RAW)}.xlsx`,
  };
}

/**
 * The wall's scene of today's lessons (docs/product-rules.md#wall-display): lessons in progress and finished, and per
 * class (a district: per school) the mean bpm and individual density; a lesson in progress from its minute aggregates
 * through the one figures function, a finished one from its stored row. Never a student's name.
 */
export async function lessonsSceneData(db: DbOrTx, orgId: string, isDistrict: boolean, now: Date): Promise<LessonsSceneData> {
  const day = localDate(now);
  const orgIds = isDistrict ? await orgSubtree(db, orgId) : [orgId];
  const ids = sql.join(orgIds.map((id) => sql`${id}::uuid`), sql`, `);
  const { rows } = await db.execute<{ id: string; started_at: string; ended_at: string | null; unit: string; main_mean_bpm: number | null; individual_density: number | null; meets: boolean | null; stored: boolean }>(sql`
    select l.id, l.started_at::text, l.ended_at::text, ${isDistrict ? sql`o.name` : sql`c.name`} as unit,
           ll.main_mean_bpm, ll.individual_density, ll.meets_targets as meets, ll.lesson_id is not null as stored
      from lessons l join classes c on c.id = l.class_id join orgs o on o.id = l.org_id
      left join lesson_loads ll on ll.lesson_id = l.id
     where l.org_id in (${ids}) and l.started_at >= (${day}::date)::timestamp at time zone ${ORG_TIME_ZONE}
       and l.started_at < (${day}::date + 1)::timestamp at time zone ${ORG_TIME_ZONE}
       and (ll.lesson_id is not null or exists (select 1 from heart_rate_minutes h where h.lesson_id = l.id))`);
  const units = new Map<string, { inProgress: number; finished: number; bpm: number[]; density: number[] }>();
  let inProgress = 0;
  let finished = 0;
  let meetsTargets = 0;
  for (const r of rows) {
    const u = units.get(r.unit) ?? { inProgress: 0, finished: 0, bpm: [], density: [] };
    units.set(r.unit, u);
    let bpm = num(r.main_mean_bpm);
    let density = num(r.individual_density);
    if (r.ended_at && r.stored) {
      finished++;
      u.finished++;
      if (r.meets) meetsTargets++;
    } else {
      // In progress (or closed and not yet stored): the running figures of its minutes.
      const load = lessonLoad(await minuteRowsOf(db, r.id), Date.parse(r.started_at), r.ended_at ? Date.parse(r.ended_at) : null, now.getTime());
      bpm = load.mainMeanBpm ?? (load.curve.length ? load.curve[load.curve.length - 1].meanBpm : null);
      density = load.individualDensity;
      if (r.ended_at) {
        finished++;
        u.finished++;
      } else if (now.getTime() - Date.parse(r.started_at) < DAY_MS) {
        inProgress++;
        u.inProgress++;
      }
    }
    if (bpm !== null) u.bpm.push(bpm);
    if (density !== null) u.density.push(density);
  }
  const mean = (list: number[], digits: number) => (list.length ? round(list.reduce((a, b) => a + b, 0) / list.length, digits) : null);
  return {
    scene: 'lessons',
    day,
    unit: isDistrict ? 'school' : 'class',
    inProgress,
    finished,
    meetsTargets,
    rows: [...units.entries()]
      .map(([name, u]) => ({ name, inProgress: u.inProgress, finished: u.finished, meanBpm: mean(u.bpm, 1), density: mean(u.density, 3) }))
      .sort((a, b) => b.inProgress - a.inProgress || a.name.localeCompare(b.name, 'zh-CN')),
  };
}
