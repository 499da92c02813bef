import { getTableColumns } from 'drizzle-orm';
import { bigint, doublePrecision, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { WallPlaylist } from '../../../src/domain/wall/wall';
import { users } from './auth';
import { meets } from './meets';
import { orgs } from './orgs';
import { physiqueResults } from './physique';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Read-only wall-display links (docs/product-rules.md#wall-display): one organisation, one playlist. Only the SHA-256 of the token is
 * stored, so the table alone opens no wall; revoking sets `revoked_at` (the row stays for the list and the log).
 */
export const screenLinks = pgTable(
  'screen_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The organisation the wall shows (a school, or a bureau for a bureau-wide wall). */
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    /** The tenant organisation whose administrators manage the link (a bureau may create links for its schools). */
    ownerOrgId: uuid('owner_org_id')
      .notNull()
      .references(() => orgs.id),
    tokenHash: text('token_hash').notNull(),
    name: text('name').notNull(),
    playlist: jsonb('playlist').$type<WallPlaylist>().notNull(),
    /** A meet's live board link (docs/product-rules.md#wall-display): the wall shows this meet's published results only. */
    meetId: uuid('meet_id').references(() => meets.id, { onDelete: 'cascade' }),
    /** After this instant the wall is refused like a revoked link (meet links: a week after the meet). */
    expiresAt: at('expires_at'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: at('created_at').notNull().defaultNow(),
    revokedAt: at('revoked_at'),
    revokedBy: uuid('revoked_by').references(() => users.id),
    /** Last time a wall fetched config or a scene (updated at most once a minute). */
    lastSeenAt: at('last_seen_at'),
  },
  (t) => [uniqueIndex('screen_links_token_hash_uq').on(t.tokenHash), index('screen_links_owner_idx').on(t.ownerOrgId, t.createdAt), index('screen_links_org_idx').on(t.orgId), index('screen_links_meet_idx').on(t.meetId)],
);

/** Item column prefixes of physique_results (`run_50m` of `run_50m_score`), in table order. */
const ROLLUP_ITEM_PREFIXES: readonly string[] = Object.values(getTableColumns(physiqueResults))
  .map((c) => c.name)
  .filter((n) => n.endsWith('_score') && n !== 'standard_score')
  .map((n) => n.slice(0, -'_score'.length));

const count = (name: string) => integer(name).notNull().default(0);

/** The counters of a rollup row (dc_rollups and dc_school_rollups): counts, exact sums, BMI bands, per-item figures. */
const rollupCounters = () => ({
  tested: count('tested'),
  assessed: count('assessed'),
  lvExcellent: count('lv_excellent'),
  lvGood: count('lv_good'),
  lvPass: count('lv_pass'),
  lvFail: count('lv_fail'),
  /** Σ round(total × 10): totals have one decimal, so sums stay exact integers. */
  totalX10: bigint('total_x10', { mode: 'number' }).notNull().default(0),
  bmiNormal: count('bmi_normal'),
  bmiLowWeight: count('bmi_low_weight'),
  bmiOverweight: count('bmi_overweight'),
  bmiObese: count('bmi_obese'),
  ...Object.fromEntries(
    ROLLUP_ITEM_PREFIXES.flatMap((p) => [
      [`${p}_n`, count(`${p}_n`)],
      [`${p}_sum`, count(`${p}_sum`)],
      [`${p}_exc`, count(`${p}_exc`)],
      [`${p}_fail`, count(`${p}_fail`)],
    ]),
  ),
});

/**
 * Running aggregates of the valid physique results per plan × class × grade × gender, kept by statement-level
 * triggers on physique_results (migration 0002, after `-- custom:`), so every write path — import, edit,
 * invalid/restore, sync, delete, rollover — updates them in its own transaction without knowing they exist. The
 * data-centre views add these rows up instead of re-reading the per-student rows (docs/decisions/008-dashboards-from-rollups.md).
 * No foreign keys: a plan's rows go when its results are deleted (the trigger drops rows that reach 0 tested).
 */
export const dcRollups = pgTable(
  'dc_rollups',
  {
    planId: uuid('plan_id').notNull(),
    classId: uuid('class_id').notNull(),
    gradeNo: smallint('grade_no').notNull(),
    gender: text('gender').notNull(),
    orgId: uuid('org_id').notNull(),
    ...rollupCounters(),
  },
  (t) => [primaryKey({ columns: [t.planId, t.classId, t.gradeNo, t.gender] }), index('dc_rollups_org_idx').on(t.orgId)],
);

/**
 * dc_rollups added up per plan × grade × gender (a plan belongs to one school, so these are a school's rows): what the
 * views read when their units are schools and no class filter applies (the district view, every trend), ≈ 4× fewer
 * rows than per class. Kept by statement-level triggers on dc_rollups itself (migration 0032, after `-- custom:`),
 * so it follows every write that changes the class rollups, in the same transaction.
 */
export const dcSchoolRollups = pgTable(
  'dc_school_rollups',
  {
    planId: uuid('plan_id').notNull(),
    gradeNo: smallint('grade_no').notNull(),
    gender: text('gender').notNull(),
    orgId: uuid('org_id').notNull(),
    ...rollupCounters(),
  },
  (t) => [primaryKey({ columns: [t.planId, t.gradeNo, t.gender] })],
);

/**
 * The grade view's distributions (docs/decisions/008-dashboards-from-rollups.md): per plan × grade × gender ('all': both
 * genders) and item (an item key or 'total'), the n, the five numbers of the scores and of the raw values, and the
 * histogram's bucket counts, exactly as the view computes them from the rows (distributionQuery). Recomputed, never
 * added to (percentiles do not add up), for the (plan, grade) groups a statement on physique_results touches, by its
 * statement triggers (migration custom SQL grade_distributions). Only items with results have a row. No foreign keys,
 * like dc_rollups: a group's rows go when its last counted result goes.
 */
export const dcGradeDistributions = pgTable(
  'dc_grade_distributions',
  {
    planId: uuid('plan_id').notNull(),
    gradeNo: smallint('grade_no').notNull(),
    gender: text('gender').notNull(),
    item: text('item').notNull(),
    /** The plan's school: the change feed retires only its answers and its ancestors' (docs/decisions/027-read-cache-and-change-feed.md). */
    orgId: uuid('org_id').notNull(),
    n: integer('n').notNull(),
    score5: doublePrecision('score5').array(),
    raw5: doublePrecision('raw5').array(),
    histogram: integer('histogram').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.planId, t.gradeNo, t.gender, t.item] })],
);

