import { and, eq, inArray, or } from 'drizzle-orm';
import { judgeRecord, type IngestRecord, type IngestResult, type IngestSummary, type Refusal } from '@/domain/activities/ingest';
import type { Tx } from '../../db/client';
import { activityRecords } from '../../db/schema/activities';
import { files } from '../../db/schema/files';
import { testRecords } from '../../db/schema/physique';
import { students } from '../../db/schema/school';
import { refCheckOf } from '../activities/ref-checks';

/**
 * Who sends a batch (docs/product-rules.md#ingest). A device writes for the students of its organisation; an app user
 * for the students it may act for (a student for itself, a parent for its children).
 */
export type Sender =
  | { source: 'device'; deviceId: string; serialNo: string; orgId: string }
  | { source: 'app'; userId: string; studentIds: readonly string[] };

interface Student {
  id: string;
  orgId: string;
  classId: string;
  regNo: string;
}

type Translate = (key: string, params?: Record<string, unknown>) => string;

/** The students a batch names, by id and registration number, among those the sender may write for. */
async function studentsOf(tx: Tx, sender: Sender, records: readonly IngestRecord[]) {
  const ids = [...new Set(records.flatMap((r) => (r.studentId ? [r.studentId] : [])))];
  const regNos = [...new Set(records.flatMap((r) => (r.regNo ? [r.regNo] : [])))];
  const cols = { id: students.id, orgId: students.orgId, classId: students.classId, regNo: students.regNo };
  const active = and(eq(students.enabled, true), eq(students.status, 'studying'));
  let rows: Student[] = [];
  if (sender.source === 'device') {
    if (ids.length + regNos.length > 0) {
      rows = await tx
        .select(cols)
        .from(students)
        .where(and(eq(students.orgId, sender.orgId), active, or(ids.length ? inArray(students.id, ids) : undefined, regNos.length ? inArray(students.regNo, regNos) : undefined)));
    }
  } else if (sender.studentIds.length > 0) {
    rows = await tx.select(cols).from(students).where(and(inArray(students.id, [...sender.studentIds]), active));
  }
  const byId = new Map(rows.map((s) => [s.id, s]));
  const byRegNo = new Map(rows.map((s) => [s.regNo, s]));
  return (r: IngestRecord): Student | undefined => {
    const s = r.studentId ? byId.get(r.studentId) : sender.source === 'device' && r.regNo ? byRegNo.get(r.regNo) : undefined;
    // An app record names its student by id; a registration number means nothing outside a school.
    return s && (!r.regNo || s.regNo === r.regNo) ? s : undefined;
  };
}

/** The videos a batch names that the sender may attach: uploaded as `video` in the organisation (by the app user). */
async function videosOf(tx: Tx, sender: Sender, records: readonly IngestRecord[]) {
  const ids = [...new Set(records.flatMap((r) => (r.videoFileId ? [r.videoFileId] : [])))];
  if (ids.length === 0) return new Map<string, string>();
  const rows = await tx
    .select({ id: files.id, orgId: files.orgId })
    .from(files)
    .where(and(inArray(files.id, ids), eq(files.purpose, 'video'), sender.source === 'app' ? eq(files.createdBy, sender.userId) : eq(files.orgId, sender.orgId)));
  return new Map(rows.map((f) => [f.id, f.orgId]));
}

/**
 * Writes one batch in the caller's transaction (docs/product-rules.md#ingest): every record is judged on its own
 * (values, student, what it belongs to), accepted records are inserted with one statement per table, and a record the
 * sender sent before (same client id) is reported as `duplicate` and changes nothing. Self tests go to the test
 * records, everything else to the activity records. Results keep the order of the batch.
 */
