import { eq, sql } from 'drizzle-orm';
import { contestWindow } from '@/domain/activities/contests';
import type { DbOrTx } from '../../db/client';
import { contests } from '../../db/schema/contests';
import { classes, grades } from '../../db/schema/school';
import type { RefCheck } from '../activities/ref-checks';

type Contest = typeof contests.$inferSelect;
interface ClassInfo {
  gradeNo: number;
  collegeId: string | null;
  /** The class's organisation and every organisation above it. */
  orgPath: string[];
}

async function cached<T>(cache: Map<string, unknown>, key: string, load: () => Promise<T>): Promise<T> {
  if (cache.has(key)) return cache.get(key) as T;
  const value = await load();
  cache.set(key, value);
  return value;
}

async function classInfo(db: DbOrTx, classId: string): Promise<ClassInfo | null> {
  const [row] = await db
    .select({
      gradeNo: grades.gradeNo,
      collegeId: classes.collegeId,
      orgPath: sql<string[]>`(with recursive up(id, parent_id) as (
          select o.id, o.parent_id from orgs o where o.id = ${classes.orgId}
          union all select o.id, o.parent_id from orgs o join up on o.id = up.parent_id
        ) select array_agg(id) from up)`,
    })
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(eq(classes.id, classId));
  return row ?? null;
}

/**
 * Whether an entry may count for a contest (docs/product-rules.md#contests): the contest exists in the student's
 * organisation or one above it, the item is one of its items, the value was measured inside its window (an early
 * end closes it at that moment), and the student's class is in its scope. Contest and class are looked up once per
 * batch.
 */
export const contestRefCheck: RefCheck = async (db, record, cache) => {
  if (!record.refId) return { key: 'activities:contests.refused.unknown' };
  const contest = await cached<Contest | null>(cache, `contest:${record.refId}`, async () => (await db.select().from(contests).where(eq(contests.id, record.refId!)))[0] ?? null);
  const klass = await cached(cache, `contest-class:${record.classId}`, () => classInfo(db, record.classId));
  if (!contest || !klass || !klass.orgPath.includes(contest.orgId)) return { key: 'activities:contests.refused.unknown' };
  if (!contest.items.includes(record.item as Contest['items'][number])) return { key: 'activities:contests.refused.item', params: { name: contest.name } };
  const { start, end } = contestWindow(contest);
  if (record.measuredAt < start) return { key: 'activities:contests.refused.notStarted', params: { name: contest.name } };
  if (record.measuredAt >= end) return { key: 'activities:contests.refused.ended', params: { name: contest.name } };
  const inScope =
    (contest.gradeNos.length === 0 || contest.gradeNos.includes(klass.gradeNo)) &&
    (contest.classIds.length === 0 || contest.classIds.includes(record.classId)) &&
    (contest.collegeIds.length === 0 || (klass.collegeId !== null && contest.collegeIds.includes(klass.collegeId)));
  return inScope ? null : { key: 'activities:contests.refused.scope', params: { name: contest.name } };
};
