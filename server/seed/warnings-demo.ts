import { and, eq, sql } from 'drizzle-orm';
import { ORG_TYPE, type OrgType } from '@/domain/constants';
import { localDate } from '@/domain/dates';
import type { WarningKind } from '@/domain/warnings/warnings';
import type { Tx } from '../db/client';
import { memberships, users } from '../db/schema/auth';
import { trainingPlanStudents, trainingPlans } from '../db/schema/homework';
import { orgs } from '../db/schema/orgs';
import { teachers } from '../db/schema/school';
import { WHOLE_ORG } from '../lib/data-scope';
import type { Actor } from '../plugins/tenant';
import { addCaseAction, createCaseTraining, openCase, saveCase } from '../modules/warnings/cases.service';
import { computeWarnings, schoolYearOf } from '../modules/warnings/warnings.service';

const DAY = 86_400_000;
const shift = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/** A seeding actor of an organisation: the account's user, acting on the whole organisation. */
async function actorOf(tx: Tx, account: string, orgId: string, orgType: OrgType): Promise<Actor | null> {
  const [u] = await tx
    .select({ userId: users.id, accountId: memberships.id, roleId: sql<string>`''` })
    .from(users)
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.tenantOrgId, orgId)))
    .where(eq(users.accountNum, account))
    .limit(1);
  if (!u) return null;
  return { userId: u.userId, accountId: u.accountId, orgId, tenantOrgId: orgId, roleId: u.roleId, orgType, permissions: new Set(), dataScope: 'org' };
}

/**
 * Warnings with cases (docs/product-rules.md#warnings) for the K12 school and the university: the physique demo's
 * results warn of every kind, and
 * several warnings are followed up, in different states, with actions and (K12) special-training plans.
 */
export async function seedWarningsDemo(tx: Tx, now: Date): Promise<void> {
  const today = localDate(now);
  const schools = [
    { name: '南京市江宁区实验学校', type: ORG_TYPE.k12, admin: 'school01', teacher: 'teacher01' },
    { name: '江苏体育科技大学', type: ORG_TYPE.university, admin: 'college01', teacher: 'college01' },
  ] as const;
  for (const school of schools) {
    const [org] = await tx.select({ id: orgs.id }).from(orgs).where(eq(orgs.name, school.name));
    if (!org) continue;
    const admin = await actorOf(tx, school.admin, org.id, school.type);
    const teacher = (await actorOf(tx, school.teacher, org.id, school.type)) ?? admin;
    const year = await schoolYearOf(tx, org.id);
    if (!admin || !teacher || !year) continue;
    const warnings = await computeWarnings(tx, { tenantOrgId: org.id, classScope: WHOLE_ORG }, year, now);
    const staff = await tx.select({ id: teachers.id }).from(teachers).where(eq(teachers.orgId, org.id)).orderBy(teachers.workNo).limit(3);
    const pick = (kind: WarningKind, n: number) => warnings.filter((w) => w.kind === kind).slice(0, n);
    // A training plan of the training demo: a student of it gets a case it can link (the plan stays a candidate).
    const trained = school.type === ORG_TYPE.k12 ? await trainedStudents(tx, org.id) : new Set<string>();
    const first = warnings.find((w) => w.kind === 'failingItem' && trained.has(w.studentId));
    const failing = [...(first ? [first] : []), ...pick('failingItem', 2).filter((w) => w.id !== first?.id)].slice(0, 2);
    const chosen = [...failing, ...pick('bmi', 2), ...pick('decline', 2), ...pick('missing', 1)];
    let i = 0;
    for (const w of chosen) {
      const at = (minutes: number) => new Date(now.getTime() - (chosen.length - i) * 2 * DAY + minutes * 60_000);
      const teacherId = staff[i % Math.max(1, staff.length)]?.id ?? null;
      const made = await openCase(tx, admin, { studentId: w.studentId, kind: w.kind, assignedTeacherId: teacherId, note: '班主任反馈，已纳入本学期重点关注名单。' }, at(0));
      let version = made.version;
      const act = async (kind: 'parentContacted' | 'retest' | 'note', note: string, minutes: number) => {
        version = (await addCaseAction(tx, teacher, made.id, { kind, note, version }, at(minutes))).after.version;
      };
      if (w.kind === 'failingItem' && school.type === ORG_TYPE.k12 && i === 0) {
        await act('parentContacted', '电话联系家长，说明不及格项目，约定家庭每日练习 15 分钟。', 60);
        const plan = await createCaseTraining(tx, teacher, made.id, { name: `${w.name}专项提升`, cycle: 'daily', startDate: today, endDate: shift(today, 28), items: [{ item: 'rope1min', target: 100, intensity: 'medium' }] }, at(90));
        version = plan.after.version;
      } else if (w.kind === 'bmi') {
        await act('parentContacted', '与家长面谈饮食与作息，建议每周三次有氧运动。', 45);
        if (i % 2 === 0) {
          version = (await saveCase(tx, teacher, made.id, { assignedTeacherId: teacherId, status: 'closed', note: '家长已配合调整饮食，学生参加课后锻炼，转入常规关注。', version }, at(600))).after.version;
        }
      } else if (w.kind === 'decline') {
        await act('note', '与学生谈话：本学期膝伤恢复期，训练量下降。', 30);
        await act('retest', '约定下月复测 50 米跑和立定跳远。', 50);
      } else if (w.kind === 'missing') {
        await act('retest', '已安排补测，补测日期另行通知。', 20);
        version = (await saveCase(tx, teacher, made.id, { assignedTeacherId: teacherId, status: 'closed', note: '学生已参加补测，成绩已录入。', version }, at(300))).after.version;
      } else if (w.kind === 'failingItem') {
        await act('parentContacted', '已通过班级群联系家长。', 15);
      }
      i++;
    }
  }
}

/** Students in a special-training plan of the school. */
async function trainedStudents(tx: Tx, orgId: string): Promise<Set<string>> {
  const rows = await tx
    .select({ id: trainingPlanStudents.studentId })
    .from(trainingPlanStudents)
    .innerJoin(trainingPlans, eq(trainingPlans.id, trainingPlanStudents.planId))
    .where(eq(trainingPlans.orgId, orgId));
  return new Set(rows.map((r) => r.id));
}
