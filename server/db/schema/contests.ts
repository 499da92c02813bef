import { sql } from 'drizzle-orm';
import { date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { CONTEST_TYPES, RANKING_RULES, type ContestLevel } from '../../../src/domain/contests/contests';
import type { ActivityItemKey } from '../../../src/domain/activities/items';
import { users } from './auth';
import { orgs } from './orgs';
import { classes, students } from './school';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Online contests (docs/product-rules.md#contests): ranking contests and obstacle challenges. Entries are
 * activity_records of kind 'contest' with `ref_id` = the contest. A management organisation's contest is open to the
 * students of its schools; the scope lists narrow it (empty = everyone).
 */
export const contests = pgTable(
  'contests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    type: text('type', { enum: CONTEST_TYPES }).notNull(),
    name: text('name').notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    /** Set by an early end: the contest ends at that moment. */
    endedAt: at('ended_at'),
    gradeNos: smallint('grade_nos').array().notNull().default(sql`'{}'`),
    classIds: uuid('class_ids').array().notNull().default(sql`'{}'`),
    collegeIds: uuid('college_ids').array().notNull().default(sql`'{}'`),
    items: text('items').array().notNull().$type<ActivityItemKey[]>(),
    rule: text('rule', { enum: RANKING_RULES }).notNull(),
    prizes: text('prizes'),
    levels: jsonb('levels').notNull().$type<ContestLevel[]>().default([]),
    passLevels: smallint('pass_levels'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: at('created_at').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('contests_org_idx').on(t.orgId, t.startDate)],
);

/**
 * Each student's valid entries of a contest item, rolled up (best both ways, sum, sessions, last entry and the class
 * of the last entry). Kept by statement-level triggers on activity_records (migration, `-- custom`), so a leaderboard
 * reads one row per participant instead of every entry (tests/bench/leaderboard.ts).
 */
export const contestScores = pgTable(
  'contest_scores',
  {
    contestId: uuid('contest_id').notNull(),
    item: text('item').notNull(),
    studentId: uuid('student_id')
      .notNull()
      .references(() => students.id),
    classId: uuid('class_id')
      .notNull()
      .references(() => classes.id),
    maxValue: doublePrecision('max_value').notNull(),
    minValue: doublePrecision('min_value').notNull(),
    total: doublePrecision('total').notNull(),
    sessions: integer('sessions').notNull(),
    lastAt: at('last_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.contestId, t.item, t.studentId] })],
);