/**
 * Students per class and gender (all, and enabled), kept by statement-level triggers on students like dc_rollups:
 * the views' roster (participation rates) adds these rows up instead of counting a district's students per request.
 */
export const dcRoster = pgTable(
  'dc_roster',
  {
    classId: uuid('class_id').notNull(),
    gender: text('gender').notNull(),
    orgId: uuid('org_id').notNull(),
    students: count('students'),
    enabled: count('enabled'),
  },
  (t) => [primaryKey({ columns: [t.classId, t.gender] }), index('dc_roster_org_idx').on(t.orgId)],
);

/**
 * dc_roster added up per grade (cohort) and gender: the roster of views that name no class (a district, a whole
 * school) reads a few rows per school instead of joining every class. Kept by statement-level triggers on dc_roster
 * (by the class's grade) and on classes (a class moved to another grade moves its counts), migration 0032 after
 * `-- custom:`.
 */
export const dcGradeRoster = pgTable(
  'dc_grade_roster',
  {
    gradeId: uuid('grade_id').notNull(),
    gender: text('gender').notNull(),
    orgId: uuid('org_id').notNull(),
    students: count('students'),
    enabled: count('enabled'),
  },
  (t) => [primaryKey({ columns: [t.gradeId, t.gender] }), index('dc_grade_roster_org_idx').on(t.orgId)],
);
