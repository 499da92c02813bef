import type { ConsentPurpose } from '@/domain/consent/consent';
import { recordConsentsInBulk } from '../../server/modules/consent/consent.service';
import { students } from '../../server/db/schema/school';
import { inArray } from 'drizzle-orm';
import type { TestApp } from './server-app';

/**
 * Gives guardian consent (docs/product-rules.md#consent) to students a test made itself (the demo seed's students
 * have it already): recorded as the school would, for every purpose unless `purposes` names some. Use it in a test's
 * setup before it stores a face photo, accepts a video, posts heart-rate samples or gives a student an app account.
 */
export async function giveConsent(t: Pick<TestApp, 'db'>, studentIds: readonly string[], purposes?: readonly ConsentPurpose[]): Promise<void> {
  if (studentIds.length === 0) return;
  const rows = await t.db.select({ id: students.id, orgId: students.orgId }).from(students).where(inArray(students.id, [...studentIds]));
  const now = new Date();
  await t.db.transaction(async (tx) => {
    for (const orgId of new Set(rows.map((r) => r.orgId))) {
      await recordConsentsInBulk(tx, { orgId, studentIds: rows.filter((r) => r.orgId === orgId).map((r) => r.id), purposes, now });
    }
  });
}
