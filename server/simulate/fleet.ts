import { and, asc, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import type { IngestSummary } from '@/domain/activities/ingest';
import { ORG_TYPE } from '@/domain/constants';
import type { Db } from '../db/client';
import { users } from '../db/schema/auth';
import { orgs } from '../db/schema/orgs';
import { classes, parents, students } from '../db/schema/school';
import { devices } from '../db/schema/venue';
import { DEMO_PASSWORD } from '../db/seed/demo';
import { createRandom, type Random } from '../db/seed/people';
import { sha256Hex } from '../lib/password';
import { hashSecret, newToken } from '../lib/tokens';

/** One HTTP call: through `app.inject` in-process, or `fetch` against a running server. */
export type Send = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, body?: unknown) => Promise<{ status: number; json: unknown }>;

export interface SimulateOptions {
  /** Days back from `now` the fleet has been recording. */
  days: number;
  now?: Date;
  seed?: number;
  /** Device records per device and day (exercise and self tests), before resends. */
  perDeviceDay?: number;
  /** App accounts that take part (each signs in once: a password hash check, the slow part). */
  appUsers?: number;
  log?: (line: string) => void;
}

export interface SimulateReport {
  devices: number;
  appUsers: number;
  batches: number;
  accepted: number;
  duplicate: number;
  rejected: number;
  lessons: number;
}

const DAY = 86_400_000;
type Student = { id: string; classId: string };

