import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { orgs } from './orgs';
import { students } from './school';
import { testPlans } from './test-plans';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A plan whose reports the school has released to the families (docs/product-rules.md#physique-year, "Reports parents
 * read"): one row while released, with who released it and when; withdrawing deletes it (the operation log keeps both).
 */
export const reportReleases = pgTable('report_releases', {
  planId: uuid('plan_id')
    .primaryKey()
    .references(() => testPlans.id, { onDelete: 'cascade' }),
  orgId: uuid('org_id')
    .notNull()
    .references(() => orgs.id),
  releasedBy: uuid('released_by').references(() => users.id),
  releasedAt: at('released_at').notNull(),
  version: integer('version').notNull().default(1),
});

/**
 * The app accounts' notifications (a student's own account, its parents' accounts). The text is not stored: `kind`
 * and the names it refers to are, and the app API words it in the reader's language. A release writes one per account
 * and student, in the release's transaction; a withdrawal deletes that plan's ones.
 */
export const appNotifications = pgTable(
  'app_notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    /** 'reportReleased': a plan's report of `studentId` can be read. */
    kind: text('kind', { enum: ['reportReleased'] }).notNull(),
    planId: uuid('plan_id').references(() => testPlans.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id').references(() => students.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull(),
    readAt: at('read_at'),
  },
  (t) => [
    index('app_notifications_user_idx').on(t.userId, t.createdAt),
    index('app_notifications_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    index('app_notifications_plan_idx').on(t.planId),
  ],
);
