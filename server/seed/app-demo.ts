import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import type { DbOrTx } from '../db/client';
import { users } from '../db/schema/auth';
import { orgs } from '../db/schema/orgs';
import { classes, grades, parentStudents, parents, students } from '../db/schema/school';

/** Students of the demo K12 school with their own app account (docs/product-rules.md#ingest), two classes of grade 7. */
export const APP_DEMO_STUDENT_CLASSES = 2;

/** The demo's app accounts: `student001`… and `parent001`…, demo password. */
export const appStudentAccount = (n: number) => `student${String(n).padStart(3, '0')}`;
export const appParentAccount = (n: number) => `parent${String(n).padStart(3, '0')}`;

/**
 * Gives the students of the first classes of grade 7 of the first K12 school, and their parents, their own sign-in
 * accounts for the app API (no membership: an app account is no console account). Mobiles: parents keep theirs,
 * students get numbers of the 199 range that no other user has.
 */
export async function seedAppDemo(tx: DbOrTx, passwordHash: string): Promise<{ students: number; parents: number }> {
  const [school] = await tx.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).orderBy(asc(orgs.code), asc(orgs.createdAt)).limit(1);
  if (!school) return { students: 0, parents: 0 };
  const classRows = await tx
    .select({ id: classes.id })
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(and(eq(classes.orgId, school.id), eq(grades.gradeNo, 7)))
    .orderBy(asc(classes.code))
    .limit(APP_DEMO_STUDENT_CLASSES);
  const kids = await tx
    .select({ id: students.id, name: students.name, gender: students.gender })
    .from(students)
    .where(and(inArray(students.classId, classRows.map((c) => c.id)), eq(students.status, 'studying')))
    .orderBy(asc(students.classId), asc(students.regNo));
  const taken = new Set((await tx.select({ mobile: users.mobile }).from(users).where(isNotNull(users.mobile))).map((u) => u.mobile));
  let next = 0;
  const freeMobile = () => {
    let m: string;
    do m = `199${String(++next).padStart(8, '0')}`;
    while (taken.has(m));
    taken.add(m);
    return m;
  };
  const studentUsers = kids.map((k, i) => ({ id: crypto.randomUUID(), accountNum: appStudentAccount(i + 1), mobile: freeMobile(), name: k.name, gender: k.gender, passwordHash }));
  const family = await tx
    .selectDistinct({ id: parents.id, name: parents.name, gender: parents.gender, mobile: parents.mobile })
    .from(parents)
    .innerJoin(parentStudents, eq(parentStudents.parentId, parents.id))
    .where(inArray(parentStudents.studentId, kids.map((k) => k.id)))
    .orderBy(asc(parents.mobile));
  const parentUsers = family
    .filter((p) => !taken.has(p.mobile))
    .map((p, i) => ({ id: crypto.randomUUID(), accountNum: appParentAccount(i + 1), mobile: p.mobile, name: p.name, gender: p.gender, passwordHash, parentId: p.id }));
  if (studentUsers.length) await tx.insert(users).values(studentUsers);
  if (parentUsers.length) await tx.insert(users).values(parentUsers.map(({ parentId: _, ...u }) => u));
  for (const [i, k] of kids.entries()) await tx.update(students).set({ userId: studentUsers[i].id }).where(eq(students.id, k.id));
  for (const p of parentUsers) await tx.update(parents).set({ userId: p.id }).where(eq(parents.id, p.parentId));
  return { students: studentUsers.length, parents: parentUsers.length };
}