/** A device's values of an item: plausible for a school child (count, m, s, cm). */
function valueOf(rnd: Random, item: string): number {
  switch (item) {
    case 'rope1min':
      return rnd.int(60, 190);
    case 'sitUp1min':
      return rnd.int(15, 55);
    case 'standingLongJump':
      return rnd.int(120, 240);
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

/**
 * Drives the device and app APIs like a school fleet (docs/product-rules.md#ingest): each activated device of a school
 * records exercise sessions and self tests every day and sends them in batches, sometimes only days later after being
 * offline (one burst), sometimes twice (a lost answer); K12 devices record a practice lesson per school day and a
 * match on Fridays; students and parents with app accounts submit runs and walks. Devices without a secret get one
 * (only its hash is stored). Deterministic for a seed, apart from the clock.
 */
export async function simulate(db: Db, send: Send, opts: SimulateOptions): Promise<SimulateReport> {
  const rnd = createRandom(opts.seed ?? 20261124);
  const now = opts.now ?? new Date();
  const perDay = opts.perDeviceDay ?? 8;
  const log = opts.log ?? (() => {});
  const report: SimulateReport = { devices: 0, appUsers: 0, batches: 0, accepted: 0, duplicate: 0, rejected: 0, lessons: 0 };
  const tally = (s: IngestSummary) => {
    report.batches++;
    report.accepted += s.accepted;
    report.duplicate += s.duplicate;
    report.rejected += s.rejected;
  };

  // ---- the fleet: activated devices of enabled schools; one main device per school runs its lessons ----
  const fleet = await db
    .select({ id: devices.id, serialNo: devices.serialNo, orgId: devices.orgId, orgType: orgs.type })
    .from(devices)
    .innerJoin(orgs, eq(orgs.id, devices.orgId))
    .where(and(isNotNull(devices.activatedAt), isNull(devices.secretHash), ne(devices.status, 'disabled'), eq(orgs.enabled, true)))
    .orderBy(asc(devices.serialNo));
  const rosters = new Map<string, Student[]>();
  for (const orgId of new Set(fleet.map((d) => d.orgId))) {
    rosters.set(
      orgId,
      await db
        .select({ id: students.id, classId: students.classId })
        .from(students)
        .where(and(eq(students.orgId, orgId), eq(students.status, 'studying'), eq(students.enabled, true)))
        .orderBy(asc(students.regNo)),
    );
  }
  const lessonDevice = new Map<string, string>();
  const secrets = new Map<string, string>();
  for (const d of fleet) {
    const secret = newToken();
    secrets.set(d.id, secret);
    await db.update(devices).set({ secretHash: hashSecret(secret), secretIssuedAt: now }).where(eq(devices.id, d.id));
    if (d.orgType === ORG_TYPE.k12 && !lessonDevice.has(d.orgId)) lessonDevice.set(d.orgId, d.id);
  }
  report.devices = fleet.length;
  const authOf = (d: { id: string; serialNo: string }) => ({ authorization: `Basic ${Buffer.from(`${d.serialNo}:${secrets.get(d.id)}`).toString('base64')}` });
  const post = async (d: { id: string; serialNo: string }, records: unknown[]) => {
    const res = await send('POST', '/api/v1/device/records', authOf(d), { records });
    if (res.status !== 200) throw new Error(`device batch refused: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
    tally((res.json as { data: IngestSummary }).data);
  };

  let seq = 0;
  for (const d of fleet) {
    const roster = rosters.get(d.orgId) ?? [];
    if (roster.length === 0) continue;
    let buffered: unknown[] = [];
    for (let day = opts.days - 1; day >= 0; day--) {
      const base = now.getTime() - day * DAY;
      for (let i = 0; i < perDay; i++) {
        const selfTest = rnd.chance(0.3);
        const item = selfTest ? rnd.pick(['rope1min', 'sitUp1min', 'standingLongJump', 'run50m']) : rnd.pick(['ropeFree', 'jumpingJack', 'running']);
        const at = Math.min(base - rnd.int(0, 8 * 3600) * 1000, now.getTime() - 60_000);
        buffered.push({ clientId: `${d.serialNo}-${++seq}`, studentId: rnd.pick(roster).id, kind: selfTest ? 'selfTest' : 'exercise', item, value: valueOf(rnd, item), measuredAt: new Date(at).toISOString() });
      }
      // Offline for a day now and then: the records wait for the next day's burst.
      if (day > 0 && rnd.chance(0.2)) continue;
      // Out of order: a burst arrives shuffled.
      buffered.sort(() => rnd.next() - 0.5);
      await post(d, buffered);
      // The answer got lost: the device sends the same batch again.
      if (rnd.chance(0.15)) await post(d, buffered);
      buffered = [];
    }
  }

  // ---- lessons: a practice on school days, a match on Fridays, by each K12 school's main device ----
  for (const [orgId, deviceId] of lessonDevice) {
    const d = fleet.find((x) => x.id === deviceId)!;
    const classRows = await db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, orgId)).orderBy(asc(classes.classNo)).limit(8);
    const roster = rosters.get(orgId) ?? [];
    for (let day = opts.days - 1; day >= 1; day--) {
      const start = new Date(now.getTime() - day * DAY);
      const weekday = new Date(start.getTime() + 8 * 3600_000).getUTCDay();
      if (weekday === 0 || weekday === 6) continue;
      start.setUTCHours(1 + (day % 6), 0, 0, 0); // 09:00–14:00 Beijing time
      const classId = rnd.pick(classRows).id;
      const kids = roster.filter((s) => s.classId === classId).slice(0, 20);
      if (kids.length < 4) continue;
      const match = weekday === 5;
      const items = match ? ['rope1min'] : rnd.pick([['rope1min', 'sitUp1min'], ['run50m'], ['standingLongJump', 'rope1min']]);
      const half = Math.floor(kids.length / 2);
      const body = {
        clientId: `${d.serialNo}-lesson-${day}`,
        type: match ? 'match' : 'practise',
        classId,
        items,
        startedAt: start.toISOString(),
        ...(match
          ? {
              teams: [
                { name: '红队', studentIds: kids.slice(0, half).map((k) => k.id) },
                { name: '蓝队', studentIds: kids.slice(half).map((k) => k.id) },
              ],
            }
          : {}),
      };
      const opened = await send('POST', '/api/v1/device/lessons', authOf(d), body);
      if (opened.status !== 200) throw new Error(`lesson refused: ${opened.status} ${JSON.stringify(opened.json).slice(0, 200)}`);
      const lessonId = (opened.json as { data: { id: string } }).data.id;
      report.lessons++;
      const records = kids.flatMap((k) =>
        items.flatMap((item) =>
          Array.from({ length: rnd.int(1, 2) }, () => ({
            clientId: `${d.serialNo}-l${day}-${++seq}`,
            studentId: k.id,
            kind: 'lesson',
            refId: lessonId,
            item,
            value: valueOf(rnd, item),
            measuredAt: new Date(start.getTime() + rnd.int(5, 35) * 60_000).toISOString(),
          })),
        ),
      );
      await post(d, records);
      await send('POST', `/api/v1/device/lessons/${lessonId}/close`, authOf(d), { endedAt: new Date(start.getTime() + 40 * 60_000).toISOString() });
    }
  }

  // ---- app users: students log runs and walks, parents submit for a child now and then ----
  const appAccounts = [
    ...(await db.select({ account: users.accountNum }).from(students).innerJoin(users, eq(users.id, students.userId)).orderBy(asc(users.accountNum))),
    ...(await db.select({ account: users.accountNum }).from(parents).innerJoin(users, eq(users.id, parents.userId)).orderBy(asc(users.accountNum))),
  ];
  for (const { account } of appAccounts.filter((_, i) => i % Math.max(1, Math.ceil(appAccounts.length / (opts.appUsers ?? 30))) === 0)) {
    const login = await send('POST', '/api/v1/app/login', {}, { account, password: sha256Hex(DEMO_PASSWORD) });
    if (login.status !== 200) continue;
    report.appUsers++;
    const headers = { authorization: `bearer ${(login.json as { data: { access_token: string } }).data.access_token}` };
    const me = (await send('GET', '/api/v1/app/me', headers)).json as { data: { identity: string; students: { id: string }[] } };
    const records: unknown[] = [];
    const active = me.data.identity === 'student' ? 0.6 : 0.15;
    for (let day = opts.days - 1; day >= 0; day--) {
      if (!rnd.chance(active)) continue;
      const item = rnd.pick(['running', 'walking', 'ropeFree']);
      const at = Math.min(now.getTime() - day * DAY - rnd.int(0, 10) * 3600_000, now.getTime() - 60_000);
      records.push({
        clientId: `app-${account}-${day}`,
        studentId: rnd.pick(me.data.students).id,
        kind: 'exercise',
        item,
        value: valueOf(rnd, item),
        durationS: rnd.int(600, 3600),
        measuredAt: new Date(at).toISOString(),
      });
    }
    for (let i = 0; i < records.length; i += 100) {
      const res = await send('POST', '/api/v1/app/records', headers, { records: records.slice(i, i + 100) });
      if (res.status === 200) tally((res.json as { data: IngestSummary }).data);
    }
    await send('POST', '/api/v1/app/logout', headers);
  }
  log(
    `simulated ${opts.days} days: ${report.devices} devices, ${report.lessons} lessons, ${report.appUsers} app users; ` +
      `${report.batches} batches, ${report.accepted} accepted, ${report.duplicate} duplicates, ${report.rejected} rejected`,
  );
  return report;
}
