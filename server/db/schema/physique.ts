import { sql } from 'drizzle-orm';
import { bigint, boolean, date, doublePrecision, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { orgs } from './orgs';
import { classes, students } from './school';
import { testPlans } from './test-plans';

const orgRef = () => uuid('org_id').notNull().references(() => orgs.id);
const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * One student's physique result in one plan: raw value, score and level of every item (wide, so an
 * import is one COPY and a dashboard aggregates columns), the standard score, bonus, total and level.
 * Raw units: cm, kg, ml, seconds, counts. Item levels: excellent/good/pass/fail; BMI: normal/lowWeight/overweight/obese.
 */
export const physiqueResults = pgTable(
  'physique_results',
  {
    id: uuid('id').defaultRandom().notNull(),
    orgId: orgRef(),
    planId: uuid('plan_id').notNull().references(() => testPlans.id, { onDelete: 'cascade' }),
    /**
     * The start year of the plan's school year (2026 for 2026-2027): the partition key (docs/decisions/064-partitions-by-school-year.md).
     * Every writer sets it from the plan (PlanContext.startYear); a statement trigger refuses a row whose year is not
     * its plan's, and moving a plan to another school year moves its results (migration custom SQL
     * `physique_results_school_year_partitions`). The default only serves the migration of older rows, which that SQL
     * backfills and then drops the default, so a writer that leaves it out is refused.
     */
    schoolYear: smallint('school_year').notNull().default(0),
    studentId: uuid('student_id').notNull().references(() => students.id),
    /** Class, grade and gender at test time (students move on; results stay where they were). */
    classId: uuid('class_id').notNull().references(() => classes.id),
    gradeNo: smallint('grade_no').notNull(),
    /**
     * The class's name at test time (K12 class names carry the grade, "一年级1班", and are renamed as the cohort moves
     * up). The default only serves the migration of older rows, which it backfills; every write sets it.
     */
    className: text('class_name').notNull().default(''),
    gender: text('gender', { enum: ['male', 'female'] }).notNull(),
    testedOn: date('tested_on'),
    heightCm: doublePrecision('height_cm'),
    weightKg: doublePrecision('weight_kg'),
    bmi: doublePrecision('bmi'),
    bmiScore: smallint('bmi_score'),
    bmiLevel: text('bmi_level'),
    vitalCapacity: doublePrecision('vital_capacity'),
    vitalCapacityScore: smallint('vital_capacity_score'),
    vitalCapacityLevel: text('vital_capacity_level'),
    run50m: doublePrecision('run_50m'),
    run50mScore: smallint('run_50m_score'),
    run50mLevel: text('run_50m_level'),
    sitAndReach: doublePrecision('sit_and_reach'),
    sitAndReachScore: smallint('sit_and_reach_score'),
    sitAndReachLevel: text('sit_and_reach_level'),
    rope1min: doublePrecision('rope_1min'),
    rope1minScore: smallint('rope_1min_score'),
    rope1minLevel: text('rope_1min_level'),
    rope1minBonus: smallint('rope_1min_bonus'),
    sitUp1min: doublePrecision('sit_up_1min'),
    sitUp1minScore: smallint('sit_up_1min_score'),
    sitUp1minLevel: text('sit_up_1min_level'),
    sitUp1minBonus: smallint('sit_up_1min_bonus'),
    shuttle50x8: doublePrecision('shuttle_50x8'),
    shuttle50x8Score: smallint('shuttle_50x8_score'),
    shuttle50x8Level: text('shuttle_50x8_level'),
    standingLongJump: doublePrecision('standing_long_jump'),
    standingLongJumpScore: smallint('standing_long_jump_score'),
    standingLongJumpLevel: text('standing_long_jump_level'),
    pullUp: doublePrecision('pull_up'),
    pullUpScore: smallint('pull_up_score'),
    pullUpLevel: text('pull_up_level'),
    pullUpBonus: smallint('pull_up_bonus'),
    run1000m: doublePrecision('run_1000m'),
    run1000mScore: smallint('run_1000m_score'),
    run1000mLevel: text('run_1000m_level'),
    run1000mBonus: smallint('run_1000m_bonus'),
    run800m: doublePrecision('run_800m'),
    run800mScore: smallint('run_800m_score'),
    run800mLevel: text('run_800m_level'),
    run800mBonus: smallint('run_800m_bonus'),
    /** Null while an item of the grade is missing (never scored as 0). */
    standardScore: doublePrecision('standard_score'),
    bonus: doublePrecision('bonus'),
    total: doublePrecision('total'),
    level: text('level', { enum: ['excellent', 'good', 'pass', 'fail'] }),
    complete: boolean('complete').notNull().default(false),
    /** Invalid results are kept but excluded from every ranking, average and dashboard (docs/product-rules.md#score-validity). */
    invalid: boolean('invalid').notNull().default(false),
    invalidAt: at('invalid_at'),
    invalidBy: uuid('invalid_by').references(() => users.id),
    /**
     * The student's school year is approved 免予执行 (physique_exemptions, docs/product-rules.md#physique-year
     * "Exemptions"): listed, but left out of every rate and average like an invalid result. Set on approval and, for
     * results written later, by a statement trigger (migration custom SQL `exemption_rollups`).
     */
    exempt: boolean('exempt').notNull().default(false),
    source: text('source', { enum: ['import', 'sync', 'manual'] }).notNull(),
    /**
     * Where each raw value came from, as bit masks over RESULT_KEYS (src/domain/physique-results/value-source.ts):
     * imported from a workbook, or edited by hand; a value in neither came from a device (sync). A sync leaves
     * these values alone unless the person lets device records replace them.
     */
    importedFields: integer('imported_fields').notNull().default(0),
    editedFields: integer('edited_fields').notNull().default(0),
    updatedBy: uuid('updated_by').references(() => users.id),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // A partitioned table's keys hold the partition key: the primary key is (id, school_year), declared by the custom
    // SQL (drizzle-kit cannot change a primary key without a hand edit, so none is declared here, as for audit_logs).
    // A plan belongs to one school year, so (plan, student, year) is as unique as (plan, student) was.
    uniqueIndex('physique_results_plan_student_uq').on(t.planId, t.studentId, t.schoolYear),
    // Also covers the score list's summary and counts per class (INCLUDE list in migration 0033_list11's custom SQL,
    // summaryAndGroupsQuery in server/modules/physique-results/physique-results.service.ts): drizzle cannot declare INCLUDE.
    index('physique_results_org_plan_class_idx').on(t.orgId, t.planId, t.classId),
    index('physique_results_student_idx').on(t.studentId),
    // Also covers the grade view's distributions (INCLUDE list in the migration's custom SQL, with school_year since
    // physique_results_school_year_partitions; DISTRIBUTION_COLUMNS in server/modules/data-center/data-center.sql.ts):
    // drizzle cannot declare INCLUDE columns.
    index('physique_results_org_grade_idx').on(t.orgId, t.gradeNo, t.planId).where(sql`not ${t.invalid}`),
  ],
);

