import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { SEMESTER, type SemesterCode } from '@/domain/constants';
import { ORG_TIME_ZONE } from '@/domain/dates';
import type { BandBinding } from '@/domain/lesson-load/samples';
import { aboveAgeSteps, abovePeakByAge, calendarTerm } from '@/domain/lesson-load/reports';
import { lessonLoad, type LessonLoad, type MinuteRow } from '@/domain/lesson-load/summary';
import { CURRICULUM_TARGETS, isActive, ZONES, zoneOf, type Zone } from '@/domain/lesson-load/zones';
import type { DbOrTx, Tx } from '../../db/client';
import { lessons } from '../../db/schema/lessons';
import { heartRateMinutes, lessonBands, lessonLoadStudents, lessonLoads } from '../../db/schema/lesson-load';
import { students } from '../../db/schema/school';
import { devices } from '../../db/schema/venue';
import { fieldError } from '../../lib/app-error';
import { aboveAgeIndexSql, persistentSql } from './ages';

/**
 * The storage of lesson load (docs/product-rules.md#lesson-load): kept samples go to the raw table and are folded into
 * the per-minute aggregates in the same statement set; a lesson's figures are computed from the aggregates and stored
 * one row per lesson. The ingest (drop rules, bindings, consent) calls writeSamples; reports read lesson_loads.
 */

/** A sample that passed the drop rules, with the age its zone is read for. */
export interface SampleToWrite {
  studentId: string;
  /** Epoch milliseconds, whole seconds. */
  at: number;
  bpm: number;
  intensity: number | null;
  age: number;
}

const MINUTE = 60_000;

/**
 * Writes kept samples of one lesson: the raw rows (a resent second changes nothing) and, for the rows actually new,
 * their minutes' aggregates (added to what the minute holds). Answers how many samples were new.
 *
 * One statement: the samples go in as column arrays, each with its zone and exercise flag computed here by the domain's
 * rules (zoneOf, isActive: the thresholds live once); the raw insert's RETURNING says which rows were new, and only
 * those are summed per minute into heart_rate_minutes. Nothing comes back but the count (no row per sample to parse).
 */
export async function writeSamples(tx: Tx, lessonId: string, samples: readonly SampleToWrite[]): Promise<number> {
  if (samples.length === 0) return 0;
  const n = samples.length;
  const student = new Array<string>(n);
  const at = new Array<number>(n);
  const minute = new Array<number>(n);
  const bpm = new Array<number>(n);
  const intensity = new Array<number | null>(n);
  const zone = new Array<number>(n);
  const active = new Array<boolean>(n);
  for (let i = 0; i < n; i++) {
    const s = samples[i];
    student[i] = s.studentId;
    at[i] = s.at;
    minute[i] = Math.floor(s.at / MINUTE) * MINUTE;
    bpm[i] = s.bpm;
    intensity[i] = s.intensity;
    zone[i] = ZONE_INDEX[zoneOf(s.bpm, s.age)];
    active[i] = isActive(s.bpm, s.intensity);
  }
  const zoneSeconds = (z: Zone) => sql.raw(`count(*) filter (where f.z = ${ZONE_INDEX[z]})::int`);
  const { rows } = await tx.execute<{ n: number }>(sql`
    with input as (
      select s, to_timestamp(a / 1000.0) as at, to_timestamp(m / 1000.0) as minute, b, i, z, ac
        from unnest(${sql.param(student)}::uuid[], ${sql.param(at)}::bigint[], ${sql.param(minute)}::bigint[], ${sql.param(bpm)}::smallint[],
                    ${sql.param(intensity)}::smallint[], ${sql.param(zone)}::smallint[], ${sql.param(active)}::boolean[]) as t(s, a, m, b, i, z, ac)),
    ins as (
      insert into heart_rate_samples (lesson_id, student_id, at, bpm, intensity)
      select ${lessonId}::uuid, s, at, b, i from input
      on conflict do nothing
      returning student_id, at),
    f as (select input.* from input join ins on ins.student_id = input.s and ins.at = input.at),
    up as (
      insert into heart_rate_minutes as h (lesson_id, student_id, minute, samples, bpm_sum, bpm_min, bpm_max, zone_rest, zone_moderate, zone_target, zone_high, zone_danger, active, last_at, last_bpm)
      select ${lessonId}::uuid, f.s, f.minute, count(*)::int, sum(f.b)::int, min(f.b), max(f.b),
             ${zoneSeconds('rest')}, ${zoneSeconds('moderate')}, ${zoneSeconds('target')}, ${zoneSeconds('high')}, ${zoneSeconds('danger')},
             count(*) filter (where f.ac)::int, max(f.at), (array_agg(f.b order by f.at desc))[1]
        from f group by f.s, f.minute
      on conflict (lesson_id, student_id, minute) do update set
        samples = h.samples + excluded.samples, bpm_sum = h.bpm_sum + excluded.bpm_sum,
        bpm_min = least(h.bpm_min, excluded.bpm_min), bpm_max = greatest(h.bpm_max, excluded.bpm_max),
        zone_rest = h.zone_rest + excluded.zone_rest, zone_moderate = h.zone_moderate + excluded.zone_moderate,
        zone_target = h.zone_target + excluded.zone_target, zone_high = h.zone_high + excluded.zone_high,
        zone_danger = h.zone_danger + excluded.zone_danger, active = h.active + excluded.active,
        last_at = greatest(h.last_at, excluded.last_at),
        last_bpm = case when excluded.last_at >= h.last_at then excluded.last_bpm else h.last_bpm end
      returning 1)
    select (select count(*) from f)::int as n, (select count(*) from up)::int as minutes`);
  return Number(rows[0].n);
}

