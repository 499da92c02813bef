import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { ORG_TYPE, type OrgType } from '@/domain/constants';
import type { ExemptionKind } from '@/domain/exemptions/exemptions';
import type { Db, DbOrTx, Tx } from '../db/client';
import { memberships, users } from '../db/schema/auth';
import { orgs } from '../db/schema/orgs';
import { physiqueResults } from '../db/schema/physique';
import { physiqueExemptions } from '../db/schema/physique-year';
import { parentStudents, parents, schoolYears, students, teacherClasses, teachers } from '../db/schema/school';
import { testPlans } from '../db/schema/test-plans';
import type { Storage } from '../lib/storage/storage';
import { saveUpload } from '../modules/files/files.service';
import { appIdentity } from '../modules/ingest/app.service';
import { appCreateExemption, createExemption, decideExemption } from '../modules/exemptions/exemptions.service';
import type { Actor } from '../plugins/tenant';

/**
 * The demo's 免测/缓测 requests (docs/product-rules.md#physique-year, "Exemptions"), written through the services: in
 * the K12 school, myclass01's requests for tested students of their classes (one approved exempt, so the score list
 * shows 免测 and its rates leave the student out; one approved deferred; one refused; one pending) and a parent's
 * pending request through the app API; in the university, an approved exempt, a pending and a refused one. Dates are
 * the days before `today`.
 */

async function actorOf(tx: DbOrTx, account: string, orgType: OrgType): Promise<Actor | null> {
  const [m] = await tx
    .select({ userId: users.id, accountId: memberships.id, orgId: memberships.orgId, tenantOrgId: memberships.tenantOrgId })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(eq(users.accountNum, account))
    .limit(1);
  return m ? { ...m, roleId: m.accountId, orgType, permissions: new Set(), dataScope: 'org' } : null;
}

const at = (today: string, daysBefore: number, hour: number) => new Date(new Date(`${today}T${String(hour).padStart(2, '0')}:00:00+08:00`).getTime() - daysBefore * 86_400_000);

/** Students of `orgId` with a complete result in the current school year's plans (so the badge and the rates show). */
async function testedStudents(tx: DbOrTx, orgId: string, classIds?: readonly string[]) {
  const rows = await tx
    .selectDistinct({ id: students.id, regNo: students.regNo, name: students.name, classId: students.classId, yearId: testPlans.schoolYearId, level: physiqueResults.level })
    .from(physiqueResults)
    .innerJoin(testPlans, eq(testPlans.id, physiqueResults.planId))
    .innerJoin(schoolYears, and(eq(schoolYears.id, testPlans.schoolYearId), eq(schoolYears.current, true)))
    .innerJoin(students, and(eq(students.id, physiqueResults.studentId), eq(students.classId, physiqueResults.classId)))
    .where(and(eq(physiqueResults.orgId, orgId), eq(physiqueResults.complete, true), eq(students.status, 'studying'), classIds ? inArray(students.classId, [...classIds]) : undefined))
    .orderBy(asc(students.regNo))
    .limit(80);
  // One row per student (a student tested in two plans of the year has two).
  return [...new Map(rows.map((r) => [r.id, r])).values()];
}

interface Plan {
  studentId: string;
  yearId: string;
  kind: ExemptionKind;
  reason: string;
  decide?: { decision: 'approved' | 'refused'; note: string };
  daysBefore: number;
}

async function write(tx: Tx, requester: Actor, approver: Actor, today: string, plans: readonly Plan[]) {
  for (const p of plans) {
    const made = await createExemption(tx, requester, { studentId: p.studentId, schoolYearId: p.yearId, kind: p.kind, reason: p.reason, certificateFileId: null }, at(today, p.daysBefore, 9));
    if (p.decide) await decideExemption(tx, approver, made.id, { ...p.decide, version: made.version }, at(today, p.daysBefore - 1, 15));
  }
}

