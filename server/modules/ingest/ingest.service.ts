import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { judgeRecord, type IngestRecord, type IngestResult, type IngestSummary, type Refusal } from '@/domain/activities/ingest';
import type { Tx } from '../../db/client';
import { files } from '../../db/schema/files';
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

/**
 * A row of activity_records / test_records as the insert reads it: a JSON array per row, in the order of
 * ACTIVITY_COLUMNS / TEST_COLUMNS below (what is the same for the whole batch, like the sender, is a parameter).
 * Arrays rather than objects: every byte goes through PGlite's protocol and is parsed again by PostgreSQL.
 */
type ActivityRow = [orgId: string, studentId: string, classId: string, kind: string, refId: string | null, item: string, value: number, durationS: number | null, measuredAt: string, clientId: string, videoFileId: string | null];
type TestRow = [orgId: string, studentId: string, classId: string, item: string, raw: number, testedAt: string, clientId: string];

type Translate = (key: string, params?: Record<string, unknown>) => string;

/**
 * The students a batch names, by id and registration number, among those the sender may write for, read as one JSON
 * value (one row per student costs more through PGlite's protocol than the query). The foreign keys the rows will
 * carry (student, class, organisation) are checked here for the whole batch and locked as a foreign-key check would
 * lock them (FOR KEY SHARE: nobody deletes them before the batch commits), so the insert may skip its per-row checks.
 */
async function studentsOf(tx: Tx, sender: Sender, records: readonly IngestRecord[]) {
  const ids = [...new Set(records.flatMap((r) => (r.studentId ? [r.studentId] : [])))];
  const regNos = [...new Set(records.flatMap((r) => (r.regNo ? [r.regNo] : [])))];
  const named =
    sender.source === 'device'
      ? ids.length + regNos.length > 0
        ? sql`s.org_id = ${sender.orgId} and (s.id in (select x::uuid from json_array_elements_text(${JSON.stringify(ids)}::json) x)
            or s.reg_no in (select x from json_array_elements_text(${JSON.stringify(regNos)}::json) x))`
        : undefined
      : sender.studentIds.length > 0
        ? sql`s.id in (select x::uuid from json_array_elements_text(${JSON.stringify(sender.studentIds)}::json) x)`
        : undefined;
  const senderRow =
    sender.source === 'device' ? sql`select id from devices where id = ${sender.deviceId} for key share` : sql`select id from users where id = ${sender.userId} for key share`;
  const { rows: found } = await tx.execute<{ students: string | null; locked: number; sender: number }>(sql`
    with st as (select s.id, s.org_id, s.class_id, s.reg_no from students s where ${named ?? sql`false`} and s.enabled and s.status = 'studying' for key share),
      c as (select id from classes where id in (select class_id from st) for key share),
      o as (select id from orgs where id in (select org_id from st) for key share),
      snd as (${senderRow})
    select (select json_agg(json_build_array(id, org_id, class_id, reg_no))::text from st) as students,
      (select count(*) from c) + (select count(*) from o) as locked, (select count(*) from snd) as sender`);
  // `locked` only makes the classes and organisations be read (and locked). The sender was authenticated before the
  // transaction; gone since (deleted), it is what a foreign-key error would be.
  if (Number(found[0].sender) === 0) throw new Error('ingest: the sending device or user no longer exists');
  const rows = (JSON.parse(found[0].students ?? '[]') as [string, string, string, string][]).map(([id, orgId, classId, regNo]): Student => ({ id, orgId, classId, regNo }));
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
    .where(and(inArray(files.id, ids), eq(files.purpose, 'video'), sender.source === 'app' ? eq(files.createdBy, sender.userId) : eq(files.orgId, sender.orgId)))
    // Locked as the foreign key of video_file_id would lock it (the insert skips its per-row checks where it may).
    .for('key share');
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
      tests.push([student.orgId, student.id, student.classId, r.item, r.value, measuredAt.toISOString(), r.clientId]);
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
      activities.push([student.orgId, student.id, student.classId, r.kind, r.refId ?? null, r.item, r.value, r.durationS ?? null, measuredAt.toISOString(), r.clientId, r.videoFileId ?? null]);
    }
    rowIndex.set(r.clientId, i);
  }

  // One statement per table, the rows as one JSON parameter (a multi-row VALUES would take 15 parameters a row); a
  // record already stored under the same (sender, client id) is skipped by the unique index. The references were
  // checked and locked set-wise above (studentsOf, videosOf; ref ids by the kinds' checks), so where the role may the
  // inserts skip the per-row foreign-key checks (replica mode, as the score import does: docs/architecture.md,
  // Performance); the contest_scores triggers are ENABLE ALWAYS and still run.
  const inserted = new Set<string>();
  const storedIds = async (query: SQL) => {
    const { rows } = await tx.execute<{ ids: string | null }>(query);
    for (const id of JSON.parse(rows[0]?.ids ?? '[]') as string[]) inserted.add(id);
  };
  if (activities.length + tests.length > 0) {
    const { rows: replica } = await tx.execute(sql`select set_config('session_replication_role', 'replica', true) where current_setting('is_superuser') = 'on'`);
    if (activities.length > 0) {
      await storedIds(sql`
        with ins as (
          insert into activity_records (org_id, student_id, class_id, kind, ref_id, item, value, duration_s, measured_at, client_id, video_file_id, received_at, source, device_id, submitted_by)
          select (e->>0)::uuid, (e->>1)::uuid, (e->>2)::uuid, e->>3, (e->>4)::uuid, e->>5, (e->>6)::double precision, (e->>7)::integer, (e->>8)::timestamptz, e->>9, (e->>10)::uuid,
            ${now}, ${sender.source}, ${sender.source === 'device' ? sender.deviceId : null}::uuid, ${sender.source === 'app' ? sender.userId : null}::uuid
          from json_array_elements(${JSON.stringify(activities)}::json) e
          on conflict do nothing
          returning client_id)
        select json_agg(client_id)::text as ids from ins`);
    }
    if (tests.length > 0) {
      await storedIds(sql`
        with ins as (
          insert into test_records (org_id, student_id, class_id, item, raw, tested_at, client_id, source, device_sn, sender_key)
          select (e->>0)::uuid, (e->>1)::uuid, (e->>2)::uuid, e->>3, (e->>4)::double precision, (e->>5)::timestamptz, e->>6,
            ${sender.source === 'device' ? 'device' : 'self'}, ${sender.source === 'device' ? sender.serialNo : null}::text, ${senderKey}::uuid
          from json_array_elements(${JSON.stringify(tests)}::json) e
          on conflict do nothing
          returning client_id)
        select json_agg(client_id)::text as ids from ins`);
    }
    if (replica.length > 0) await tx.execute(sql`select set_config('session_replication_role', 'origin', true)`);
  }
  for (const [clientId, i] of rowIndex) if (!inserted.has(clientId)) results[i] = { clientId, status: 'duplicate' };

  const count = (s: IngestResult['status']) => results.filter((r) => r.status === s).length;
  return { accepted: count('accepted'), duplicate: count('duplicate'), rejected: count('rejected'), results };
}