/** One student's minute as heart_rate_minutes holds it, before it is added to what the minute already holds. */
export interface MinuteAggregate {
  studentId: string;
  /** Start of the minute, epoch ms. */
  minute: number;
  samples: number;
  sum: number;
  min: number;
  max: number;
  zones: Record<Zone, number>;
  active: number;
  lastAt: number;
  lastBpm: number;
}

/** Folds samples (each second once) into per-student minutes: zones from each sample's age, exercise seconds. */
export function foldMinutes(samples: readonly SampleToWrite[]): MinuteAggregate[] {
  const minutes = new Map<string, MinuteAggregate>();
  for (const s of samples) {
    const minute = Math.floor(s.at / MINUTE) * MINUTE;
    const key = `${s.studentId}|${minute}`;
    let m = minutes.get(key);
    if (!m) {
      m = { studentId: s.studentId, minute, samples: 0, sum: 0, min: s.bpm, max: s.bpm, zones: { rest: 0, moderate: 0, target: 0, high: 0, danger: 0 }, active: 0, lastAt: s.at, lastBpm: s.bpm };
      minutes.set(key, m);
    }
    m.samples += 1;
    m.sum += s.bpm;
    m.min = Math.min(m.min, s.bpm);
    m.max = Math.max(m.max, s.bpm);
    m.zones[zoneOf(s.bpm, s.age)] += 1;
    if (isActive(s.bpm, s.intensity)) m.active += 1;
    if (s.at >= m.lastAt) {
      m.lastAt = s.at;
      m.lastBpm = s.bpm;
    }
  }
  return [...minutes.values()];
}

/**
 * Adds minutes folded in JavaScript to a lesson's aggregates (a minute already held sums up): the demo seed's lessons
 * that keep minutes without raw samples (older than the raw retention). The ingest's writeSamples folds the same way in
 * its one statement. Answers the samples added.
 */
