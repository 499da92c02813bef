import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { PgliteTransaction } from 'drizzle-orm/pglite';
import { CLOCK_SKEW_MS, INGEST_MAX_AGE_DAYS, judgeRecord, type IngestRecord, type IngestResult, type IngestSummary, type Refusal } from '@/domain/activities/ingest';
import type { Tx } from '../../db/client';
import { RESTORE_FK_TRIGGERS, SKIP_FK_TRIGGERS } from '../../db/replication-role';
import { schoolYearOf } from '../../db/school-year-partitions';
import { files } from '../../db/schema/files';
import { refCheckOf } from '../activities/ref-checks';
import { consentedStudents } from '../consent/consent.service';

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
 * The accepted rows of one table, column by column: each column goes to the insert as ONE array parameter and comes
 * back as rows through `unnest` (no JSON to parse per field, a fixed number of parameters whatever the batch size).
 * What is the same for the whole batch (sender, receive time) is a parameter of its own.
 */
interface Columns {
  id: string[];
  orgId: string[];
  studentId: string[];
  classId: string[];
  item: string[];
  value: number[];
  measuredAt: string[];
  clientId: string[];
}
interface ActivityColumns extends Columns {
  /** The school year of measuredAt: the partition key (docs/decisions/064-partitions-by-school-year.md). */
  schoolYear: number[];
  kind: string[];
  refId: (string | null)[];
  durationS: (number | null)[];
  videoFileId: (string | null)[];
}
const columns = (): Columns => ({ id: [], orgId: [], studentId: [], classId: [], item: [], value: [], measuredAt: [], clientId: [] });

type Translate = (key: string, params?: Record<string, unknown>) => string;

/** The first key of a sender's advisory lock (its second is the sender's hash), see ingestBatch. */
const SENDER_LOCK = 16;

/** Whether a batch must lock what it references (see studentsOf). */
const locksReferences = (tx: Tx) => !(tx instanceof PgliteTransaction);

/**
 * The students a batch names, by id and registration number, among those the sender may write for, read as one JSON
 * value (one row per student costs more through PGlite's protocol than the query). The foreign keys the rows will
 * carry (student, class, organisation) are checked here for the whole batch, so the insert may skip its per-row
 * checks. On PostgreSQL they are also locked as a foreign-key check would lock them (FOR KEY SHARE: nobody deletes
 * them before the batch commits); a PGlite transaction runs alone (PGlite serialises transactions), so there the lock
 * would only cost (it writes every locked row).
 */
