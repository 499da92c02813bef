import { boolean, doublePrecision, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { orgs } from './orgs';
import { testPlans } from './test-plans';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * 中考体育 conversion table versions (docs/product-rules.md#physique-year: 中考体育 conversion): a management
 * organisation's step table from a basis (the total or one item's score) to exam points, per stage and exam year.
 * Each upload for the same stage and year is a new row with the next `table_version`; old versions stay.
 */
export const conversionTables = pgTable(
  'conversion_tables',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The publishing management organisation (district). */
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    name: text('name').notNull(),
    stage: text('stage', { enum: ['primary', 'junior', 'senior'] }).notNull(),
    year: smallint('year').notNull(),
    /** 'total' or an item key (src/domain/conversion CONVERSION_BASES). */
    basis: text('basis').notNull(),
    maxPoints: doublePrecision('max_points').notNull(),
    /** Steps ascending by threshold: [{ min, points }]. */
    rows: jsonb('rows').$type<{ min: number; points: number }[]>().notNull(),
    note: text('note'),
    /** A sample table (the demo's): shown everywhere as "示例, not an official table"; never set by a save. */
    sample: boolean('sample').notNull().default(false),
    /** The version within (org, stage, year): 1, 2, … */
    tableVersion: integer('table_version').notNull(),
    /** The record's edit counter (stale saves are refused). */
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('conversion_tables_version_uq').on(t.orgId, t.stage, t.year, t.tableVersion)],
);

/** The conversion table version a test plan applies (at most one per plan); the table cannot go while a plan holds it. */
export const planConversions = pgTable(
  'plan_conversions',
  {
    planId: uuid('plan_id')
      .primaryKey()
      .references(() => testPlans.id, { onDelete: 'cascade' }),
    tableId: uuid('table_id')
      .notNull()
      .references(() => conversionTables.id),
  },
  (t) => [index('plan_conversions_table_idx').on(t.tableId)],
);