export async function addMinutes(tx: Tx, lessonId: string, list: readonly MinuteAggregate[]): Promise<number> {
  if (list.length === 0) return 0;
  const col = <T>(f: (m: MinuteAggregate) => T) => sql.param(list.map(f));
  await tx.execute(sql`
    insert into heart_rate_minutes as h (lesson_id, student_id, minute, samples, bpm_sum, bpm_min, bpm_max, zone_rest, zone_moderate, zone_target, zone_high, zone_danger, active, last_at, last_bpm)
    select ${lessonId}::uuid, s, to_timestamp(m / 1000.0), n, su, mi, ma, zr, zm, zt, zh, zd, ac, to_timestamp(la / 1000.0), lb
      from unnest(${col((m) => m.studentId)}::uuid[], ${col((m) => m.minute)}::bigint[], ${col((m) => m.samples)}::int[], ${col((m) => m.sum)}::int[],
                  ${col((m) => m.min)}::int[], ${col((m) => m.max)}::int[], ${col((m) => m.zones.rest)}::int[], ${col((m) => m.zones.moderate)}::int[],
                  ${col((m) => m.zones.target)}::int[], ${col((m) => m.zones.high)}::int[], ${col((m) => m.zones.danger)}::int[], ${col((m) => m.active)}::int[],
                  ${col((m) => m.lastAt)}::bigint[], ${col((m) => m.lastBpm)}::int[]) as t(s, m, n, su, mi, ma, zr, zm, zt, zh, zd, ac, la, lb)
    on conflict (lesson_id, student_id, minute) do update set
      samples = h.samples + excluded.samples, bpm_sum = h.bpm_sum + excluded.bpm_sum,
      bpm_min = least(h.bpm_min, excluded.bpm_min), bpm_max = greatest(h.bpm_max, excluded.bpm_max),
      zone_rest = h.zone_rest + excluded.zone_rest, zone_moderate = h.zone_moderate + excluded.zone_moderate,
      zone_target = h.zone_target + excluded.zone_target, zone_high = h.zone_high + excluded.zone_high,
      zone_danger = h.zone_danger + excluded.zone_danger, active = h.active + excluded.active,
      last_at = greatest(h.last_at, excluded.last_at),
      last_bpm = case when excluded.last_at >= h.last_at then excluded.last_bpm else h.last_bpm end`);
  return list.reduce((n, m) => n + m.samples, 0);
}

/** A zone's index in ZONES, as the write statement counts seconds per zone. */
const ZONE_INDEX = Object.fromEntries(ZONES.map((z, i) => [z, i])) as Record<Zone, number>;

/** A lesson's per-minute aggregates as the summary reads them. */
export async function minuteRowsOf(db: DbOrTx, lessonId: string): Promise<MinuteRow[]> {
  const rows = await db.select().from(heartRateMinutes).where(eq(heartRateMinutes.lessonId, lessonId));
  return rows.map((r) => ({
    studentId: r.studentId,
    minute: r.minute.getTime(),
    samples: r.samples,
    bpmSum: r.bpmSum,
    bpmMin: r.bpmMin,
    bpmMax: r.bpmMax,
    zones: Object.fromEntries(ZONES.map((z) => [z, r[`zone${z[0].toUpperCase()}${z.slice(1)}` as `zone${Capitalize<Zone>}`]])) as Record<Zone, number>,
    active: r.active,
  }));
}

/** Computes a lesson's figures now (a lesson in progress runs to `now`). Null when the lesson does not exist. */
export async function computeLessonLoad(db: DbOrTx, lessonId: string, now = new Date()): Promise<{ lesson: typeof lessons.$inferSelect; load: LessonLoad } | null> {
  const [lesson] = await db.select().from(lessons).where(eq(lessons.id, lessonId));
  if (!lesson) return null;
  const load = lessonLoad(await minuteRowsOf(db, lessonId), lesson.startedAt.getTime(), lesson.endedAt?.getTime() ?? null, now.getTime());
  return { lesson, load };
}

/**
 * Stores a closed lesson's figures (lesson_loads and its students' rows in lesson_load_students), replacing what a late
 * batch made stale, and rewrites the rollups the term and district reports read (rollUp), in the caller's transaction.
 * A lesson in progress is not stored.
 */
export async function storeLessonLoad(tx: Tx, lessonId: string): Promise<void> {
  const computed = await computeLessonLoad(tx, lessonId);
  if (!computed?.lesson.endedAt) return;
  const lesson = { ...computed.lesson, endedAt: computed.lesson.endedAt };
  const before = await storedKeys(tx, lessonId);
  const values = lessonLoadRow(lesson, computed.load);
  await tx.insert(lessonLoads).values(values).onConflictDoUpdate({ target: lessonLoads.lessonId, set: values });
  await assignTerms(tx, sql`ll.lesson_id = ${lessonId}`);
  await tx.delete(lessonLoadStudents).where(eq(lessonLoadStudents.lessonId, lessonId));
  await insertLessonLoadStudents(tx, lessonLoadStudentRows(lesson, computed.load));
  await rollUp(tx, [...(before ? [before] : []), (await storedKeys(tx, lessonId))!]);
}