export async function ingestBatch(tx: Tx, sender: Sender, records: readonly IngestRecord[], now: Date, t: Translate): Promise<IngestSummary> {
  const results: IngestResult[] = records.map((r) => ({ clientId: r.clientId, status: 'accepted' }));
  const refuse = (i: number, refusal: Refusal) => {
    results[i] = { clientId: records[i].clientId, status: 'rejected', code: refusal.key, reason: t(refusal.key, refusal.params) };
  };
  const studentOf = await studentsOf(tx, sender, records);
  const videos = await videosOf(tx, sender, records);
  const seen = new Set<string>();
  const cache = new Map<string, unknown>();
  const activities: (typeof activityRecords.$inferInsert)[] = [];
  const tests: (typeof testRecords.$inferInsert)[] = [];
  const rowIndex = new Map<string, number>();
  const senderKey = sender.source === 'device' ? sender.deviceId : sender.userId;

  for (const [i, r] of records.entries()) {
    // The same id twice in one batch: the first one counts.
    if (seen.has(r.clientId)) {
      results[i] = { clientId: r.clientId, status: 'duplicate' };
      continue;
    }
    seen.add(r.clientId);
    const judged = judgeRecord(r, now);
    if (judged) {
      refuse(i, judged);
      continue;
    }
    const student = studentOf(r);
    if (!student) {
      refuse(i, { key: sender.source === 'device' ? 'activities:ingest.studentUnknown' : 'activities:ingest.studentNotYours' });
      continue;
    }
    if (r.videoFileId && videos.get(r.videoFileId) !== student.orgId) {
      refuse(i, { key: 'activities:ingest.videoUnknown' });
      continue;
    }
    const measuredAt = new Date(r.measuredAt);
    if (r.kind === 'selfTest') {
      tests.push({
        orgId: student.orgId,
        studentId: student.id,
        classId: student.classId,
        item: r.item,
        raw: r.value,
        source: sender.source === 'device' ? 'device' : 'self',
        deviceSn: sender.source === 'device' ? sender.serialNo : null,
        testedAt: measuredAt,
        clientId: r.clientId,
        senderKey,
      });
    } else {
      if (r.refId) {
        const check = refCheckOf(r.kind);
        const refusal = check
          ? await check(tx, { orgId: student.orgId, studentId: student.id, classId: student.classId, item: r.item, value: r.value, measuredAt, refId: r.refId }, cache)
          : { key: 'activities:ingest.refClosed' };
        if (refusal) {
          refuse(i, refusal);
          continue;
        }
      }
      activities.push({
        orgId: student.orgId,
        studentId: student.id,
        classId: student.classId,
        kind: r.kind,
        refId: r.refId ?? null,
        item: r.item,
        value: r.value,
        durationS: r.durationS ?? null,
        measuredAt,
        receivedAt: now,
        source: sender.source,
        deviceId: sender.source === 'device' ? sender.deviceId : null,
        submittedBy: sender.source === 'app' ? sender.userId : null,
        clientId: r.clientId,
        videoFileId: r.videoFileId ?? null,
      });
    }
    rowIndex.set(r.clientId, i);
  }

  // One statement per table; a record already stored under the same (sender, client id) is skipped by the unique index.
  const inserted = new Set<string>();
  for (const part of chunks(activities)) {
    for (const row of await tx.insert(activityRecords).values(part).onConflictDoNothing().returning({ clientId: activityRecords.clientId })) inserted.add(row.clientId);
  }
  for (const part of chunks(tests)) {
    for (const row of await tx.insert(testRecords).values(part).onConflictDoNothing().returning({ clientId: testRecords.clientId })) inserted.add(row.clientId!);
  }
  for (const [clientId, i] of rowIndex) if (!inserted.has(clientId)) results[i] = { clientId, status: 'duplicate' };

  const count = (s: IngestResult['status']) => results.filter((r) => r.status === s).length;
  return { accepted: count('accepted'), duplicate: count('duplicate'), rejected: count('rejected'), results };
}

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters per statement (16 columns × 2,000 fits). */
function chunks<T>(rows: T[], size = 2000): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
