import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { AppIdentity } from '@/domain/activities/ingest';
import { ERR } from '@/domain/errors';
import type { ScoreLevel } from '@/domain/physique/level';
import { isStandardVersion, itemMeta, type BmiBand } from '@/domain/physique/standard';
import {
  adviceKey,
  APP_NOTIFICATIONS_MAX,
  itemBands,
  type AppNotification,
  type AppNotificationList,
  type AppReport,
  type AppReportRow,
} from '@/domain/parent-reports/parent-reports';
import type { DbOrTx } from '../../db/client';
import { appNotifications, reportReleases } from '../../db/schema/parent-reports';
import { physiqueResults } from '../../db/schema/physique';
import { classes, schoolYears, students } from '../../db/schema/school';
import { testPlans } from '../../db/schema/test-plans';
import { AppError } from '../../lib/app-error';
import { WHOLE_ORG } from '../../lib/data-scope';
import { isUuid } from '../../lib/ids';
import type { Caller } from '../physique-results/physique-results.service';
import { studentReport } from '../physique-results/physique-report.service';
import { studentOfCaller } from '../ingest/app.service';

type Translate = (key: string, options?: Record<string, unknown>) => string;
const notFound = () => new AppError(404, ERR.notFound);

/**
 * The report service reads as a school's staff with the whole school in view: the app caller has already been limited
 * to its own child (studentOfCaller) and the child's school, so the tenant is the child's school ('k12' only makes
 * the service read that one organisation, which is right for a university too).
 */
const schoolCaller = (identity: AppIdentity, orgId: string): Caller => ({ family: 'k12', tenantOrgId: orgId, userId: identity.userId, classScope: WHOLE_ORG });

/** Released plans in which a student has a valid result, newest first. */
const releasedResults = (db: DbOrTx, studentIds: readonly string[]) =>
  db
    .select({
      studentId: physiqueResults.studentId,
      planId: testPlans.id,
      planName: testPlans.name,
      academicYear: schoolYears.academicYear,
      semesterCode: testPlans.semesterCode,
      startDate: testPlans.startDate,
      releasedAt: reportReleases.releasedAt,
      total: physiqueResults.total,
      level: physiqueResults.level,
    })
    .from(physiqueResults)
    .innerJoin(reportReleases, eq(reportReleases.planId, physiqueResults.planId))
    .innerJoin(testPlans, and(eq(testPlans.id, physiqueResults.planId), isNull(testPlans.deletedAt)))
    .innerJoin(schoolYears, eq(schoolYears.id, testPlans.schoolYearId))
    .where(and(inArray(physiqueResults.studentId, [...studentIds]), eq(physiqueResults.invalid, false)))
    .orderBy(desc(testPlans.startDate), desc(reportReleases.releasedAt));

/** The released reports of the students the caller acts for (its own, or its children's). */
export async function appReportList(db: DbOrTx, identity: AppIdentity): Promise<AppReportRow[]> {
  if (identity.students.length === 0) return [];
  const rows = await releasedResults(db, identity.students.map((s) => s.id));
  const byId = new Map(identity.students.map((s) => [s.id, s]));
  return rows.map((r) => {
    const s = byId.get(r.studentId)!;
    return {
      studentId: r.studentId,
      studentName: s.name,
      className: s.className,
      planId: r.planId,
      planName: r.planName,
      academicYear: r.academicYear,
      semesterCode: r.semesterCode,
      releasedAt: r.releasedAt.toISOString(),
      total: r.total,
      level: (r.level as ScoreLevel | null) ?? null,
    };
  });
}

/**
 * A released report of one of the caller's students (docs/product-rules.md#physique-year, "Reports parents read"): the
 * named plan (or the latest released one), each item against the standard's bands for the student's grade and gender,
 * last school year's released values beside it, the items to improve and the advice per item and level, in the
 * caller's language. Another family's child, an unreleased plan or a plan without the child's result: 404.
 */