/** Removes a lesson's stored figures and corrects the rollups (a deleted lesson leaves no count behind). */
export async function removeLessonLoad(tx: Tx, lessonId: string): Promise<void> {
  const before = await storedKeys(tx, lessonId);
  if (!before) return;
  await tx.delete(lessonLoads).where(eq(lessonLoads.lessonId, lessonId));
  await rollUp(tx, [before]);
}

/** The organisations' time zone as SQL text (a constant: the same expression in a select list and its GROUP BY). */
const TZ = sql.raw(`'${ORG_TIME_ZONE}'`);
/** The lesson's day in the organisations' time zone (alias `ll`: lesson_loads or lesson_load_students). */
const DAY = sql`(ll.started_at at time zone ${TZ})::date`;
/** The lesson's week (its Monday) in the organisations' time zone: the key of lesson_load_class_weeks. */
export const WEEK = sql`date_trunc('week', ll.started_at at time zone ${TZ})::date`;

/**
 * Sets the term a stored lesson is counted in (alias `ll`, the rows `where` picks): its school's semester holding the
 * lesson's day (with the break; the latest starting), else the calendar term of the day. The SQL form of what
 * summary.service resolveTerm answers for a day (termOfDay in src/domain/lesson-load/reports.ts), so a whole table can
 * be set in one statement; migration 0051 (lesson_load_rollups_backfill) repeats it for the rows stored before.
 */
export async function assignTerms(db: DbOrTx, where: SQL): Promise<void> {
  await db.execute(sql`
    update lesson_loads ll set school_year = t.school_year, semester = t.semester
      from (select ll.lesson_id,
                   coalesce(se.start_year, extract(year from d.day)::int - case when extract(month from d.day) >= 8 then 0 else 1 end) as school_year,
                   coalesce(se.code, case when extract(month from d.day) >= 8 or extract(month from d.day) = 1 then ${SEMESTER.autumn}::smallint else ${SEMESTER.spring}::smallint end) as semester
              from lesson_loads ll cross join lateral (select ${DAY} as day) d
              left join lateral (select sy.start_year, se.code from semesters se join school_years sy on sy.id = se.school_year_id
                                  where se.org_id = ll.org_id and d.day between se.start_date and coalesce(se.break_end, se.end_date)
                                  order by se.start_date desc limit 1) se on true
             where ${where}) t
     where ll.lesson_id = t.lesson_id`);
}

/** What a stored lesson adds to the rollups: its school and day, its class and week, its term, its measured students. */
interface LessonKey {
  orgId: string;
  classId: string;
  day: string;
  week: string;
  schoolYear: number;
  semester: number;
  students: string[];
}

async function storedKeys(tx: Tx, lessonId: string): Promise<LessonKey | null> {
  const { rows } = await tx.execute<{ org_id: string; class_id: string; day: string; week: string; school_year: number; semester: number; students: string[] }>(sql`
    select ll.org_id, ll.class_id, ${DAY}::text as day, ${WEEK}::text as week, ll.school_year, ll.semester,
           array(select s.student_id from lesson_load_students s where s.lesson_id = ll.lesson_id and s.measured > 0) as students
      from lesson_loads ll where ll.lesson_id = ${lessonId}`);
  const r = rows[0];
  return r ? { orgId: r.org_id, classId: r.class_id, day: r.day, week: r.week, schoolYear: Number(r.school_year), semester: Number(r.semester), students: r.students } : null;
}

/** Sums and counts of stored lessons (alias `ll`): the figures' means are sum / count, so any grouping adds up exactly. */
const LESSON_SUMS = sql`count(*)::int, count(*) filter (where ll.meets_targets)::int,
  sum(ll.main_mean_bpm::float8), count(ll.main_mean_bpm)::int, sum(ll.group_density::float8), count(ll.group_density)::int,
  sum(ll.individual_density::float8), count(ll.individual_density)::int, sum(ll.target_share::float8), count(ll.target_share)::int`;
