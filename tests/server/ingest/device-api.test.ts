import { and, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { DeviceCredential, IngestSummary } from '@/domain/activities/ingest';
import { ORG_TYPE } from '@/domain/constants';
import type { DeviceRow } from '@/domain/venue/devices';
import { activityRecords } from '../../../server/db/schema/activities';
import { auditLogs } from '../../../server/db/schema/audit';
import { contestScores, contests } from '../../../server/db/schema/contests';
import { orgs } from '../../../server/db/schema/orgs';
import { testRecords } from '../../../server/db/schema/physique';
import { students } from '../../../server/db/schema/school';
import { devices } from '../../../server/db/schema/venue';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
const tokens: Record<string, string> = {};
let k12Id: string;
let uniId: string;
let student: { id: string; regNo: string };
let otherOrgStudent: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['school01', 'teacher01', 'college01']) tokens[account] = (await t.login(account)).access_token;
  const rows = await t.db.select({ id: orgs.id, type: orgs.type }).from(orgs);
  k12Id = rows.find((o) => o.type === ORG_TYPE.k12)!.id;
  uniId = rows.find((o) => o.type === ORG_TYPE.university)!.id;
  [student] = await t.db
    .select({ id: students.id, regNo: students.regNo })
    .from(students)
    .where(and(eq(students.orgId, k12Id), eq(students.status, 'studying'), eq(students.enabled, true)))
    .limit(1);
  [{ id: otherOrgStudent }] = await t.db.select({ id: students.id }).from(students).where(eq(students.orgId, uniId)).limit(1);
});
afterAll(async () => {
  await t?.close();
});

const console_ = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, account = 'school01', payload?: unknown) =>
  t.request({ method, url: `/api/busi/web/${url}`, token: tokens[account], payload: payload as object });
const basic = (serialNo: string, secret: string) => `Basic ${Buffer.from(`${serialNo}:${secret}`).toString('base64')}`;
const post = (auth: string, records: unknown[], lang = 'zh-CN') =>
  t.app.inject({ method: 'POST', url: '/api/v1/device/records', headers: { authorization: auth, 'accept-language': lang }, payload: { records } });
const summary = (res: { json<U>(): U }) => res.json<Envelope<IngestSummary>>().data;

let seq = 0;
const minutesAgo = (m: number) => new Date(t.clock.now().getTime() - m * 60_000).toISOString();
const rec = (extra: Record<string, unknown> = {}) => ({ clientId: `r-${++seq}`, studentId: student.id, kind: 'exercise', item: 'ropeFree', value: 120, measuredAt: minutesAgo(30), ...extra });

async function issue(deviceId: string, account = 'school01') {
  const res = await console_('POST', `k12/device/${deviceId}/secret`, account);
  return { res, credential: res.json<Envelope<DeviceCredential>>().data };
}
const activatedDevice = async () =>
  (await t.db.select().from(devices).where(and(eq(devices.orgId, k12Id), isNotNull(devices.activatedAt), ne(devices.status, 'disabled'))).limit(1))[0];

