import { sql } from 'drizzle-orm';
import { boolean, date, doublePrecision, index, integer, pgTable, primaryKey, real, smallint, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ALERT_KINDS } from '../../../src/domain/lesson-load/alerts';
import { users } from './auth';
import { lessons } from './lessons';
import { orgs } from './orgs';
import { classes, students } from './school';
import { devices } from './venue';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Lesson load (docs/product-rules.md#lesson-load): heart-rate bands lent to students for a lesson, their samples, the
 * per-minute aggregates every report reads, the lesson's stored figures and its safety alerts.
 */

/** A band lent to a student for one lesson (bands are shared across classes: the binding lives with the lesson). */
export const lessonBands = pgTable(
  'lesson_bands',
  {
    lessonId: uuid('lesson_id').notNull().references(() => lessons.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id').notNull().references(() => students.id),
    deviceId: uuid('device_id').notNull().references(() => devices.id),
    boundAt: at('bound_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.lessonId, t.studentId] }), uniqueIndex('lesson_bands_lesson_device_uq').on(t.lessonId, t.deviceId), index('lesson_bands_device_idx').on(t.deviceId)],
);

/**
 * Raw samples, one per student and second, kept RAW_RETENTION_DAYS (src/domain/lesson-load/samples.ts). On the
 * database this table is partitioned by day on `at` (custom migration), so retention drops whole partitions. No foreign
 * keys: the ingest checks the lesson and its bindings for the whole batch.
 */
export const heartRateSamples = pgTable(
  'heart_rate_samples',
  {
    lessonId: uuid('lesson_id').notNull(),
    studentId: uuid('student_id').notNull(),
    at: at('at').notNull(),
    bpm: smallint('bpm').notNull(),
    intensity: smallint('intensity'),
  },
  (t) => [primaryKey({ columns: [t.lessonId, t.studentId, t.at] })],
);

/** Per student and minute of a lesson, kept for good: what every report and the monitor's running figures read. */
export const heartRateMinutes = pgTable(
  'heart_rate_minutes',
  {
    lessonId: uuid('lesson_id').notNull().references(() => lessons.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id').notNull(),
    minute: at('minute').notNull(),
    samples: smallint('samples').notNull(),
    bpmSum: integer('bpm_sum').notNull(),
    bpmMin: smallint('bpm_min').notNull(),
    bpmMax: smallint('bpm_max').notNull(),
    /** Seconds in each zone (src/domain/lesson-load/zones.ts), from the student's age on the lesson's day. */
    zoneRest: smallint('zone_rest').notNull().default(0),
    zoneModerate: smallint('zone_moderate').notNull().default(0),
    zoneTarget: smallint('zone_target').notNull().default(0),
    zoneHigh: smallint('zone_high').notNull().default(0),
    zoneDanger: smallint('zone_danger').notNull().default(0),
    /** Seconds counted as exercise (zones.ts isActive). */
    active: smallint('active').notNull().default(0),
    /** The last kept sample of the minute and its bpm: the drop rules' previous sample, the monitor's now. */
    lastAt: at('last_at').notNull(),
    lastBpm: smallint('last_bpm').notNull(),
  },
  (t) => [primaryKey({ columns: [t.lessonId, t.studentId, t.minute] })],
);

/** Samples dropped by the ingest, counted per lesson and reason (src/domain/lesson-load/samples.ts DROP_REASONS). */
export const heartRateDrops = pgTable(
  'heart_rate_drops',
  {
    lessonId: uuid('lesson_id').notNull().references(() => lessons.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.lessonId, t.reason] })],
);

/**
 * The seconds the heart-rate ingest dropped (server/modules/lesson-load/heart-rate.service.ts), per lesson and band:
 * a resent batch's drops are counted into heart_rate_drops once, like its kept samples are stored once. Kept as long
 * as the raw samples (TIYU_HEART_RATE_RAW_DAYS), by the retention job.
 */
export const heartRateDropped = pgTable(
  'heart_rate_dropped',
  {
    lessonId: uuid('lesson_id').notNull().references(() => lessons.id, { onDelete: 'cascade' }),
    /** The band's serial number as sent (an unbound band has no student). */
    band: text('band').notNull(),
    at: at('at').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [primaryKey({ columns: [t.lessonId, t.band, t.at] }), index('heart_rate_dropped_at_idx').on(t.at)],
);

/**
 * A lesson's figures (src/domain/lesson-load/summary.ts lessonLoad), stored when it closes and again when a late batch
 * arrives, so term and district reports read one row per lesson; each student's figures are in lesson_load_students.
 */
export const lessonLoads = pgTable(
  'lesson_loads',
  {
    lessonId: uuid('lesson_id').primaryKey().references(() => lessons.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    classId: uuid('class_id').notNull().references(() => classes.id),
    startedAt: at('started_at').notNull(),
    minutes: smallint('minutes').notNull(),
    studentCount: smallint('student_count').notNull(),
    mainMeanBpm: real('main_mean_bpm'),
    peakBpm: smallint('peak_bpm'),
    recoveryBpm: real('recovery_bpm'),
    groupDensity: real('group_density'),
    individualDensity: real('individual_density'),
    targetShare: real('target_share'),
    meetsTargets: boolean('meets_targets').notNull(),
    /**
     * The term the lesson is counted in (the school's semester holding its day, else the calendar term), set by
     * storeLessonLoad: the key of its rollups (decision 051). Null only before the rollups' migration filled it.
     */
    schoolYear: smallint('school_year'),
    semester: smallint('semester'),
    computedAt: at('computed_at').notNull().defaultNow(),
  },
  (t) => [index('lesson_loads_org_time_idx').on(t.orgId, t.startedAt), index('lesson_loads_class_time_idx').on(t.classId, t.startedAt)],
);

/**
 * Each measured student's figures of a stored lesson (the lesson's `students` in lesson_loads, one row each), written
 * with the lesson row by storeLessonLoad and rewritten with it after a late batch. The lesson's school, class and start
 * are copied here so the term reports' persistently-below/above lists are one indexed aggregate (decision 051).
 */
export const lessonLoadStudents = pgTable(
  'lesson_load_students',
  {
    lessonId: uuid('lesson_id').notNull().references(() => lessonLoads.lessonId, { onDelete: 'cascade' }),
    studentId: uuid('student_id').notNull().references(() => students.id),
    orgId: uuid('org_id').notNull(),
    classId: uuid('class_id').notNull(),
    startedAt: at('started_at').notNull(),
    /** Seconds with a kept sample. */
    measured: integer('measured').notNull(),
    meanBpm: real('mean_bpm'),
    mainMeanBpm: real('main_mean_bpm'),
    peakBpm: smallint('peak_bpm'),
    /** Individual exercise density (0–1). */
    density: real('density'),
    /** Seconds in each zone. */
    zoneRest: integer('zone_rest').notNull().default(0),
    zoneModerate: integer('zone_moderate').notNull().default(0),
    zoneTarget: integer('zone_target').notNull().default(0),
    zoneHigh: integer('zone_high').notNull().default(0),
    zoneDanger: integer('zone_danger').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.lessonId, t.studentId] }),
    // The term lists: a school's measured rows of the term, with what they aggregate (an index-only scan once visible).
    index('lesson_load_students_org_time_idx').on(t.orgId, t.startedAt, t.classId, t.studentId, t.density, t.peakBpm).where(sql`${t.measured} > 0`),
    // A student's rows in time order: storeLessonLoad re-adds a student's term from the term's days only.
    index('lesson_load_students_student_idx').on(t.studentId, t.startedAt),
  ],
);

/**
 * Sums and counts of a school's stored lessons per day (in the organisations' time zone) and term they were counted in
 * (decision 051): what the district comparison reads instead of every lesson row. Rewritten by storeLessonLoad from
 * lesson_loads for the day of the lesson it stores, so a lesson stored again is never counted twice.
 */
export const lessonLoadSchoolDays = pgTable(
  'lesson_load_school_days',
  {
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    day: date('day').notNull(),
    schoolYear: smallint('school_year').notNull(),
    semester: smallint('semester').notNull(),
    lessons: integer('lessons').notNull(),
    /** Lessons meeting the curriculum targets. */
    meets: integer('meets').notNull(),
    /** Each figure's sum over the lessons that have it, and how many have it (its mean is sum / count). */
    bpmSum: doublePrecision('bpm_sum'),
    bpmN: integer('bpm_n').notNull(),
    groupSum: doublePrecision('group_sum'),
    groupN: integer('group_n').notNull(),
    individualSum: doublePrecision('individual_sum'),
    individualN: integer('individual_n').notNull(),
    targetSum: doublePrecision('target_sum'),
    targetN: integer('target_n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.day, t.schoolYear, t.semester] }), index('lesson_load_school_days_term_idx').on(t.orgId, t.schoolYear, t.semester, t.day)],
);

/**
 * A student's measured lessons of a term in one class (the lesson's class), summed (decision 051): what the
 * persistently-below/above lists read instead of every per-student row. `above` counts the lessons at or above the
 * "above" threshold for each age the threshold can be read for (reports.ts ABOVE_AGES), so the count at the student's
 * age on the report's term start (birth date, else grade) can be read again when that age changed; `flagged` is the
 * row's flag at the age when written, so the lists read only the rows that may flag a student.
 * Rewritten by storeLessonLoad from lesson_load_students for the students of the lesson it stores.
 */
export const lessonLoadStudentTerms = pgTable(
  'lesson_load_student_terms',
  {
    studentId: uuid('student_id').notNull().references(() => students.id),
    classId: uuid('class_id').notNull(),
    orgId: uuid('org_id').notNull(),
    schoolYear: smallint('school_year').notNull(),
    semester: smallint('semester').notNull(),
    /** Lessons with a kept sample of the student. */
    lessons: integer('lessons').notNull(),
    /** Of those, lessons under the curriculum's individual density (reports.ts isBelow). */
    below: integer('below').notNull(),
    densitySum: doublePrecision('density_sum'),
    densityN: integer('density_n').notNull(),
    mainBpmSum: doublePrecision('main_bpm_sum'),
    mainBpmN: integer('main_bpm_n').notNull(),
    /** Per age of ABOVE_AGES (oldest first), the lessons whose peak reached that age's abovePeakBpm. */
    above: integer('above').array().notNull().default(sql`'{}'`),
    /**
     * Whether this row alone makes the student persistently below, or persistently above at their age on `ageOn`
     * (reports.ts isPersistent, abovePeakBpm), computed when the row is written; null when not known: the student's
     * birth date or class, or their class's grade, changed since (triggers of migration lesson_load_student_terms_flags).
     */
    flagged: boolean('flagged'),
    /** The term's first day the flag's age was read on (the summary's term start; another start: the flag is not used). */
    ageOn: date('age_on'),
    /** The student has another row of the same term (another class): their flag is of the rows summed, so all are read. */
    shared: boolean('shared').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.studentId, t.classId, t.schoolYear, t.semester] }),
    // The term's rows by the day their flag's age was read on: the summary looks for rows of another day (none, normally).
    index('lesson_load_student_terms_age_idx').on(t.orgId, t.schoolYear, t.semester, t.ageOn),
    // The rows the summary's lists read: those that may flag their student.
    index('lesson_load_student_terms_flag_idx').on(t.orgId, t.schoolYear, t.semester).where(sql`${t.flagged} is not false or ${t.shared}`),
  ],
);

/**
 * Sums and counts of a class's stored lessons per week (Monday, in the organisations' time zone), teacher and term they
 * were counted in (decision 051): what the term summary's groupings (class, teacher, grade, college, school) and weekly
 * trend read instead of every lesson row. Rewritten by storeLessonLoad from lesson_loads for the class and week of the
 * lesson it stores (every teacher and term of that week), so a lesson stored again is never counted twice.
 */
export const lessonLoadClassWeeks = pgTable(
  'lesson_load_class_weeks',
  {
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    classId: uuid('class_id').notNull().references(() => classes.id),
    /** The lessons' teacher (lessons.teacher_id, fixed when the lesson is created); null: none named. */
    teacherId: uuid('teacher_id'),
    week: date('week').notNull(),
    schoolYear: smallint('school_year').notNull(),
    semester: smallint('semester').notNull(),
    lessons: integer('lessons').notNull(),
    /** Lessons meeting the curriculum targets. */
    meets: integer('meets').notNull(),
    /** Each figure's sum over the lessons that have it, and how many have it (its mean is sum / count). */
    bpmSum: doublePrecision('bpm_sum'),
    bpmN: integer('bpm_n').notNull(),
    groupSum: doublePrecision('group_sum'),
    groupN: integer('group_n').notNull(),
    individualSum: doublePrecision('individual_sum'),
    individualN: integer('individual_n').notNull(),
    targetSum: doublePrecision('target_sum'),
    targetN: integer('target_n').notNull(),
  },
  (t) => [
    unique('lesson_load_class_weeks_uq').on(t.classId, t.week, t.schoolYear, t.semester, t.teacherId).nullsNotDistinct(),
    index('lesson_load_class_weeks_term_idx').on(t.orgId, t.schoolYear, t.semester),
  ],
);

/** Safety alerts of a lesson (src/domain/lesson-load/alerts.ts), kept with who acknowledged them and when. */
export const lessonAlerts = pgTable(
  'lesson_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    lessonId: uuid('lesson_id').notNull().references(() => lessons.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id').notNull().references(() => students.id),
    kind: text('kind', { enum: ALERT_KINDS }).notNull(),
    /** When the condition began (the run's first sample above the threshold, or the band's last sample). */
    startedAt: at('started_at').notNull(),
    raisedAt: at('raised_at').notNull().defaultNow(),
    peakBpm: smallint('peak_bpm'),
    acknowledgedAt: at('acknowledged_at'),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id),
    note: text('note'),
  },
  (t) => [
    uniqueIndex('lesson_alerts_uq').on(t.lessonId, t.studentId, t.kind, t.startedAt),
    index('lesson_alerts_open_idx').on(t.lessonId).where(sql`${t.acknowledgedAt} is null`),
  ],
);