const FIGURE_COLUMNS = sql`lessons, meets, bpm_sum, bpm_n, group_sum, group_n, individual_sum, individual_n, target_sum, target_n`;
const SCHOOL_DAY_COLUMNS = sql`org_id, day, school_year, semester, ${FIGURE_COLUMNS}`;
const CLASS_WEEK_COLUMNS = sql`org_id, class_id, teacher_id, week, school_year, semester, ${FIGURE_COLUMNS}`;
/** A class's weeks from its stored lessons (alias `ll`, their lessons `l` for the teacher), per teacher and term. */
const classWeeksOf = (where: SQL) => sql`
  insert into lesson_load_class_weeks (${CLASS_WEEK_COLUMNS})
  select ll.org_id, ll.class_id, l.teacher_id, ${WEEK}, ll.school_year, ll.semester, ${LESSON_SUMS}
    from lesson_loads ll join lessons l on l.id = ll.lesson_id
   where ${where} and ll.school_year is not null
   group by ll.org_id, ll.class_id, l.teacher_id, ${WEEK}, ll.school_year, ll.semester`;
const STUDENT_TERM_COLUMNS = sql`student_id, class_id, org_id, school_year, semester, lessons, below, density_sum, density_n, main_bpm_sum, main_bpm_n, above`;
/**
 * Inserts the student terms of measured per-student rows (alias `ll`: lesson_load_students, its lesson's row as `l` for
 * the term; `from` and `where` pick them): the sums, and per age of ABOVE_AGES the lessons whose peak reached that
 * age's threshold (abovePeakByAge, handed as an array so the rule stays in src/domain).
 */
const insertStudentTerms = (from: SQL, where: SQL) => sql`
  insert into lesson_load_student_terms (${STUDENT_TERM_COLUMNS})
  select s.student_id, s.class_id, s.org_id, s.school_year, s.semester, s.lessons, s.below, s.density_sum, s.density_n, s.main_bpm_sum, s.main_bpm_n,
         array(select (select count(*) from unnest(s.peaks) p where p >= u.bpm)::int from unnest(${sql.param(abovePeakByAge())}::int[]) with ordinality u(bpm, o) order by u.o)
    from (select ll.student_id, ll.class_id, ll.org_id, l.school_year, l.semester, count(*)::int as lessons,
                 count(*) filter (where ll.density < ${CURRICULUM_TARGETS.individualDensity}::real)::int as below,
                 sum(ll.density::float8) as density_sum, count(ll.density)::int as density_n,
                 sum(ll.main_mean_bpm::float8) as main_bpm_sum, count(ll.main_mean_bpm)::int as main_bpm_n, array_agg(ll.peak_bpm) as peaks
            ${from}
           where ${where} and ll.measured > 0
           group by ll.student_id, ll.class_id, ll.org_id, l.school_year, l.semester) s`;

/**
 * Rewrites the rollups a lesson's rows touched, before and after its store (decision 051): the school's days of the
 * lesson (lesson_load_school_days), its class's week (lesson_load_class_weeks, every teacher and term) and, for its students, their terms in its class (lesson_load_student_terms), each
 * computed again from the stored rows rather than added to, so storing a lesson again never counts it twice.
 */