describe('device credentials (device management)', () => {
  it('issues a secret shown once and stores only its hash; the list tells that one exists; the audit row has no secret', async () => {
    const device = await activatedDevice();
    const { res, credential } = await issue(device.id);
    expect(res.statusCode).toBe(200);
    expect(credential.serialNo).toBe(device.serialNo);
    expect(credential.secret.length).toBeGreaterThanOrEqual(32);
    const [stored] = await t.db.select().from(devices).where(eq(devices.id, device.id));
    expect(stored.secretHash).not.toContain(credential.secret);
    expect(stored.secretHash).toMatch(/^[0-9a-f]{64}$/);
    const row = (await console_('GET', `k12/device/${device.id}`)).json<Envelope<DeviceRow>>().data;
    expect(row.secretIssuedAt).not.toBeNull();
    expect(JSON.stringify(row)).not.toContain(credential.secret);
    const logs = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, device.id), eq(auditLogs.action, 'issueSecret')));
    expect(logs).toHaveLength(1);
    expect(JSON.stringify(logs[0])).not.toContain(credential.secret);
  });

  it('activating a device by issuing its secret counts against the activatable number', async () => {
    const [inactive] = await t.db.select().from(devices).where(and(eq(devices.orgId, k12Id), isNull(devices.activatedAt))).limit(1);
    await t.db.update(orgs).set({ activatableDevices: 0 }).where(eq(orgs.id, k12Id));
    const refused = await issue(inactive.id);
    expect(refused.res.statusCode).toBe(400);
    expect((await t.db.select().from(devices).where(eq(devices.id, inactive.id)))[0].secretHash).toBeNull();
    await t.db.update(orgs).set({ activatableDevices: 1000 }).where(eq(orgs.id, k12Id));
    const { res } = await issue(inactive.id);
    expect(res.statusCode).toBe(200);
    expect((await t.db.select().from(devices).where(eq(devices.id, inactive.id)))[0].activatedAt).not.toBeNull();
  });

  it("refuses another organisation's device (404) and a role without the edit button (403)", async () => {
    const [uniDevice] = await t.db.select().from(devices).where(eq(devices.orgId, uniId)).limit(1);
    if (uniDevice) expect((await issue(uniDevice.id)).res.statusCode).toBe(404);
    expect((await issue('00000000-0000-4000-8000-000000000000')).res.statusCode).toBe(404);
    const device = await activatedDevice();
    expect([403, 401]).toContain((await issue(device.id, 'teacher01')).res.statusCode);
  });

  it('rotation stops the old secret at once; revocation and deactivation stop every call', async () => {
    const device = await activatedDevice();
    const first = (await issue(device.id)).credential;
    expect((await post(basic(device.serialNo, first.secret), [rec()])).statusCode).toBe(200);
    const second = (await issue(device.id)).credential;
    const old = await post(basic(device.serialNo, first.secret), [rec()]);
    expect(old.statusCode).toBe(401);
    expect(old.headers['www-authenticate']).toContain('Basic');
    expect((await post(basic(device.serialNo, second.secret), [rec()])).statusCode).toBe(200);

    expect((await console_('DELETE', `k12/device/${device.id}/secret`)).statusCode).toBe(200);
    expect((await post(basic(device.serialNo, second.secret), [rec()])).statusCode).toBe(401);

    const third = (await issue(device.id)).credential;
    const row = (await console_('GET', `k12/device/${device.id}`)).json<Envelope<DeviceRow>>().data;
    const save = { name: row.name, serialNo: row.serialNo, status: row.status, activated: false, version: row.version, venueId: row.venueId, parentId: row.parentId };
    expect((await console_('PUT', `k12/device/${device.id}`, 'school01', save)).statusCode).toBe(200);
    expect((await post(basic(device.serialNo, third.secret), [rec()])).statusCode).toBe(401);
    expect((await t.db.select().from(devices).where(eq(devices.id, device.id)))[0].secretHash).toBeNull();
  });

  it('a disabled device and a wrong or missing secret are refused alike', async () => {
    const device = await activatedDevice();
    const { credential } = await issue(device.id);
    expect((await post(basic(device.serialNo, 'wrong'), [rec()])).statusCode).toBe(401);
    expect((await post(basic('NO-SUCH-SERIAL', credential.secret), [rec()])).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/device/records', payload: { records: [rec()] } })).statusCode).toBe(401);
    await t.db.update(devices).set({ status: 'disabled' }).where(eq(devices.id, device.id));
    expect((await post(basic(device.serialNo, credential.secret), [rec()])).statusCode).toBe(401);
    await t.db.update(devices).set({ status: 'online' }).where(eq(devices.id, device.id));
    expect((await post(basic(device.serialNo.toLowerCase(), credential.secret), [rec()])).statusCode).toBe(200);
  });
});

