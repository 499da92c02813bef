import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { memberships } from './auth';
import { orgs } from './orgs';

/** Departments of an organisation, a tree (docs/product-rules.md#departments). */
export const departments = pgTable(
  'departments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    parentId: uuid('parent_id').references((): AnyPgColumn => departments.id),
    name: text('name').notNull(),
    /** Two digits, unique among the departments of the same parent. */
    code: text('code').notNull(),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('departments_org_idx').on(t.orgId),
    uniqueIndex('departments_parent_code_uq').on(t.orgId, sql`coalesce(${t.parentId}, '00000000-0000-0000-0000-000000000000'::uuid)`, t.code),
  ],
);

/** Accounts (memberships of the organisation) in a department. */
export const departmentMembers = pgTable(
  'department_members',
  {
    departmentId: uuid('department_id').notNull().references(() => departments.id, { onDelete: 'cascade' }),
    membershipId: uuid('membership_id').notNull().references(() => memberships.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.departmentId, t.membershipId] }), index('department_members_membership_idx').on(t.membershipId)],
);