async function rollUp(tx: Tx, keys: readonly LessonKey[]): Promise<void> {
  for (const [orgId, days] of groupBy(keys, (k) => k.orgId, (k) => k.day)) {
    const list = sql.param([...days]);
    await tx.execute(sql`delete from lesson_load_school_days where org_id = ${orgId} and day = any(${list}::date[])`);
    await tx.execute(sql`
      insert into lesson_load_school_days (${SCHOOL_DAY_COLUMNS})
      select ll.org_id, ${DAY}, ll.school_year, ll.semester, ${LESSON_SUMS} from lesson_loads ll
       where ll.org_id = ${orgId} and ${DAY} = any(${list}::date[]) and ll.school_year is not null
       group by ll.org_id, ${DAY}, ll.school_year, ll.semester`);
  }
  for (const [classId, weeks] of groupBy(keys, (k) => k.classId, (k) => k.week)) {
    for (const week of weeks) {
      await tx.execute(sql`delete from lesson_load_class_weeks where class_id = ${classId} and week = ${week}::date`);
      // The week's lessons by start (the class-and-time index), in the organisations' time zone.
      await tx.execute(classWeeksOf(sql`ll.class_id = ${classId} and ll.started_at >= (${week}::date)::timestamp at time zone ${TZ}
        and ll.started_at < (${week}::date + 7)::timestamp at time zone ${TZ}`));
    }
  }
  const students = [...new Set(keys.flatMap((k) => k.students))];
  if (!students.length) return;
  const classes = sql.param([...new Set(keys.map((k) => k.classId))]);
  const years = sql.param(keys.map((k) => k.schoolYear));
  const semesters = sql.param(keys.map((k) => k.semester));
  const inTerms = (alias: SQL) => sql`(${alias}.school_year, ${alias}.semester) in (select * from unnest(${years}::smallint[], ${semesters}::smallint[]))`;
  await tx.execute(sql`delete from lesson_load_student_terms t where t.student_id = any(${sql.param(students)}::uuid[]) and t.class_id = any(${classes}::uuid[]) and ${inTerms(sql`t`)}`);
  // The terms' lessons lie within their days of the school (the rollup just written): only those rows of each student are read.
  await tx.execute(sql`
    with span as (select min(d.day) as lo, max(d.day) as hi from lesson_load_school_days d
                   where d.org_id = any(${sql.param([...new Set(keys.map((k) => k.orgId))])}::uuid[]) and ${inTerms(sql`d`)})
    ${insertStudentTerms(
      sql`from span, lesson_load_students ll join lesson_loads l on l.lesson_id = ll.lesson_id`,
      sql`ll.student_id = any(${sql.param(students)}::uuid[]) and ll.class_id = any(${classes}::uuid[])
       and ll.started_at >= (span.lo)::timestamp at time zone ${TZ} and ll.started_at < (span.hi + 1)::timestamp at time zone ${TZ}
       and ${inTerms(sql`l`)}`,
    )}`);
  // Every row of those students in those terms: another class's row may have become, or stopped being, shared.
  await flagStudentTerms(tx, sql`t.student_id = any(${sql.param(students)}::uuid[]) and ${inTerms(sql`t`)}`);
}

/**
 * Sets each student-term row's flag (alias `t`, the rows `where` picks; decision 051): whether the row alone makes its
 * student persistently below, or persistently above at their age on the term's first day (isPersistent, abovePeakBpm:
 * the age read with aboveAgeSteps as the summary read it before), that day (`age_on`, the term's start as resolveTerm
 * answers it: the school's semester, else the calendar term), and whether the student has another row of the term
 * (`shared`: then their rows are summed when read, so all of them are). The summary reads only the rows that may flag
 * a student (flagged not false, or shared) and those whose day is not its term's start.
 */
