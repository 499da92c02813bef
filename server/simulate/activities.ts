import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm';
import { contestWindow } from '@/domain/contests/contests';
import type { Db } from '../db/client';
import { contests } from '../db/schema/contests';
import { homeworkClasses, homeworkItems, homeworks } from '../db/schema/homework';
import { orgs } from '../db/schema/orgs';
import { classes, grades, students } from '../db/schema/school';
import { type SimContest, type SimHomework, type SimStudent } from './traffic';

/** Contests and homework whose window overlaps the simulated days (any organisation), with scope and items. */
export async function activeActivities(db: Db, from: Date, now: Date): Promise<{ contests: SimContest[]; homework: SimHomework[]; orgParents: Map<string, string | null> }> {
  const day = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
  const contestRows = await db
    .select()
    .from(contests)
    .where(and(lte(contests.startDate, day(now)), gte(contests.endDate, day(from))))
    .orderBy(asc(contests.createdAt));
  const homeworkRows = await db
    .select()
    .from(homeworks)
    .where(and(lte(homeworks.startDate, day(now)), gte(homeworks.endDate, day(from))))
    .orderBy(asc(homeworks.createdAt));
  const ids = homeworkRows.map((h) => h.id);
  const cls = ids.length ? await db.select().from(homeworkClasses).where(inArray(homeworkClasses.homeworkId, ids)) : [];
  const its = ids.length ? await db.select().from(homeworkItems).where(inArray(homeworkItems.homeworkId, ids)).orderBy(asc(homeworkItems.sort)) : [];
  const orgParents = new Map((await db.select({ id: orgs.id, parentId: orgs.parentId }).from(orgs)).map((o) => [o.id, o.parentId]));
  return {
    contests: contestRows
      .map((c) => ({ ...c, ...contestWindow(c) }))
      .filter((c) => c.end > from)
      .map((c) => ({ id: c.id, orgId: c.orgId, items: c.items, start: c.start, end: c.end, gradeNos: c.gradeNos, classIds: c.classIds, collegeIds: c.collegeIds })),
    homework: homeworkRows
      // A homework's days run like a contest's (China days, an early end closes it at that moment).
      .map((h) => ({ ...h, ...contestWindow(h) }))
      .filter((h) => h.end > from)
      .map((h) => ({
        id: h.id,
        orgId: h.orgId,
        cycle: h.cycle,
        start: h.start,
        end: h.end,
        classIds: new Set(cls.filter((c) => c.homeworkId === h.id).map((c) => c.classId)),
        items: its.filter((i) => i.homeworkId === h.id).map((i) => ({ item: i.item, target: i.target })),
      })),
    orgParents,
  };
}

/** Whether something of organisation `ownerId` reaches the students of `orgId` (the same organisation or one above). */
export function reaches(orgParents: Map<string, string | null>, ownerId: string, orgId: string): boolean {
  for (let at: string | null | undefined = orgId; at; at = orgParents.get(at)) if (at === ownerId) return true;
  return false;
}

/** Studying students of an organisation with their grade and college (what contest scopes name). */
export async function rosterOf(db: Db, orgId: string): Promise<SimStudent[]> {
  return db
    .select({ id: students.id, classId: students.classId, gradeNo: grades.gradeNo, collegeId: classes.collegeId })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(and(eq(students.orgId, orgId), eq(students.status, 'studying'), eq(students.enabled, true)))
    .orderBy(asc(students.regNo));
}