/**
 * The results counted per what the score list filters and adds up: organisation, plan, class and grade at test time,
 * gender, invalid, complete and level ('' when none), with the sum of their totals × 10 (one decimal, so exact). Kept
 * by statement-level triggers on physique_results (migration 0034_list12, after `-- custom:`) like dc_rollups, but
 * counting every result, invalid ones too, because the list shows and filters them; rows that reach 0 are deleted.
 * The score list's summary and its counts per class read these rows when its filter names no student
 * (physique-results.service.ts, docs/decisions/031-score-list-pages-by-class.md).
 */
export const physiqueResultCounts = pgTable(
  'physique_result_counts',
  {
    orgId: uuid('org_id').notNull(),
    planId: uuid('plan_id').notNull(),
    classId: uuid('class_id').notNull(),
    gradeNo: smallint('grade_no').notNull(),
    gender: text('gender').notNull(),
    invalid: boolean('invalid').notNull(),
    /** physique_results.exempt: counted in `n` (listed) but never in the summary's rates and averages. */
    exempt: boolean('exempt').notNull().default(false),
    complete: boolean('complete').notNull(),
    level: text('level').notNull(),
    n: integer('n').notNull(),
    totalX10: bigint('total_x10', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'physique_result_counts_pk', columns: [t.orgId, t.planId, t.classId, t.gradeNo, t.gender, t.invalid, t.exempt, t.complete, t.level] }),
    // A page's groups by its tie sets (plans of a start date, a grade, classes of a code; tieGroupsQuery in
    // physique-results.service.ts): a bureau's tie set is read through its plans' grade, not the year's every count.
    index('physique_result_counts_plan_grade_idx').on(t.planId, t.gradeNo, t.classId),
  ],
);

/** Who changed what in a result and when: edits, invalid/restore, imports (docs/product-rules.md#physique-results: results screen). */
export const physiqueResultLogs = pgTable(
  'physique_result_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    resultId: uuid('result_id').notNull(),
    /** The result's school year (physique_results.school_year): the reference names the result's whole key. The default only serves the migration. */
    schoolYear: smallint('school_year').notNull().default(0),
    action: text('action', { enum: ['edit', 'invalid', 'restore', 'import', 'sync'] }).notNull(),
    field: text('field'),
    oldValue: text('old_value'),
    newValue: text('new_value'),
    byUser: uuid('by_user').references(() => users.id),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [
    index('physique_result_logs_result_idx').on(t.resultId, t.at),
    // The reference to the result, (result_id, school_year) → physique_results (id, school_year) ON DELETE CASCADE ON
    // UPDATE CASCADE (moving a plan to another school year moves its results' logs with them), is declared by the custom
    // SQL after the primary key it points at.
  ],
);

/** Single-item test records from devices, self tests and class tests (selfTest/testRecord). */
export const testRecords = pgTable(
  'test_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: orgRef(),
    studentId: uuid('student_id').notNull().references(() => students.id),
    classId: uuid('class_id').notNull().references(() => classes.id),
    item: text('item').notNull(),
    raw: doublePrecision('raw').notNull(),
    source: text('source', { enum: ['device', 'self', 'class'] }).notNull(),
    deviceSn: text('device_sn'),
    testedAt: at('tested_at').notNull(),
    invalid: boolean('invalid').notNull().default(false),
    invalidAt: at('invalid_at'),
    invalidBy: uuid('invalid_by').references(() => users.id),
    /** Records that came through the device or app API: the sender's own record id, unique per sender (idempotent resend). */
    clientId: text('client_id'),
    /** The device for device records, the submitting user for app records; null for console records. */
    senderKey: uuid('sender_key'),
  },
  (t) => [
    index('test_records_org_time_idx').on(t.orgId, t.testedAt),
    index('test_records_student_item_idx').on(t.studentId, t.item, t.testedAt),
    uniqueIndex('test_records_sender_client_uq').on(t.senderKey, t.clientId),
  ],
);
