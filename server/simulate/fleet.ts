import { and, asc, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import type { IngestSummary } from '@/domain/activities/ingest';
import { ORG_TYPE } from '@/domain/constants';
import type { Db } from '../db/client';
import { users } from '../db/schema/auth';
import { orgs } from '../db/schema/orgs';
import { classes, parents, students } from '../db/schema/school';
import { devices } from '../db/schema/venue';
import { DEMO_PASSWORD } from '../seed/demo';
import { createRandom } from '../seed/people';
import { sha256Hex } from '../lib/password';
import { hashSecret, newToken } from '../lib/tokens';

import { activeActivities, reaches, rosterOf } from './activities';
import {
  contestDay,
  DAY,
  deviceAuth,
  homeworkDay,
  sendAsDevice,
  tinyMp4,
  uploadAppVideo,
  valueOf,
  type DeviceCredentials,
  type Send,
  type SimStudent,
} from './traffic';

export type { Send } from './traffic';

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
  /** Contest entries and homework submissions accepted. */
  contestEntries: number;
  homeworkSubmissions: number;
  videos: number;
}

/**
 * Drives the device and app APIs like a school fleet (docs/product-rules.md#ingest): each activated device of a school
 * records exercise sessions and self tests every day and sends them in batches, sometimes only days later after being
 * offline (one burst), sometimes twice (a lost answer); devices also record entries of the contests running for their
 * school (students in the contest's scope) and homework of the students without an app account in this run; K12
 * devices record a practice lesson per school day and a match on Fridays; students and parents with app accounts
 * submit runs and walks, enter contests and hand in homework, now and then with a video. Devices without a secret get
 * one (only its hash is stored). Deterministic for a seed, apart from the clock.
 */