describe('device batches', () => {
  let auth: string;
  let deviceId: string;
  beforeAll(async () => {
    const device = await activatedDevice();
    deviceId = device.id;
    auth = basic(device.serialNo, (await issue(device.id)).credential.secret);
  });

  it('accepts a batch; a resent batch creates nothing and answers duplicate, also when records come late and out of order', async () => {
    const batch = [rec({ measuredAt: minutesAgo(60 * 24 * 30) }), rec({ measuredAt: minutesAgo(5) }), rec({ regNo: student.regNo, studentId: undefined, measuredAt: minutesAgo(60 * 24 * 3) })];
    const before = await t.db.$count(activityRecords, eq(activityRecords.deviceId, deviceId));
    const first = summary(await post(auth, batch));
    expect(first).toMatchObject({ accepted: 3, duplicate: 0, rejected: 0 });
    const again = summary(await post(auth, [...batch].reverse()));
    expect(again).toMatchObject({ accepted: 0, duplicate: 3, rejected: 0 });
    expect(again.results.map((r) => r.clientId)).toEqual([...batch].reverse().map((r) => r.clientId));
    expect(await t.db.$count(activityRecords, eq(activityRecords.deviceId, deviceId))).toBe(before + 3);
    const [stored] = await t.db.select().from(activityRecords).where(and(eq(activityRecords.deviceId, deviceId), eq(activityRecords.clientId, batch[2].clientId)));
    expect(stored).toMatchObject({ studentId: student.id, source: 'device', kind: 'exercise', item: 'ropeFree', value: 120 });
    expect((await t.db.select().from(devices).where(eq(devices.id, deviceId)))[0].lastSeenAt).not.toBeNull();
  });

  it('rejects each impossible record with its reason in the request language and accepts the rest', async () => {
    const cases = [
      rec({ item: 'ropeFree', value: 99_999 }),
      rec({ item: 'teleport' }),
      rec({ measuredAt: new Date(t.clock.now().getTime() + 60 * 60_000).toISOString() }),
      rec({ measuredAt: minutesAgo(60 * 24 * 200) }),
      rec({ measuredAt: 'yesterday' }),
      rec({ studentId: otherOrgStudent }),
      rec({ kind: 'selfTest', item: 'running', value: 1000 }),
      rec({ kind: 'contest', refId: '00000000-0000-4000-8000-000000000001' }),
      rec({ kind: 'homework' }),
      rec({ refId: '00000000-0000-4000-8000-000000000001' }),
      rec({ studentId: undefined }),
      rec(),
    ];
    const dup = { ...cases[11] };
    const res = await post(auth, [...cases, dup], 'en-US');
    expect(res.statusCode).toBe(200);
    const s = summary(res);
    expect(s).toMatchObject({ accepted: 1, duplicate: 1, rejected: 11 });
    const reasons = s.results.map((r) => r.code);
    expect(reasons).toEqual([
      'activities:ingest.valueRange',
      'activities:ingest.itemUnknown',
      'activities:ingest.timeFuture',
      'activities:ingest.timeTooOld',
      'activities:ingest.timeFormat',
      'activities:ingest.studentUnknown',
      'activities:ingest.selfTestItem',
      expect.stringMatching(/^contests:/), // the contest named by refId refuses it (its own reason)
      'activities:ingest.refRequired',
      'activities:ingest.refUnexpected',
      'activities:ingest.studentRequired',
      undefined,
      undefined,
    ]);
    expect(s.results[0].reason).toBe('Value out of the plausible range (0–20000 count)');
    expect(s.results[5].reason).toBe('No studying student of this school matches');
    expect(await t.db.$count(activityRecords, eq(activityRecords.clientId, cases[5].clientId))).toBe(0);
  });

  it('refuses a batch with a measuredAt without time-zone offset (400 naming the field) and stores none of it', async () => {
    const before = await t.db.$count(activityRecords, eq(activityRecords.deviceId, deviceId));
    const res = await post(auth, [rec(), rec({ measuredAt: '2026-09-01T08:30:00' })], 'zh-TW');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: '400', data: { field: 'records.1.measuredAt' }, msg: '測量時間（measuredAt）須帶時區偏移，例如 2026-09-01T08:30:00+08:00' });
    expect(await t.db.$count(activityRecords, eq(activityRecords.deviceId, deviceId))).toBe(before);
  });

  it('writes self tests into the test records with the device serial number, idempotently', async () => {
    const device = (await t.db.select().from(devices).where(eq(devices.id, deviceId)))[0];
    const batch = [rec({ kind: 'selfTest', item: 'rope1min', value: 150 }), rec({ kind: 'selfTest', item: 'run50m', value: 8.4 })];
    expect(summary(await post(auth, batch))).toMatchObject({ accepted: 2 });
    expect(summary(await post(auth, batch))).toMatchObject({ duplicate: 2 });
    const rows = await t.db.select().from(testRecords).where(eq(testRecords.senderKey, deviceId));
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.source === 'device' && r.deviceSn === device.serialNo && r.studentId === student.id)).toBe(true);
    expect(rows.map((r) => r.raw).sort()).toEqual([150, 8.4]);
  });

  it('refuses a malformed batch as a whole (400 naming the field, nothing written) and one over 1,000 records', async () => {
    const before = await t.db.$count(activityRecords);
    const bad = await post(auth, [rec(), rec({ value: 'lots' })]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Envelope<{ field: string }>>().data.field).toBe('records.1.value');
    const big = await post(auth, Array.from({ length: 1001 }, () => rec()));
    expect(big.statusCode).toBe(400);
    expect(await t.db.$count(activityRecords)).toBe(before);
  });

  it('stores client ids exactly as sent, whatever characters they hold, and recognises them when resent', async () => {
    const ids = ['a,b', 'say "hi"', '{x}', 'back\\slash', 'NULL', ' 空 格 ', "it's", '\tx', '{"a",NULL}'];
    const batch = ids.map((clientId, i) => ({ ...rec({ clientId }), durationS: i === 0 ? 600 : null }));
    expect(summary(await post(auth, batch))).toMatchObject({ accepted: batch.length, rejected: 0 });
    expect(summary(await post(auth, batch))).toMatchObject({ accepted: 0, duplicate: batch.length });
    const stored = await t.db.select({ clientId: activityRecords.clientId, durationS: activityRecords.durationS }).from(activityRecords).where(eq(activityRecords.deviceId, deviceId));
    // Trimmed on the way in (the schema's rule), kept as it is otherwise.
    for (const r of batch) expect(stored).toContainEqual({ clientId: r.clientId.trim(), durationS: r.durationS });
  });

  it('takes a full batch of 1,000 records in one request', async () => {
    const batch = Array.from({ length: 1000 }, (_, i) => rec({ value: i % 500, measuredAt: minutesAgo(1 + (i % 600)) }));
    const s = summary(await post(auth, batch));
    expect(s).toMatchObject({ accepted: 1000, rejected: 0 });
  });

  it('keeps the contest standings exact for contest entries of a batch (its inserts skip the per-row foreign-key checks)', async () => {
    const day = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(t.clock.now().getTime() + ms));
    const [contest] = await t.db
      .insert(contests)
      .values({ orgId: k12Id, type: 'rank', name: '设备成绩', startDate: day(-3 * 86_400_000), endDate: day(86_400_000), items: ['rope1min'], rule: 'best' })
      .returning({ id: contests.id });
    const entry = (value: number, m: number) => rec({ kind: 'contest', refId: contest.id, item: 'rope1min', value, measuredAt: minutesAgo(m) });
    expect(summary(await post(auth, [entry(150, 30), entry(170, 20), entry(160, 10)]))).toMatchObject({ accepted: 3, rejected: 0 });
    expect(summary(await post(auth, [entry(180, 5)]))).toMatchObject({ accepted: 1 });
    const standings = await t.db.select().from(contestScores).where(eq(contestScores.contestId, contest.id));
    expect(standings).toEqual([expect.objectContaining({ studentId: student.id, item: 'rope1min', maxValue: 180, minValue: 150, total: 660, sessions: 4 })]);
  });

  it('takes entries for a contest of an organisation above the school, never for a contest of another school', async () => {
    const day = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(t.clock.now().getTime() + ms));
    const [{ parentId }] = await t.db.select({ parentId: orgs.parentId }).from(orgs).where(eq(orgs.id, k12Id));
    const contestOf = async (orgId: string) =>
      (
        await t.db
          .insert(contests)
          .values({ orgId, type: 'rank', name: '上级赛事', startDate: day(-86_400_000), endDate: day(86_400_000), items: ['rope1min'], rule: 'best' })
          .returning({ id: contests.id })
      )[0].id;
    const [above, elsewhere] = [await contestOf(parentId!), await contestOf(uniId)];
    const s = summary(await post(auth, [rec({ kind: 'contest', refId: above, item: 'rope1min', value: 150 }), rec({ kind: 'contest', refId: elsewhere, item: 'rope1min', value: 150 })]));
    expect(s.results.map((r) => r.code)).toEqual([undefined, 'contests:refused.unknown']);
  });

  it('lists the school roster for the device, never another school', async () => {
    const res = await t.app.inject({ url: '/api/v1/device/students', headers: { authorization: auth } });
    expect(res.statusCode).toBe(200);
    const rows = res.json<Envelope<{ id: string }[]>>().data;
    expect(rows.some((r) => r.id === student.id)).toBe(true);
    expect(rows.some((r) => r.id === otherOrgStudent)).toBe(false);
  });
});

describe('device list', () => {
  it('shows whether a device holds a secret', async () => {
    const page = (await console_('GET', 'k12/device/page?size=80')).json<Envelope<Page<DeviceRow>>>().data;
    expect(page.records.some((r) => r.secretIssuedAt !== null)).toBe(true);
  });
});
