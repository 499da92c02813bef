import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { files } from './files';
import { orgs } from './orgs';
import { schoolYears, students } from './school';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * 免测/缓测 requests (docs/product-rules.md#physique-year): a class teacher's (or, through the app API, a parent's)
 * request for one student and school year, with the reason and a medical certificate, approved or refused by a role
 * holding the approval button. An approved request decides the student's year (src/domain/physique-year/year-result.ts).
 * One open or approved request per student and year (partial unique index); a refused one may be asked again.
 */
export const physiqueExemptions = pgTable(
  'physique_exemptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => orgs.id),
    studentId: uuid('student_id').notNull().references(() => students.id),
    schoolYearId: uuid('school_year_id').notNull().references(() => schoolYears.id),
    /** src/domain/physique-year/year-result.ts EXEMPTION_KINDS: exempt (免予执行) or deferred (暂缓执行). */
    kind: text('kind', { enum: ['exempt', 'deferred'] }).notNull(),
    reason: text('reason').notNull(),
    certificateFileId: uuid('certificate_file_id').references(() => files.id),
    status: text('status', { enum: ['pending', 'approved', 'refused'] }).notNull().default('pending'),
    requestedBy: uuid('requested_by').references(() => users.id),
    /** 'console' (a teacher) or 'app' (a parent through the app API). */
    requestedVia: text('requested_via', { enum: ['console', 'app'] }).notNull().default('console'),
    requestedAt: at('requested_at').notNull().defaultNow(),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: at('decided_at'),
    decisionNote: text('decision_note'),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('physique_exemptions_student_year_uq').on(t.studentId, t.schoolYearId).where(sql`${t.status} <> 'refused'`),
    index('physique_exemptions_org_year_idx').on(t.orgId, t.schoolYearId, t.status),
  ],
);