async function flagStudentTerms(db: DbOrTx, where: SQL): Promise<void> {
  await db.execute(sql`
    update lesson_load_student_terms t set shared = exists (select 1 from lesson_load_student_terms u
       where u.student_id = t.student_id and u.school_year = t.school_year and u.semester = t.semester and u.class_id <> t.class_id)
     where ${where}`);
  const { rows: terms } = await db.execute<{ org_id: string; school_year: number; semester: number; start: string | null }>(sql`
    select k.*, (select se.start_date::text from semesters se join school_years sy on sy.id = se.school_year_id
                  where se.org_id = k.org_id and sy.start_year = k.school_year and se.code = k.semester limit 1) as start
      from (select distinct t.org_id, t.school_year, t.semester from lesson_load_student_terms t where ${where}) k`);
  if (!terms.length) return;
  const days = terms.map((k) => k.start ?? calendarTerm(Number(k.school_year), Number(k.semester) as SemesterCode).from);
  // Each term's age steps, one after another in two flat arrays (a term's are sliced out by its ordinal).
  const steps = days.map((day) => aboveAgeSteps(day));
  const nFrom = steps[0].from.length;
  const nGrade = steps[0].byGrade.length;
  const age = aboveAgeIndexSql(
    sql`(${sql.param(steps.flatMap((x) => x.from))}::date[])[(k.i - 1) * ${nFrom} + 1 : k.i * ${nFrom}]`,
    sql`(${sql.param(steps.flatMap((x) => x.byGrade))}::int[])[(k.i - 1) * ${nGrade} + 1 : k.i * ${nGrade}]`,
    nGrade,
  );
  const persistent = (count: SQL) => persistentSql(sql`t.lessons`, count);
  await db.execute(sql`
    update lesson_load_student_terms t set age_on = f.day, flagged = ${persistent(sql`t.below`)} or ${persistent(sql`t.above[f.age + 1]`)}
      from (select k.org_id, k.school_year, k.semester, k.day, st.id as student_id, ${age} as age
              from unnest(${sql.param(terms.map((k) => k.org_id))}::uuid[], ${sql.param(terms.map((k) => k.school_year))}::smallint[],
                          ${sql.param(terms.map((k) => k.semester))}::smallint[], ${sql.param(days)}::date[]) with ordinality k(org_id, school_year, semester, day, i),
                   students st join classes sc on sc.id = st.class_id join grades sg on sg.id = sc.grade_id
             where st.id in (select t.student_id from lesson_load_student_terms t where ${where} and t.org_id = k.org_id and t.school_year = k.school_year and t.semester = k.semester)) f
     where ${where} and t.org_id = f.org_id and t.school_year = f.school_year and t.semester = f.semester and t.student_id = f.student_id`);
}

/**
 * Rebuilds the rollups from the stored rows (the demo seed and the benchmark, which write lesson rows in bulk; the migrations
 * lesson_load_rollups_backfill and lesson_load_class_weeks_backfill do the same for the rows stored before the
 * rollups existed): terms first for rows without one.
 */
export async function rebuildLessonLoadRollups(db: DbOrTx): Promise<void> {
  await assignTerms(db, sql`ll.school_year is null`);
  await db.execute(sql`delete from lesson_load_school_days`);
  await db.execute(sql`delete from lesson_load_student_terms`);
  await db.execute(sql`delete from lesson_load_class_weeks`);
  await db.execute(classWeeksOf(sql`true`));
  await db.execute(sql`
    insert into lesson_load_school_days (${SCHOOL_DAY_COLUMNS})
    select ll.org_id, ${DAY}, ll.school_year, ll.semester, ${LESSON_SUMS} from lesson_loads ll
     group by ll.org_id, ${DAY}, ll.school_year, ll.semester`);
  await db.execute(insertStudentTerms(sql`from lesson_load_students ll join lesson_loads l on l.lesson_id = ll.lesson_id`, sql`true`));
  await flagStudentTerms(db, sql`true`);
}

function groupBy<T>(list: readonly T[], key: (t: T) => string, value: (t: T) => string): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const t of list) map.set(key(t), (map.get(key(t)) ?? new Set()).add(value(t)));
  return map;
}

