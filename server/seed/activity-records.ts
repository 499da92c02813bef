import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ActivityKind, ActivitySource } from '@/domain/activities/items';
import type { DbOrTx } from '../db/client';
import { schoolYearOf } from '../db/school-year-partitions';
import { activityRecords } from '../db/schema/activities';
import { students } from '../db/schema/school';

/** One record as a seed or a test writes it: the student's organisation and class are looked up. */
export interface SeedRecord {
  studentId: string;
  kind: ActivityKind;
  refId?: string | null;
  item: string;
  value: number;
  measuredAt: Date;
  durationS?: number | null;
  source?: ActivitySource;
  /** The sender: a device, or the submitting user (defaults to the student's account, else `submittedBy`). */
  deviceId?: string | null;
  submittedBy?: string | null;
  videoFileId?: string | null;
  invalid?: boolean;
}

/**
 * Writes activity_records for the demo seed and tests (the ingestion API is the real path; this skips its ref checks).
 * Each record gets a fresh client id. Answers the new ids in order.
 */
export async function insertActivityRecords(db: DbOrTx, records: readonly SeedRecord[]): Promise<string[]> {
  const ids: string[] = [];
  const who = new Map<string, { orgId: string; classId: string; userId: string | null }>();
  for (const r of records) {
    let s = who.get(r.studentId);
    if (!s) {
      const [row] = await db.select({ orgId: students.orgId, classId: students.classId, userId: students.userId }).from(students).where(eq(students.id, r.studentId));
      if (!row) throw new Error(`insertActivityRecords: no student ${r.studentId}`);
      s = row;
      who.set(r.studentId, s);
    }
    const deviceId = r.deviceId ?? null;
    const submittedBy = deviceId ? null : (r.submittedBy ?? s.userId);
    if (!deviceId && !submittedBy) throw new Error(`insertActivityRecords: record of ${r.studentId} has no sender`);
    const [row] = await db
      .insert(activityRecords)
      .values({
        orgId: s.orgId,
        studentId: r.studentId,
        classId: s.classId,
        kind: r.kind,
        refId: r.refId ?? null,
        item: r.item,
        value: r.value,
        durationS: r.durationS ?? null,
        measuredAt: r.measuredAt,
        // The partition key: every writer sets it (docs/decisions/064-partitions-by-school-year.md).
        schoolYear: schoolYearOf(r.measuredAt.getTime()),
        receivedAt: r.measuredAt,
        source: r.source ?? (deviceId ? 'device' : 'app'),
        deviceId,
        submittedBy,
        clientId: randomUUID(),
        videoFileId: r.videoFileId ?? null,
        invalid: r.invalid ?? false,
      })
      .returning({ id: activityRecords.id });
    ids.push(row.id);
  }
  return ids;
}