export async function appReport(db: DbOrTx, identity: AppIdentity, studentId: string, planId: string | undefined, t: Translate): Promise<AppReport> {
  if (!isUuid(studentId)) throw notFound();
  const id = studentOfCaller(identity, studentId);
  const student = identity.students.find((s) => s.id === id)!;
  const released = await releasedResults(db, [id]);
  const chosen = planId ? released.find((r) => r.planId === planId) : released[0];
  if (!chosen) throw notFound();
  const caller = schoolCaller(identity, student.orgId);
  const report = await studentReport(db, caller, id, { planId: chosen.planId });
  const result = report.result;
  if (!result) throw notFound();
  const [plan] = await db.select({ version: testPlans.standardVersion }).from(testPlans).where(eq(testPlans.id, chosen.planId));
  const version = isStandardVersion(plan?.version) ? plan.version : undefined;

  // Last year: the latest released report of the school year just before this one ('2024-2025' before '2025-2026').
  const start = Number(chosen.academicYear.slice(0, 4));
  const previous = released.find((r) => r.academicYear === `${start - 1}-${start}`) ?? null;
  const last = previous ? (await studentReport(db, caller, id, { planId: previous.planId })).result : null;

  const improve = new Set(report.improve);
  const items = result.items.map((i) => {
    const before = last?.items.find((l) => l.item === i.item);
    const level = (i.level as ScoreLevel | BmiBand | null) ?? null;
    const key = adviceKey(i.item, level);
    return {
      item: i.item,
      unit: itemMeta(i.item, version).unit,
      raw: i.raw,
      score: i.score,
      level,
      bands: itemBands(result.gradeNo, report.student.gender, i.item, version),
      lastYear: before && before.score != null ? { raw: before.raw, score: before.score, level: (before.level as ScoreLevel | BmiBand | null) ?? null } : null,
      improve: improve.has(i.item),
      advice: key ? t(key) : null,
    };
  });
  return {
    student: { id, name: report.student.name, gender: report.student.gender, className: report.student.className, orgName: report.student.orgName },
    plan: {
      id: chosen.planId,
      name: chosen.planName,
      academicYear: chosen.academicYear,
      semesterCode: chosen.semesterCode,
      testedOn: result.testedOn,
      gradeNo: result.gradeNo,
      releasedAt: chosen.releasedAt.toISOString(),
    },
    standardScore: result.standardScore,
    bonus: result.bonus,
    total: result.total,
    level: result.level,
    items,
    improve: report.improve,
    lastYear: previous && last ? { planId: previous.planId, planName: previous.planName, academicYear: previous.academicYear, total: last.total, level: last.level } : null,
  };
}

const notificationColumns = {
  id: appNotifications.id,
  kind: appNotifications.kind,
  planId: appNotifications.planId,
  studentId: appNotifications.studentId,
  createdAt: appNotifications.createdAt,
  readAt: appNotifications.readAt,
  planName: testPlans.name,
  studentName: students.name,
  className: classes.name,
};
type NotificationRow = { id: string; kind: 'reportReleased'; planId: string | null; studentId: string | null; createdAt: Date; readAt: Date | null; planName: string | null; studentName: string | null; className: string | null };

const notificationsOf = (db: DbOrTx) =>
  db
    .select(notificationColumns)
    .from(appNotifications)
    .leftJoin(testPlans, eq(testPlans.id, appNotifications.planId))
    .leftJoin(students, eq(students.id, appNotifications.studentId))
    .leftJoin(classes, eq(classes.id, students.classId));

/** A notification in the reader's language: the text is composed when read, never stored (parentReports:notification.*). */
function wordNotification(r: NotificationRow, t: Translate): AppNotification {
  const params = { student: r.studentName ?? '', plan: r.planName ?? '' };
  return {
    id: r.id,
    kind: r.kind,
    title: t(`parentReports:notification.${r.kind}.title`, params),
    text: t(`parentReports:notification.${r.kind}.text`, params),
    planId: r.planId,
    studentId: r.studentId,
    createdAt: r.createdAt.toISOString(),
    readAt: r.readAt?.toISOString() ?? null,
  };
}

/** The caller's notifications, newest first (at most APP_NOTIFICATIONS_MAX), and how many are unread. */
export async function appNotificationList(db: DbOrTx, identity: AppIdentity, t: Translate): Promise<AppNotificationList> {
  const mine = eq(appNotifications.userId, identity.userId);
  const [rows, [{ unread }]] = await Promise.all([
    notificationsOf(db).where(mine).orderBy(desc(appNotifications.createdAt), desc(appNotifications.id)).limit(APP_NOTIFICATIONS_MAX),
    db.select({ unread: count() }).from(appNotifications).where(and(mine, isNull(appNotifications.readAt))),
  ]);
  return { records: rows.map((r) => wordNotification(r, t)), unread };
}

/** Marks one of the caller's notifications read (reading it again keeps the first time); another's is 404. */
export async function markNotificationRead(db: DbOrTx, identity: AppIdentity, id: string, now: Date, t: Translate): Promise<AppNotification> {
  if (!isUuid(id)) throw notFound();
  const mine = and(eq(appNotifications.id, id), eq(appNotifications.userId, identity.userId));
  await db.update(appNotifications).set({ readAt: now }).where(and(mine, isNull(appNotifications.readAt)));
  const [row] = await notificationsOf(db).where(mine);
  if (!row) throw notFound();
  return wordNotification(row, t);
}
