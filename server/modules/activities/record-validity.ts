import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { activityRecords } from '../../db/schema/activities';

/**
 * Sets activity records invalid (who, when and why are kept) or valid again: the one write behind the exercise-record
 * and contest-entry screens. Only the `ids` that match `where` (the caller's kind, contest and data scope) and are not
 * already in the asked state change; answers the changed ids. Triggers on activity_records keep the contest boards
 * and participation counts in step in the same statement.
 */
export async function setActivityRecordsInvalid(
  db: DbOrTx,
  ids: readonly string[],
  where: SQL | undefined,
  change: { invalid: boolean; reason?: string | null; by: string; now: Date },
): Promise<string[]> {
  const changed = await db
    .update(activityRecords)
    .set(
      change.invalid
        ? { invalid: true, invalidAt: change.now, invalidBy: change.by, invalidReason: change.reason ?? null }
        : { invalid: false, invalidAt: null, invalidBy: null, invalidReason: null },
    )
    .where(and(inArray(activityRecords.id, [...ids]), where, eq(activityRecords.invalid, !change.invalid)))
    .returning({ id: activityRecords.id });
  return changed.map((r) => r.id);
}