async function studentsOf(tx: Tx, sender: Sender, records: readonly IngestRecord[]) {
  const ids = [...new Set(records.flatMap((r) => (r.studentId ? [r.studentId] : [])))];
  const regNos = [...new Set(records.flatMap((r) => (r.regNo ? [r.regNo] : [])))];
  const named =
    sender.source === 'device'
      ? ids.length + regNos.length > 0
        ? sql`s.org_id = ${sender.orgId} and (s.id = any(${sql.param(ids)}::uuid[]) or s.reg_no = any(${sql.param(regNos)}::text[]))`
        : sql`false`
      : sender.studentIds.length > 0
        ? sql`s.id = any(${sql.param(sender.studentIds)}::uuid[])`
        : sql`false`;
  const locking = locksReferences(tx);
  const lock = locking ? sql`for key share` : sql``;
  const senderRow = sender.source === 'device' ? sql`select id from devices where id = ${sender.deviceId} ${lock}` : sql`select id from users where id = ${sender.userId} ${lock}`;
  const { rows: found } = await tx.execute<{ students: string | null; sender: number }>(sql`
    with st as (select s.id, s.org_id, s.class_id, s.reg_no from students s where ${named} and s.enabled and s.status = 'studying' ${lock}),
      snd as (${senderRow})
      ${locking ? sql`, c as (select id from classes where id in (select class_id from st) for key share), o as (select id from orgs where id in (select org_id from st) for key share)` : sql``}
    select (select json_agg(json_build_array(id, org_id, class_id, reg_no))::text from st) as students, (select count(*) from snd) as sender
      ${locking ? sql`, (select count(*) from c) + (select count(*) from o) as locked` : sql``}`);
  // `locked` only makes the classes and organisations be read and locked. The sender was authenticated before the
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
  const query = tx
    .select({ id: files.id, orgId: files.orgId })
    .from(files)
    .where(and(inArray(files.id, ids), eq(files.purpose, 'video'), sender.source === 'app' ? eq(files.createdBy, sender.userId) : eq(files.orgId, sender.orgId)));
  // Locked as the foreign key of video_file_id would lock it (the insert skips its per-row checks where it may).
  const rows = await (locksReferences(tx) ? query.for('key share') : query);
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
  // docs/product-rules.md#consent: a video of a student without the guardian's consent is refused (one query per batch).
  const videoConsent = await consentedStudents(
    tx,
    'video',
    records.flatMap((r) => (r.videoFileId ? [studentOf(r)?.id ?? ''] : [])).filter(Boolean),
  );
  const seen = new Set<string>();
  const cache = new Map<string, unknown>();
  const activities: ActivityColumns = { ...columns(), schoolYear: [], kind: [], refId: [], durationS: [], videoFileId: [] };
  const tests = columns();
  const push = (to: Columns, student: Student, r: IngestRecord, measuredAt: Date) => {
    // Ids made here rather than by the column default: gen_random_uuid() opens /dev/urandom once per row in PGlite.
    to.id.push(randomUUID());
    to.orgId.push(student.orgId);
    to.studentId.push(student.id);
    to.classId.push(student.classId);
    to.item.push(r.item);
    to.value.push(r.value);
    to.measuredAt.push(measuredAt.toISOString());
    to.clientId.push(r.clientId);
  };
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
    if (r.videoFileId && !videoConsent.has(student.id)) {
      refuse(i, { key: 'consent:refused.videoRecord' });
      continue;
    }
    const measuredAt = new Date(r.measuredAt);
    if (r.kind === 'selfTest') {
      push(tests, student, r, measuredAt);
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
      push(activities, student, r, measuredAt);
      activities.schoolYear.push(schoolYearOf(measuredAt.getTime()));
      activities.kind.push(r.kind);
      activities.refId.push(r.refId ?? null);
      activities.durationS.push(r.durationS ?? null);
      activities.videoFileId.push(r.videoFileId ?? null);
    }
    rowIndex.set(r.clientId, i);
  }

  // One statement per table, each column one array parameter (see Columns); a record already stored under the same
  // (sender, client id) is skipped by the unique index. The references were checked and locked set-wise above
  // (studentsOf, videosOf; ref ids by the kinds' checks), so where the role may the inserts skip the per-row
  // foreign-key checks (replica mode, as the score import does: docs/decisions/028-score-import-at-copy-speed.md); the contest_scores
  // triggers are ENABLE ALWAYS and still run.
  const inserted = new Set<string>();
  const storedIds = async (query: SQL) => {
    const { rows } = await tx.execute<{ ids: string | null }>(query);
    for (const id of JSON.parse(rows[0]?.ids ?? '[]') as string[]) inserted.add(id);
  };
  const p = sql.param;
  if (activities.id.length + tests.id.length > 0) {
    const { rows: replica } = await tx.execute(sql.raw(SKIP_FK_TRIGGERS));
    if (activities.id.length > 0) {
      const a = activities;
      // The unique index holds the school year (the partition key), and a resend carries the same measured_at, so the
      // same year. A resend whose time moved into another school year can only happen while the ingest window
      // (INGEST_MAX_AGE_DAYS back, CLOCK_SKEW_MS ahead) spans two school years (August to October): then the sender's
      // batches take a lock of their own (two concurrent ones would not see each other's rows) and a record already
      // stored in the window's other year is a duplicate too (docs/decisions/064-partitions-by-school-year.md).
      const windowYears = [...new Set([schoolYearOf(now.getTime() - INGEST_MAX_AGE_DAYS * 86_400_000), schoolYearOf(now.getTime() + CLOCK_SKEW_MS)])];
      const acrossYears = windowYears.length > 1;
      if (acrossYears) await tx.execute(sql`select pg_advisory_xact_lock(${SENDER_LOCK}::int, hashtext(${senderKey}))`);
      await storedIds(sql`
        with ins as (
          insert into activity_records (id, org_id, student_id, class_id, kind, ref_id, item, value, duration_s, measured_at, client_id, video_file_id, school_year, received_at, source, device_id, submitted_by)
          select r.*, ${now}, ${sender.source}, ${sender.source === 'device' ? sender.deviceId : null}::uuid, ${sender.source === 'app' ? sender.userId : null}::uuid
          from unnest(${p(a.id)}::uuid[], ${p(a.orgId)}::uuid[], ${p(a.studentId)}::uuid[], ${p(a.classId)}::uuid[], ${p(a.kind)}::text[], ${p(a.refId)}::uuid[],
            ${p(a.item)}::text[], ${p(a.value)}::double precision[], ${p(a.durationS)}::integer[], ${p(a.measuredAt)}::timestamptz[], ${p(a.clientId)}::text[], ${p(a.videoFileId)}::uuid[],
            ${p(a.schoolYear)}::smallint[]) r(id, org_id, student_id, class_id, kind, ref_id, item, value, duration_s, measured_at, client_id, video_file_id, school_year)
          ${
            acrossYears
              ? sql`where not exists (select 1 from activity_records o where o.sender_key = ${senderKey}::uuid and o.client_id = r.client_id
                  and o.school_year = any(${p(windowYears)}::smallint[]) and o.school_year <> r.school_year)`
              : sql``
          }
          on conflict do nothing
          returning client_id)
        select json_agg(client_id)::text as ids from ins`);
    }
    if (tests.id.length > 0) {
      const c = tests;
      await storedIds(sql`
        with ins as (
          insert into test_records (id, org_id, student_id, class_id, item, raw, tested_at, client_id, source, device_sn, sender_key)
          select r.*, ${sender.source === 'device' ? 'device' : 'self'}, ${sender.source === 'device' ? sender.serialNo : null}::text, ${senderKey}::uuid
          from unnest(${p(c.id)}::uuid[], ${p(c.orgId)}::uuid[], ${p(c.studentId)}::uuid[], ${p(c.classId)}::uuid[], ${p(c.item)}::text[], ${p(c.value)}::double precision[],
            ${p(c.measuredAt)}::timestamptz[], ${p(c.clientId)}::text[]) r
          on conflict do nothing
          returning client_id)
        select json_agg(client_id)::text as ids from ins`);
    }
    if (replica.length > 0) await tx.execute(sql.raw(RESTORE_FK_TRIGGERS));
  }
  for (const [clientId, i] of rowIndex) if (!inserted.has(clientId)) results[i] = { clientId, status: 'duplicate' };

  const count = (s: IngestResult['status']) => results.filter((r) => r.status === s).length;
  return { accepted: count('accepted'), duplicate: count('duplicate'), rejected: count('rejected'), results };
}

