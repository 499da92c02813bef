import { and, count, desc, eq } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import type { AppIdentity, AppRecordQuery, AppRecordRow, AppSelfTestRow, AppSignIn } from '@/domain/activities/ingest';
import type { TokenData } from '@/domain/auth/types';
import type { DbOrTx } from '../../db/client';
import { activityRecords } from '../../db/schema/activities';
import { testRecords } from '../../db/schema/physique';
import { classes, parentStudents, parents, students } from '../../db/schema/school';
import { AppError } from '../../lib/app-error';
import { notFound } from '../../lib/resource';
import { consentedStudents } from '../consent/consent.service';
import { checkAccountPassword, startSession, withSignInLog, type ClientMeta } from '../auth/sso.service';

/**
 * Who an app user is (docs/product-rules.md#ingest): the student whose account it is, and/or the parent of the linked
 * children. Null when the account belongs to neither (a teacher's account cannot use the app API).
 */
export async function appIdentity(db: DbOrTx, userId: string, name = ''): Promise<AppIdentity | null> {
  const cols = { id: students.id, name: students.name, orgId: students.orgId, classId: students.classId, className: classes.name };
  const active = and(eq(students.enabled, true), eq(students.status, 'studying'));
  const enrolled = await db.select(cols).from(students).innerJoin(classes, eq(classes.id, students.classId)).where(and(eq(students.userId, userId), active));
  // docs/product-rules.md#consent: a student's own app account is used only with the guardian's `appAccount` consent.
  const allowed = await consentedStudents(db, 'appAccount', enrolled.map((s) => s.id));
  const own = enrolled.filter((s) => allowed.has(s.id));
  const children = await db
    .select({ ...cols, relation: parentStudents.relation })
    .from(parents)
    .innerJoin(parentStudents, eq(parentStudents.parentId, parents.id))
    .innerJoin(students, eq(students.id, parentStudents.studentId))
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(and(eq(parents.userId, userId), active))
    .orderBy(students.name);
  if (own.length === 0 && children.length === 0) return null;
  return {
    userId,
    name,
    identity: own.length > 0 ? 'student' : 'parent',
    students: [...own.map((s) => ({ ...s, relation: null })), ...children.filter((c) => !own.some((s) => s.id === c.id))],
  };
}

/** App sign-in without a captcha (a phone app has none); the per-IP rate limit and the account lock still apply. */
export async function appSignIn(db: DbOrTx, now: Date, input: AppSignIn, meta: ClientMeta): Promise<TokenData> {
  // Written to the sign-in log like the console's, success or refusal with its reason.
  return withSignInLog(db, now, meta, input.account, async (attempt) => {
    const user = await checkAccountPassword(db, now, input.account, input.password, attempt);
    if (!(await appIdentity(db, user.id))) {
      const [student] = await db.select({ id: students.id }).from(students).where(eq(students.userId, user.id)).limit(1);
      throw new AppError(403, student ? 'consent:refused.appSignIn' : 'activities:ingest.appNoIdentity');
    }
    return startSession(db, now, user, meta, attempt);
  });
}

/** The student a read names, when the caller may act for it; 404 otherwise (another family's child looks missing). */
export function studentOfCaller(identity: AppIdentity, studentId: string | undefined): string {
  const id = studentId ?? (identity.students.length === 1 || identity.identity === 'student' ? identity.students[0].id : undefined);
  if (!id || !identity.students.some((s) => s.id === id)) throw notFound();
  return id;
}

/** A student's activity records, newest first (invalid ones included and marked). */
export async function appRecordPage(db: DbOrTx, studentId: string, q: AppRecordQuery): Promise<Page<AppRecordRow>> {
  const where = and(eq(activityRecords.studentId, studentId), q.kind ? eq(activityRecords.kind, q.kind) : undefined, q.item ? eq(activityRecords.item, q.item) : undefined);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: activityRecords.id,
        clientId: activityRecords.clientId,
        kind: activityRecords.kind,
        refId: activityRecords.refId,
        item: activityRecords.item,
        value: activityRecords.value,
        durationS: activityRecords.durationS,
        measuredAt: activityRecords.measuredAt,
        source: activityRecords.source,
        invalid: activityRecords.invalid,
      })
      .from(activityRecords)
      .where(where)
      .orderBy(desc(activityRecords.measuredAt), desc(activityRecords.id))
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    db.select({ total: count() }).from(activityRecords).where(where),
  ]);
  return { records: rows.map((r) => ({ ...r, measuredAt: r.measuredAt.toISOString() })), total, current: q.current, size: q.size };
}

/** A student's single-item test records (device, self test, class test), newest first. */
export async function appSelfTestPage(db: DbOrTx, studentId: string, q: AppRecordQuery): Promise<Page<AppSelfTestRow>> {
  const where = and(eq(testRecords.studentId, studentId), q.item ? eq(testRecords.item, q.item) : undefined);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ id: testRecords.id, item: testRecords.item, value: testRecords.raw, source: testRecords.source, testedAt: testRecords.testedAt, invalid: testRecords.invalid })
      .from(testRecords)
      .where(where)
      .orderBy(desc(testRecords.testedAt), desc(testRecords.id))
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    db.select({ total: count() }).from(testRecords).where(where),
  ]);
  return { records: rows.map((r) => ({ ...r, testedAt: r.testedAt.toISOString() })), total, current: q.current, size: q.size };
}

/** The students an identity may write for. */
export const writableStudents = (identity: AppIdentity) => identity.students.map((s) => s.id);
