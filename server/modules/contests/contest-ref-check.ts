import { eq, sql } from 'drizzle-orm';
import { contestWindow } from '@/domain/contests/contests';
import type { DbOrTx } from '../../db/client';
import { contests } from '../../db/schema/contests';
import type { RefCheck } from '../activities/ref-checks';

type Contest = typeof contests.$inferSelect;
interface ClassInfo {
  gradeNo: number;
  collegeId: string | null;
}

async function cached<T>(cache: Map<string, unknown>, key: string, load: () => Promise<T>): Promise<T> {
  if (cache.has(key)) return cache.get(key) as T;
  const value = await load();
  cache.set(key, value);
  return value;
}

/** The classes of an organisation and of every organisation below it (those a contest of that organisation may reach). */
async function classesUnder(db: DbOrTx, orgId: string): Promise<Map<string, ClassInfo>> {
  const { rows } = await db.execute<{ id: string; gradeNo: number; collegeId: string | null }>(sql`
    with recursive down(id) as (select ${orgId}::uuid union all select o.id from orgs o join down on o.parent_id = down.id)
    select c.id, g.grade_no as "gradeNo", c.college_id as "collegeId" from classes c join grades g on g.id = c.grade_id where c.org_id in (select id from down)`);
  return new Map(rows.map((r) => [r.id, { gradeNo: Number(r.gradeNo), collegeId: r.collegeId }]));
}

/**
 * Whether an entry may count for a contest (docs/product-rules.md#contests): the contest exists in the student's
 * organisation or one above it, the item is one of its items, the value was measured inside its window (an early
 * end closes it at that moment), and the student's class is in its scope. The contest and the classes it may reach
 * are read once per batch (one query each, whatever the number of classes in the batch).
 */
export const contestRefCheck: RefCheck = async (db, record, cache) => {
  if (!record.refId) return { key: 'contests:refused.unknown' };
  const contest = await cached<Contest | null>(cache, `contest:${record.refId}`, async () => (await db.select().from(contests).where(eq(contests.id, record.refId!)))[0] ?? null);
  const klass = contest && (await cached(cache, `contest-classes:${contest.orgId}`, () => classesUnder(db, contest.orgId))).get(record.classId);
  if (!contest || !klass) return { key: 'contests:refused.unknown' };
  if (!contest.items.includes(record.item as Contest['items'][number])) return { key: 'contests:refused.item', params: { name: contest.name } };
  const { start, end } = contestWindow(contest);
  if (record.measuredAt < start) return { key: 'contests:refused.notStarted', params: { name: contest.name } };
  if (record.measuredAt >= end) return { key: 'contests:refused.ended', params: { name: contest.name } };
  const inScope =
    (contest.gradeNos.length === 0 || contest.gradeNos.includes(klass.gradeNo)) &&
    (contest.classIds.length === 0 || contest.classIds.includes(record.classId)) &&
    (contest.collegeIds.length === 0 || (klass.collegeId !== null && contest.collegeIds.includes(klass.collegeId)));
  return inScope ? null : { key: 'contests:refused.scope', params: { name: contest.name } };
};
