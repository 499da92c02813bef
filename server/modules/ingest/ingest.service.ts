import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { judgeRecord, type IngestRecord, type IngestResult, type IngestSummary, type Refusal } from '@/domain/activities/ingest';
import type { Tx } from '../../db/client';
import { files } from '../../db/schema/files';
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

/** A row of activity_records / test_records as the JSON the insert reads (column names). */
interface ActivityRow {
  org_id: string;
  student_id: string;
  class_id: string;
  kind: string;
  ref_id: string | null;
  item: string;
  value: number;
  duration_s: number | null;
  measured_at: string;
  source: string;
  device_id: string | null;
  submitted_by: string | null;
  client_id: string;
  video_file_id: string | null;
}
interface TestRow {
  org_id: string;
  student_id: string;
  class_id: string;
  item: string;
  raw: number;
  source: string;
  device_sn: string | null;
  tested_at: string;
  client_id: string;
  sender_key: string;
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
  const activities: ActivityRow[] = [];
  const tests: TestRow[] = [];
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
        org_id: student.orgId,
        student_id: student.id,
        class_id: student.classId,
        item: r.item,
        raw: r.value,
        source: sender.source === 'device' ? 'device' : 'self',
        device_sn: sender.source === 'device' ? sender.serialNo : null,
        tested_at: measuredAt.toISOString(),
        client_id: r.clientId,
        sender_key: senderKey,
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
        org_id: student.orgId,
        student_id: student.id,
        class_id: student.classId,
        kind: r.kind,
        ref_id: r.refId ?? null,
        item: r.item,
        value: r.value,
        duration_s: r.durationS ?? null,
        measured_at: measuredAt.toISOString(),
        source: sender.source,
        device_id: sender.source === 'device' ? sender.deviceId : null,
        submitted_by: sender.source === 'app' ? sender.userId : null,
        client_id: r.clientId,
        video_file_id: r.videoFileId ?? null,
      });
    }
    rowIndex.set(r.clientId, i);
  }

  // One statement per table, the rows as one JSON parameter (a multi-row VALUES would take 15 parameters a row); a
  // record already stored under the same (sender, client id) is skipped by the unique index.
  const inserted = new Set<string>();
  if (activities.length > 0) {
    const rows = await tx.execute<{ client_id: string }>(sql`
      insert into activity_records (org_id, student_id, class_id, kind, ref_id, item, value, duration_s, measured_at, received_at, source, device_id, submitted_by, client_id, video_file_id)
      select org_id, student_id, class_id, kind, ref_id, item, value, duration_s, measured_at, ${now}, source, device_id, submitted_by, client_id, video_file_id
      from jsonb_to_recordset(${JSON.stringify(activities)}::jsonb) as r(org_id uuid, student_id uuid, class_id uuid, kind text, ref_id uuid, item text, value double precision,
        duration_s integer, measured_at timestamptz, source text, device_id uuid, submitted_by uuid, client_id text, video_file_id uuid)
      on conflict do nothing
      returning client_id`);
    for (const row of rows.rows) inserted.add(row.client_id);
  }
  if (tests.length > 0) {
    const rows = await tx.execute<{ client_id: string }>(sql`
      insert into test_records (org_id, student_id, class_id, item, raw, source, device_sn, tested_at, client_id, sender_key)
      select org_id, student_id, class_id, item, raw, source, device_sn, tested_at, client_id, sender_key
      from jsonb_to_recordset(${JSON.stringify(tests)}::jsonb) as r(org_id uuid, student_id uuid, class_id uuid, item text, raw double precision, source text,
        device_sn text, tested_at timestamptz, client_id text, sender_key uuid)
      on conflict do nothing
      returning client_id`);
    for (const row of rows.rows) inserted.add(row.client_id);
  }
  for (const [clientId, i] of rowIndex) if (!inserted.has(clientId)) results[i] = { clientId, status: 'duplicate' };

  const count = (s: IngestResult['status']) => results.filter((r) => r.status === s).length;
  return { accepted: count('accepted'), duplicate: count('duplicate'), rejected: count('rejected'), results };
}

