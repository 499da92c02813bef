import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ActivityKind } from '@/domain/activities/items';
import type { DbOrTx } from '../../../server/db/client';
import { schoolYearOf } from '../../../server/db/school-year-partitions';
import { activityRecords } from '../../../server/db/schema/activities';
import { users } from '../../../server/db/schema/auth';
import { students } from '../../../server/db/schema/school';

/** A record as a test writes it: the student's present class and org are looked up. */
export interface TestRecord {
  studentId: string;
  item: string;
  value: number;
  kind?: ActivityKind;
  refId?: string | null;
  measuredAt?: Date;
  source?: 'device' | 'app' | 'console';
  invalid?: boolean;
}

/**
 * Inserts activity_records rows straight into the database (the device/app API is another module), as the console
 * would record them: submitted by the first user of the database, each with its own client id.
 */
export async function insertRecords(db: DbOrTx, records: readonly TestRecord[]): Promise<string[]> {
  if (records.length === 0) return [];
  const [sender] = await db.select({ id: users.id }).from(users).limit(1);
  const ids = [...new Set(records.map((r) => r.studentId))];
  const where = new Map<string, { orgId: string; classId: string }>();
  for (const id of ids) {
    const [s] = await db.select({ orgId: students.orgId, classId: students.classId }).from(students).where(eq(students.id, id));
    where.set(id, s);
  }
  const now = new Date();
  const rows = await db
    .insert(activityRecords)
    .values(
      records.map((r) => ({
        orgId: where.get(r.studentId)!.orgId,
        classId: where.get(r.studentId)!.classId,
        studentId: r.studentId,
        kind: r.kind ?? 'exercise',
        refId: r.refId ?? null,
        item: r.item,
        value: r.value,
        measuredAt: r.measuredAt ?? now,
        schoolYear: schoolYearOf((r.measuredAt ?? now).getTime()),
        source: r.source ?? 'console',
        submittedBy: sender.id,
        clientId: randomUUID(),
        invalid: r.invalid ?? false,
      })),
    )
    .returning({ id: activityRecords.id });
  return rows.map((r) => r.id);
}