/** Inserts per-student rows a few hundred at a time (a statement's parameters are bounded). */
export async function insertLessonLoadStudents(tx: Tx, rows: readonly (typeof lessonLoadStudents.$inferInsert)[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await tx.insert(lessonLoadStudents).values(rows.slice(i, i + 500));
}

/** The lesson_load_students rows of a closed lesson: each student of its figures, with the lesson's school, class and start. */
export function lessonLoadStudentRows(lesson: Pick<typeof lessons.$inferSelect, 'id' | 'orgId' | 'classId' | 'startedAt'>, load: LessonLoad): (typeof lessonLoadStudents.$inferInsert)[] {
  return load.students.map((s) => ({
    lessonId: lesson.id,
    studentId: s.studentId,
    orgId: lesson.orgId,
    classId: lesson.classId,
    startedAt: lesson.startedAt,
    measured: s.measured,
    meanBpm: s.meanBpm,
    mainMeanBpm: s.mainMeanBpm,
    peakBpm: s.peakBpm,
    density: s.density,
    zoneRest: s.zones.rest,
    zoneModerate: s.zones.moderate,
    zoneTarget: s.zones.target,
    zoneHigh: s.zones.high,
    zoneDanger: s.zones.danger,
  }));
}

/** The lesson_loads row of a closed lesson and its figures (the demo seed builds many at once from the minutes it writes). */
export function lessonLoadRow(lesson: Pick<typeof lessons.$inferSelect, 'id' | 'orgId' | 'classId' | 'startedAt'> & { endedAt: Date }, load: LessonLoad): typeof lessonLoads.$inferInsert {
  return {
    lessonId: lesson.id,
    orgId: lesson.orgId,
    classId: lesson.classId,
    startedAt: lesson.startedAt,
    minutes: Math.max(1, Math.ceil((lesson.endedAt.getTime() - lesson.startedAt.getTime()) / MINUTE)),
    studentCount: load.students.length,
    mainMeanBpm: load.mainMeanBpm,
    peakBpm: load.peakBpm,
    recoveryBpm: load.recoveryBpm,
    groupDensity: load.groupDensity,
    individualDensity: load.individualDensity,
    targetShare: load.targetShare,
    meetsTargets: load.meetsTargets,
    computedAt: new Date(),
  };
}

/**
 * Lends bands to students of a lesson (the hub's device route and the teacher's console both call this): each band is
 * a `band` device of the lesson's school, each student is in the lesson's class. A student given another band gets it
 * instead of the old one; a band lent to another student of the lesson is refused. All or nothing.
 */
export async function bindBands(tx: Tx, lesson: { id: string; orgId: string; classId: string }, bindings: readonly BandBinding[]): Promise<{ studentId: string; deviceId: string }[]> {
  const serials = [...new Set(bindings.map((b) => b.band))];
  const bands = await tx
    .select({ id: devices.id, serialNo: devices.serialNo })
    .from(devices)
    .where(and(eq(devices.orgId, lesson.orgId), eq(devices.kind, 'band'), inArray(devices.serialNo, serials)));
  const bandBySerial = new Map(bands.map((b) => [b.serialNo, b.id]));
  const missing = serials.find((s) => !bandBySerial.has(s));
  if (missing) throw fieldError('bindings', 'lessonLoad:rules.bandUnknown', { band: missing });
  const ids = bindings.flatMap((b) => (b.studentId ? [b.studentId] : []));
  const regNos = bindings.flatMap((b) => (b.regNo ? [b.regNo] : []));
  const found = await tx
    .select({ id: students.id, regNo: students.regNo })
    .from(students)
    .where(and(eq(students.classId, lesson.classId), or(inArray(students.id, ids.length ? ids : ['00000000-0000-0000-0000-000000000000']), inArray(students.regNo, regNos.length ? regNos : ['']))));
  const byId = new Set(found.map((s) => s.id));
  const byRegNo = new Map(found.map((s) => [s.regNo, s.id]));
  const pairs = bindings.map((b) => {
    const studentId = b.studentId && byId.has(b.studentId) ? b.studentId : b.regNo ? byRegNo.get(b.regNo) : undefined;
    if (!studentId) throw fieldError('bindings', 'lessonLoad:rules.studentUnknown');
    return { studentId, deviceId: bandBySerial.get(b.band)! };
  });
  const students_ = new Set(pairs.map((p) => p.studentId));
  if (students_.size !== pairs.length || new Set(pairs.map((p) => p.deviceId)).size !== pairs.length) throw fieldError('bindings', 'lessonLoad:rules.bandTaken', { band: bindings[0].band });
  const taken = await tx
    .select({ studentId: lessonBands.studentId, deviceId: lessonBands.deviceId })
    .from(lessonBands)
    .where(and(eq(lessonBands.lessonId, lesson.id), inArray(lessonBands.deviceId, pairs.map((p) => p.deviceId))));
  const clash = taken.find((t) => !students_.has(t.studentId));
  if (clash) throw fieldError('bindings', 'lessonLoad:rules.bandTaken', { band: bands.find((b) => b.id === clash.deviceId)!.serialNo });
  await tx.delete(lessonBands).where(and(eq(lessonBands.lessonId, lesson.id), inArray(lessonBands.studentId, [...students_])));
  await tx.insert(lessonBands).values(pairs.map((p) => ({ lessonId: lesson.id, ...p })));
  return pairs;
}
