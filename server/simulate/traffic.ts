// HTTP only (no database, no runtime imports of src/domain): end-to-end tests drive a running server with it.
import type { IngestSummary } from '@/domain/activities/ingest';
import type { Random } from '../seed/people';

/** One HTTP call: through `app.inject` in-process, or `fetch` against a running server. A Buffer body goes as is. */
export type Send = (method: string, url: string, headers: Record<string, string>, body?: unknown) => Promise<{ status: number; json: unknown; headers?: Record<string, string> }>;

export const DAY = 86_400_000;

/** A device's sign-in to the device API: its serial number and the secret issued in device management. */
export interface DeviceCredentials {
  serialNo: string;
  secret: string;
}

export const deviceAuth = (d: DeviceCredentials) => ({ authorization: `Basic ${Buffer.from(`${d.serialNo}:${d.secret}`).toString('base64')}` });

/** A student as the simulator knows it: enough to tell whether a contest's scope or a homework's classes include it. */
export interface SimStudent {
  id: string;
  classId: string;
  gradeNo: number;
  collegeId: string | null;
}

/** A contest as the simulator drives it: its window (an early end closes it) and scope. */
export interface SimContest {
  id: string;
  orgId: string;
  items: readonly string[];
  start: Date;
  end: Date;
  gradeNos: readonly number[];
  classIds: readonly string[];
  collegeIds: readonly string[];
}

/** A published homework as the simulator drives it. */
export interface SimHomework {
  id: string;
  orgId: string;
  cycle: 'once' | 'daily' | 'weekly';
  start: Date;
  end: Date;
  classIds: ReadonlySet<string>;
  items: readonly { item: string; target: number }[];
}

export const inContestScope = (c: SimContest, s: SimStudent) =>
  (c.gradeNos.length === 0 || c.gradeNos.includes(s.gradeNo)) &&
  (c.classIds.length === 0 || c.classIds.includes(s.classId)) &&
  (c.collegeIds.length === 0 || (s.collegeId !== null && c.collegeIds.includes(s.collegeId)));

/** A device's or app's value of an item: plausible for a school child (count, m, s, cm). */
export function valueOf(rnd: Random, item: string): number {
  switch (item) {
    case 'rope1min':
      return rnd.int(60, 190);
    case 'sitUp1min':
      return rnd.int(15, 55);
    case 'standingLongJump':
      return rnd.int(120, 250);
    case 'run50m':
      return Math.round((7 + rnd.next() * 4) * 10) / 10;
    case 'ropeFree':
      return rnd.int(50, 600);
    case 'jumpingJack':
      return rnd.int(20, 150);
    case 'running':
      return rnd.int(800, 5000);
    case 'walking':
      return rnd.int(2000, 12_000);
    default:
      return rnd.int(10, 100);
  }
}

/** A homework result near its target: most reach it, some fall short (times: lower is better). */
function homeworkValue(rnd: Random, item: string, target: number): number {
  const lowerIsBetter = item === 'run50m';
  const factor = 0.85 + rnd.next() * 0.35;
  const v = lowerIsBetter ? target / factor : target * factor;
  return item === 'run50m' ? Math.round(v * 10) / 10 : Math.round(v);
}

/** How likely a student does a homework on a given day of its cycle. */
const HOMEWORK_DAILY_CHANCE = { daily: 0.6, weekly: 0.18, once: 0.12 } as const;

/**
 * The instant of a record on day `day` (days back from `now`, China days) inside [from, to) and at least a minute
 * past: between 07:00 and 21:00 when that window allows it, else any time of the day so far (a run at night still
 * has records of today). Null when the day has no such moment.
 */
function momentOn(rnd: Random, now: Date, day: number, from: Date, to: Date): Date | null {
  const midnight = Math.floor((now.getTime() + 8 * 3600_000) / DAY) * DAY - 8 * 3600_000 - day * DAY;
  const latest = Math.min(to.getTime() - 1, now.getTime() - 60_000);
  for (const [lo, hi] of [
    [midnight + 7 * 3600_000, midnight + 21 * 3600_000],
    [midnight, midnight + DAY - 1],
  ]) {
    const a = Math.max(lo, from.getTime());
    const b = Math.min(hi, latest);
    if (a <= b) return new Date(a + Math.floor(rnd.next() * (b - a + 1)));
  }
  return null;
}

/** Records of one simulated day for a contest: a few in-scope students enter an item each. */
export function contestDay(rnd: Random, c: SimContest, roster: readonly SimStudent[], day: number, now: Date, entries: number, clientId: () => string): unknown[] {
  const eligible = roster.filter((s) => inContestScope(c, s));
  if (eligible.length === 0) return [];
  const out: unknown[] = [];
  for (let i = 0; i < entries; i++) {
    const at = momentOn(rnd, now, day, c.start, c.end);
    if (!at) continue;
    const item = rnd.pick(c.items);
    out.push({ clientId: clientId(), studentId: rnd.pick(eligible).id, kind: 'contest', refId: c.id, item, value: valueOf(rnd, item), measuredAt: at.toISOString() });
  }
  return out;
}