export async function simulate(db: Db, send: Send, opts: SimulateOptions): Promise<SimulateReport> {
  const rnd = createRandom(opts.seed ?? 20261124);
  const now = opts.now ?? new Date();
  const perDay = opts.perDeviceDay ?? 8;
  const log = opts.log ?? (() => {});
  /** `what k/n` at about every tenth of a stage (and its last step), so a long simulation shows it moves on. */
  const progress = (what: string, k: number, n: number) => {
    if (k === n || Math.floor((k * 10) / n) !== Math.floor(((k - 1) * 10) / n)) log(`${what} ${k}/${n}`);
  };
  const report: SimulateReport = { devices: 0, appUsers: 0, batches: 0, accepted: 0, duplicate: 0, rejected: 0, lessons: 0, contestEntries: 0, homeworkSubmissions: 0, videos: 0 };
  const tally = (s: IngestSummary) => {
    report.batches++;
    report.accepted += s.accepted;
    report.duplicate += s.duplicate;
    report.rejected += s.rejected;
    for (const r of s.results) {
      if (r.status !== 'accepted') continue;
      if (r.clientId.includes('-contest-')) report.contestEntries++;
      else if (r.clientId.includes('-homework-')) report.homeworkSubmissions++;
    }
  };
  const active = await activeActivities(db, new Date(now.getTime() - opts.days * DAY), now);
  const clientIds = (prefix: string) => {
    let n = 0;
    return () => `${prefix}-${++n}`;
  };

  // ---- the fleet: activated devices of enabled schools; one main device per school runs its lessons ----
  const fleet = await db
    .select({ id: devices.id, serialNo: devices.serialNo, orgId: devices.orgId, orgType: orgs.type })
    .from(devices)
    .innerJoin(orgs, eq(orgs.id, devices.orgId))
    // Terminals only: heart-rate hubs have their own traffic (heart-rate-fleet.ts).
    .where(and(eq(devices.kind, 'terminal'), isNotNull(devices.activatedAt), isNull(devices.secretHash), ne(devices.status, 'disabled'), eq(orgs.enabled, true)))
    .orderBy(asc(devices.serialNo));
  const rosters = new Map<string, SimStudent[]>();
  for (const orgId of new Set(fleet.map((d) => d.orgId))) rosters.set(orgId, await rosterOf(db, orgId));
  const lessonDevice = new Map<string, string>();
  const credentials = new Map<string, DeviceCredentials>();
  for (const d of fleet) {
    const secret = newToken();
    credentials.set(d.id, { serialNo: d.serialNo, secret });
    await db.update(devices).set({ secretHash: hashSecret(secret), secretIssuedAt: now }).where(eq(devices.id, d.id));
    if (d.orgType === ORG_TYPE.k12 && !lessonDevice.has(d.orgId)) lessonDevice.set(d.orgId, d.id);
  }
  report.devices = fleet.length;
  const authOf = (d: { id: string }) => deviceAuth(credentials.get(d.id)!);
  const post = async (d: { id: string }, records: unknown[]) => {
    const res = await send('POST', '/api/v1/device/records', authOf(d), { records });
    if (res.status !== 200) throw new Error(`device batch refused: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
    tally((res.json as { data: IngestSummary }).data);
  };

  // ---- app users sign in first: the students they act for hand in homework through the app, not at a device ----
  const appAccounts = [
    ...(await db.select({ account: users.accountNum }).from(students).innerJoin(users, eq(users.id, students.userId)).orderBy(asc(users.accountNum))),
    ...(await db.select({ account: users.accountNum }).from(parents).innerJoin(users, eq(users.id, parents.userId)).orderBy(asc(users.accountNum))),
  ];
  log(`signing in app users (${fleet.length} devices ready)`);
  const sessions: { account: string; headers: Record<string, string>; identity: string; students: (SimStudent & { orgId: string })[] }[] = [];
  for (const { account } of appAccounts.filter((_, i) => i % Math.max(1, Math.ceil(appAccounts.length / (opts.appUsers ?? 30))) === 0)) {
    const login = await send('POST', '/api/v1/app/login', {}, { account, password: sha256Hex(DEMO_PASSWORD) });
    if (login.status !== 200) continue;
    const headers = { authorization: `bearer ${(login.json as { data: { access_token: string } }).data.access_token}` };
    const me = (await send('GET', '/api/v1/app/me', headers)).json as { data: { identity: string; students: { id: string; orgId: string }[] } };
    const kids = me.data.students.flatMap((k) => {
      const known = (rosters.get(k.orgId) ?? []).find((s) => s.id === k.id);
      return known ? [{ ...known, orgId: k.orgId }] : [];
    });
    if (kids.length) sessions.push({ account, headers, identity: me.data.identity, students: kids });
  }
  report.appUsers = sessions.length;
  const inApp = new Set(sessions.flatMap((s) => s.students.map((k) => k.id)));

  const byDevice = new Map<string, number>();
  for (const d of fleet) byDevice.set(d.orgId, (byDevice.get(d.orgId) ?? 0) + 1);
  let seq = 0;
  let deviceNo = 0;
  for (const d of fleet) {
    progress(`device records of ${opts.days} days: device`, ++deviceNo, fleet.length);
    const roster = rosters.get(d.orgId) ?? [];
    if (roster.length === 0) continue;
    const contestsHere = active.contests.filter((c) => reaches(active.orgParents, c.orgId, d.orgId));
    // Homework done at school: the main device records it for the students who do not use the app in this run.
    const homeworkHere = fleet.find((x) => x.orgId === d.orgId) === d ? active.homework.filter((h) => h.orgId === d.orgId) : [];
    const atDevice = roster.filter((s) => !inApp.has(s.id));
    const contestId = clientIds(`${d.serialNo}-contest`);
    const homeworkId = clientIds(`${d.serialNo}-homework`);
    const days: unknown[][] = [];
    for (let day = opts.days - 1; day >= 0; day--) {
      const base = now.getTime() - day * DAY;
      const records: unknown[] = [];
      for (let i = 0; i < perDay; i++) {
        const selfTest = rnd.chance(0.3);
        const item = selfTest ? rnd.pick(['rope1min', 'sitUp1min', 'standingLongJump', 'run50m']) : rnd.pick(['ropeFree', 'jumpingJack', 'running']);
        const at = Math.min(base - rnd.int(0, 8 * 3600) * 1000, now.getTime() - 60_000);
        records.push({ clientId: `${d.serialNo}-${++seq}`, studentId: rnd.pick(roster).id, kind: selfTest ? 'selfTest' : 'exercise', item, value: valueOf(rnd, item), measuredAt: new Date(at).toISOString() });
      }
      // The school's contest entries spread over its devices.
      for (const c of contestsHere) records.push(...contestDay(rnd, c, roster, day, now, Math.ceil(40 / (byDevice.get(d.orgId) ?? 1)), contestId));
      for (const h of homeworkHere) records.push(...homeworkDay(rnd, h, atDevice, day, now, homeworkId));
      days.push(records);
    }
    await sendAsDevice(send, credentials.get(d.id)!, days, rnd, tally);
  }

  // ---- lessons: a practice on school days, a match on Fridays, by each K12 school's main device ----
  let schoolNo = 0;
  for (const [orgId, deviceId] of lessonDevice) {
    progress('lessons: school', ++schoolNo, lessonDevice.size);
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

  // ---- app users: students log runs and walks, enter contests and hand in homework; parents act for a child ----
  let sessionNo = 0;
  for (const session of sessions) {
    progress('app records: app user', ++sessionNo, sessions.length);
    const { account, headers } = session;
    const records: Record<string, unknown>[] = [];
    const eager = session.identity === 'student' ? 0.6 : 0.15;
    const contestId = clientIds(`app-${account}-contest`);
    const homeworkId = clientIds(`app-${account}-homework`);
    for (let day = opts.days - 1; day >= 0; day--) {
      if (rnd.chance(eager)) {
        const item = rnd.pick(['running', 'walking', 'ropeFree']);
        const at = Math.min(now.getTime() - day * DAY - rnd.int(0, 10) * 3600_000, now.getTime() - 60_000);
        records.push({
          clientId: `app-${account}-${day}`,
          studentId: rnd.pick(session.students).id,
          kind: 'exercise',
          item,
          value: valueOf(rnd, item),
          durationS: rnd.int(600, 3600),
          measuredAt: new Date(at).toISOString(),
        });
      }
      for (const c of active.contests) {
        const kids = session.students.filter((k) => reaches(active.orgParents, c.orgId, k.orgId));
        if (kids.length && rnd.chance(0.35)) records.push(...(contestDay(rnd, c, kids, day, now, 1, contestId) as Record<string, unknown>[]));
      }
      for (const h of active.homework) records.push(...(homeworkDay(rnd, h, session.students, day, now, homeworkId) as Record<string, unknown>[]));
    }
    // Now and then a homework result comes with a video of it; the run's first one always does, so the review screen
    // has a video to show whatever the day (the weekday decides how many random draws came before).
    for (const r of records) {
      if (r.kind !== 'homework' || (report.videos > 0 && !rnd.chance(0.08))) continue;
      r.videoFileId = await uploadAppVideo(send, headers, r.studentId as string, `${account}-${report.videos + 1}.mp4`, tinyMp4(report.videos));
      report.videos++;
    }
    for (let i = 0; i < records.length; i += 100) {
      const batch = records.slice(i, i + 100);
      for (let attempt = 0; attempt < (rnd.chance(0.1) ? 2 : 1); attempt++) {
        const res = await send('POST', '/api/v1/app/records', headers, { records: batch });
        if (res.status !== 200) throw new Error(`app batch refused: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
        tally((res.json as { data: IngestSummary }).data);
      }
    }
    await send('POST', '/api/v1/app/logout', headers);
  }
  log(
    `simulated ${opts.days} days: ${report.devices} devices, ${report.lessons} lessons, ${report.appUsers} app users, ` +
      `${report.contestEntries} contest entries, ${report.homeworkSubmissions} homework results (${report.videos} videos); ` +
      `${report.batches} batches, ${report.accepted} accepted, ${report.duplicate} duplicates, ${report.rejected} rejected`,
  );
  return report;
}