export async function seedExemptionDemo(tx: Tx, today: string): Promise<void> {
  // K12: the class-scoped teacher asks for students of their classes, the school's administrator decides.
  const teacher = await actorOf(tx, 'myclass01', ORG_TYPE.k12);
  const admin = await actorOf(tx, 'school01', ORG_TYPE.k12);
  if (teacher && admin) {
    const mine = await tx
      .select({ classId: teacherClasses.classId })
      .from(teacherClasses)
      .innerJoin(teachers, eq(teachers.id, teacherClasses.teacherId))
      .where(eq(teachers.userId, teacher.userId));
    const kids = await testedStudents(tx, teacher.tenantOrgId, mine.map((m) => m.classId));
    const failing = kids.find((k) => k.level === 'fail') ?? kids[0];
    const others = kids.filter((k) => k.id !== failing?.id);
    if (failing && others.length >= 3) {
      await write(tx, teacher, admin, today, [
        { studentId: failing.id, yearId: failing.yearId, kind: 'exempt', reason: '先天性心脏病（室间隔缺损术后），医嘱禁止剧烈运动。', decide: { decision: 'approved', note: '证明齐全，同意免予执行。' }, daysBefore: 20 },
        { studentId: others[0].id, yearId: others[0].yearId, kind: 'deferred', reason: '右踝关节骨折，石膏固定六周，医嘱暂缓体育测试。', decide: { decision: 'approved', note: '同意暂缓，康复后补测。' }, daysBefore: 14 },
        { studentId: others[1].id, yearId: others[1].yearId, kind: 'exempt', reason: '近期感冒发热。', decide: { decision: 'refused', note: '短期疾病不属于免测情形，请病愈后参加测试或申请缓测。' }, daysBefore: 9 },
        { studentId: others[2].id, yearId: others[2].yearId, kind: 'deferred', reason: '阑尾炎术后一个月，医嘱三个月内避免剧烈运动。', daysBefore: 2 },
      ]);
    }
    // A parent's request through the app API (pending): the first app parent's first child without a request.
    const [parent] = await tx
      .select({ userId: users.id, studentId: parentStudents.studentId })
      .from(parents)
      .innerJoin(users, eq(users.id, parents.userId))
      .innerJoin(parentStudents, eq(parentStudents.parentId, parents.id))
      .where(and(isNotNull(parents.userId), sql`not exists (select 1 from ${physiqueExemptions} e where e.student_id = ${parentStudents.studentId})`))
      .orderBy(asc(users.accountNum))
      .limit(1);
    const identity = parent ? await appIdentity(tx, parent.userId) : null;
    if (parent && identity?.students.some((s) => s.id === parent.studentId)) {
      await appCreateExemption(tx, identity, { studentId: parent.studentId, kind: 'exempt', reason: '孩子患有哮喘，医生建议不参加耐力跑项目，附诊断证明。', certificateFileId: null }, at(today, 1, 20));
    }
  }
  // The university: its administrator asks and decides.
  const college = await actorOf(tx, 'college01', ORG_TYPE.university);
  if (college) {
    const kids = await testedStudents(tx, college.tenantOrgId);
    if (kids.length >= 3) {
      await write(tx, college, college, today, [
        { studentId: kids[0].id, yearId: kids[0].yearId, kind: 'exempt', reason: '下肢残疾（肢体二级），持残疾人证及医院证明。', decide: { decision: 'approved', note: '同意免予执行，存档备案。' }, daysBefore: 30 },
        { studentId: kids[1].id, yearId: kids[1].yearId, kind: 'deferred', reason: '膝关节半月板损伤，术后康复期。', daysBefore: 3 },
        { studentId: kids[2].id, yearId: kids[2].yearId, kind: 'exempt', reason: '体重偏高，跑步吃力。', decide: { decision: 'refused', note: '不属于因病或残疾情形，请正常参加测试。' }, daysBefore: 12 },
      ]);
    }
  }
}

/** A one-page PDF standing in for a hospital's certificate (the demo's file store has no real scans). */
async function certificatePdf(name: string): Promise<Buffer> {
  const { PDFDocument } = await import('pdf-lib');
  const { loadFont, patchedFontkit } = await import('../lib/pdf-fonts');
  const doc = await PDFDocument.create();
  doc.registerFontkit(patchedFontkit);
  const font = await doc.embedFont(await loadFont('regular'), { subset: true });
  const page = doc.addPage([420, 595]);
  const lines = ['江宁区人民医院 诊断证明书（演示样例）', `患者：${name}`, '诊断：先天性心脏病（室间隔缺损术后）', '医嘱：避免剧烈运动，建议免予体育测试。', '医师签名：王医生'];
  lines.forEach((l, i) => page.drawText(l, { x: 36, y: 540 - i * 28, size: i ? 12 : 14, font }));
  return Buffer.from(await doc.save());
}

/**
 * Attaches a certificate file to the demo's requests that have none yet of the K12 school's approved exempt ones (files
 * go into the app's file store, so this runs where the store is, after the seed: server/main.ts, like the meet documents).
 */
export async function seedExemptionCertificates(db: Db, storage: Storage, now: Date): Promise<void> {
  const rows = await db
    .select({ id: physiqueExemptions.id, orgId: physiqueExemptions.orgId, name: students.name, requestedBy: physiqueExemptions.requestedBy })
    .from(physiqueExemptions)
    .innerJoin(students, eq(students.id, physiqueExemptions.studentId))
    .innerJoin(orgs, eq(orgs.id, physiqueExemptions.orgId))
    .where(and(eq(physiqueExemptions.kind, 'exempt'), sql`${physiqueExemptions.certificateFileId} is null`, sql`${physiqueExemptions.status} <> 'refused'`));
  for (const r of rows) {
    // A request without a requester (none in the demo) keeps no certificate: a file has an owner.
    if (!r.requestedBy) continue;
    const file = await saveUpload(db, storage, { orgId: r.orgId, userId: r.requestedBy }, 'attachment', `诊断证明-${r.name}.pdf`, await certificatePdf(r.name), now);
    await db.update(physiqueExemptions).set({ certificateFileId: file.id }).where(eq(physiqueExemptions.id, r.id));
  }
}