/** Records of one simulated day for a homework: each of the students does its items by the cycle's chance. */
export function homeworkDay(rnd: Random, h: SimHomework, kids: readonly SimStudent[], day: number, now: Date, clientId: () => string): unknown[] {
  const out: unknown[] = [];
  for (const s of kids) {
    if (!h.classIds.has(s.classId) || !rnd.chance(HOMEWORK_DAILY_CHANCE[h.cycle])) continue;
    const at = momentOn(rnd, now, day, h.start, h.end);
    if (!at) continue;
    for (const { item, target } of h.items) {
      out.push({ clientId: clientId(), studentId: s.id, kind: 'homework', refId: h.id, item, value: homeworkValue(rnd, item, target), measuredAt: at.toISOString() });
    }
  }
  return out;
}

/**
 * Sends per-day record lists as a device does (docs/product-rules.md#ingest): offline now and then (the day's records
 * wait for the next burst), a burst arrives shuffled, and a lost answer makes the device send the same batch again.
 */
export async function sendAsDevice(send: Send, device: DeviceCredentials, days: readonly unknown[][], rnd: Random, tally: (s: IngestSummary) => void): Promise<void> {
  let buffered: unknown[] = [];
  const post = async (records: unknown[]) => {
    for (let i = 0; i < records.length; i += 1000) {
      const res = await send('POST', '/api/v1/device/records', deviceAuth(device), { records: records.slice(i, i + 1000) });
      if (res.status !== 200) throw new Error(`device batch refused: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
      tally((res.json as { data: IngestSummary }).data);
    }
  };
  for (const [i, records] of days.entries()) {
    buffered.push(...records);
    const last = i === days.length - 1;
    if (buffered.length === 0 || (!last && rnd.chance(0.2))) continue;
    buffered.sort(() => rnd.next() - 0.5);
    await post(buffered);
    if (rnd.chance(0.15)) await post(buffered);
    buffered = [];
  }
}

/**
 * A device taking part in a contest for the last `days` days: `perDay` entries a day of students in the contest's
 * scope, sent in bursts with resends. Exported for end-to-end tests that drive a running server.
 */
export async function driveContest(
  send: Send,
  device: DeviceCredentials,
  contest: SimContest,
  roster: readonly SimStudent[],
  opts: { days: number; perDay: number; now: Date; rnd: Random },
): Promise<{ accepted: number; duplicate: number; rejected: number }> {
  const total = { accepted: 0, duplicate: 0, rejected: 0 };
  let seq = 0;
  const clientId = () => `${device.serialNo}-c${contest.id.slice(0, 8)}-${opts.now.getTime().toString(36)}-${++seq}`;
  const perDay = Array.from({ length: opts.days }, (_, i) => contestDay(opts.rnd, contest, roster, opts.days - 1 - i, opts.now, opts.perDay, clientId));
  await sendAsDevice(send, device, perDay, opts.rnd, (s) => {
    total.accepted += s.accepted;
    total.duplicate += s.duplicate;
    total.rejected += s.rejected;
  });
  return total;
}

/** A small MP4 (an `ftyp` box, then filler): the file store judges videos by content. Unique per call through `n`. */
export function tinyMp4(n: number, size = 4096): Buffer {
  const out = Buffer.alloc(size, 0);
  out.writeUInt32BE(24, 0);
  out.write('ftypisom', 4, 'ascii');
  out.writeUInt32BE(0x200, 12);
  out.write('isommp41', 16, 'ascii');
  out.writeUInt32BE(size - 24, 24);
  out.write('free', 28, 'ascii');
  out.write(`tiyu-simulated-video-${n}-${Date.now()}`, 32, 'ascii');
  return out;
}

const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');

/**
 * Uploads a video through the app API for a student as a phone app would, resumably (tus 1.0: a creation request,
 * then PATCHes of `chunkSize` bytes; after a failed PATCH it asks the server's offset with HEAD and goes on from
 * there). Answers the stored file's id, for a record's `videoFileId`.
 */
export async function uploadAppVideo(
  send: Send,
  headers: Record<string, string>,
  studentId: string,
  name: string,
  bytes: Buffer,
  chunkSize = 256 * 1024,
): Promise<string> {
  const tus = { ...headers, 'tus-resumable': '1.0.0' };
  const created = await send('POST', '/api/v1/app/videos', { ...tus, 'upload-length': String(bytes.length), 'upload-metadata': `filename ${b64(name)},studentId ${b64(studentId)}` });
  const location = created.headers?.location;
  if (created.status !== 201 || !location) throw new Error(`video refused: ${created.status} ${JSON.stringify(created.json).slice(0, 200)}`);
  let offset = 0;
  for (let attempt = 0; attempt < 5; ) {
    const end = Math.min(bytes.length, offset + chunkSize);
    const res = await send('PATCH', location, { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, bytes.subarray(offset, end));
    if (res.status === 200) return (res.json as { data: { id: string } }).data.id;
    if (res.status === 204) {
      offset = end;
      continue;
    }
    if (res.status < 500 && res.status !== 409) throw new Error(`video refused: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
    // Interrupted or out of step: continue from what the server holds.
    attempt++;
    const probe = await send('HEAD', location, tus);
    offset = Number(probe.headers?.['upload-offset'] ?? 0);
  }
  throw new Error(`video upload did not finish: ${location}`);
}
