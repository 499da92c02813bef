import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { AccessLogArchiveRow, RetentionRunItem } from '@/domain/retention/retention';
import { driverOf } from '../../../server/db/client';
import { accessLogArchives } from '../../../server/db/schema/access-log';
import { exportDownloads } from '../../../server/db/schema/data-access';
import { retentionRuns } from '../../../server/db/schema/retention';
import { orgSecuritySettings } from '../../../server/db/schema/security';
import { localStorage } from '../../../server/lib/storage/local';
import type { Storage } from '../../../server/lib/storage/storage';
import { accessLogSelect } from '../../../server/modules/platform/access-log.service';
import { runRetention } from '../../../server/modules/retention/retention.service';
import type { Actor } from '../../../server/plugins/tenant';
import { DEMO, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

/**
 * The access log partitioned by China day (docs/decisions/062-access-log.md): rows land in their day's partition,
 * partitions are made ahead, the retention run archives exactly the days past the 180 days (a whole day at a time,
 * written to the file store before its partition is dropped) and the retention screen lists and downloads the archives
 * (platform operators; above the export threshold through an approval, every download logged).
 */
const DAY = 86_400_000;
const ARCHIVES = (family: string) => `/api/busi/web/${family}/system/retention/access-log-archives`;
const APPROVAL = '/api/busi/web/admin/system/exportApproval';
let t: TestApp;
let dir: string;
let storage: Storage;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiyu-access-partitions-'));
  t = await createTestApp({ env: { STORAGE_DIR: dir } });
  storage = await localStorage(dir);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await storage?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The China day (YYYYMMDD) of an instant. */
const chinaDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10).replaceAll('-', '');
/** An instant given as China wall-clock time. */
const china = (local: string) => new Date(`${local}+08:00`);

async function partitions(): Promise<string[]> {
  const { rows } = await t.db.execute<{ name: string }>(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'access_logs'::regclass order by 1`);
  return rows.map((r) => r.name);
}

/** Where each route's rows are stored (the partition's name). */
async function placeOf(routes: string[]): Promise<Record<string, string[]>> {
  const { rows } = await t.db.execute<{ route: string; part: string }>(
    sql`select route, tableoid::regclass::text as part from access_logs where route = any(${sql.param(routes)}::text[]) order by id`,
  );
  const out: Record<string, string[]> = {};
  for (const r of rows) (out[r.route] ??= []).push(r.part);
  return out;
}

/** Rows as the plugin writes them, at chosen instants (through the same buffered writer). */
async function write(rows: { at: Date; route: string }[], orgId: string) {
  for (const r of rows) t.app.accessLog.push({ ...r, kind: 'console', orgId, method: 'GET', status: 200, durationMs: 1, ip: '203.0.113.9' });
  await t.app.accessLog.flush();
}

describe('day partitions', () => {
  it("a signed-in request's row lands in its China day's partition; today's and tomorrow's are made ahead", async () => {
    const now = t.clock.now().getTime();
    // The hourly job ran at start-up (asynchronously): today's and tomorrow's China days exist.
    await expect.poll(partitions, { timeout: 10_000 }).toEqual(expect.arrayContaining([`access_logs_${chinaDay(now)}`, `access_logs_${chinaDay(now + DAY)}`]));
    const res = await t.as(DEMO.school).get('/api/busi/web/k12/user/student/page?size=10');
    expect(res.status).toBe(200);
    await t.app.accessLog.flush();
    const { rows } = await t.db.execute<{ part: string }>(sql`select tableoid::regclass::text as part from access_logs where route = '/api/busi/web/k12/user/student/page' order by id desc limit 1`);
    expect(rows[0].part).toBe(`access_logs_${chinaDay(now)}`);
  });

  it('China days, not UTC days: 00:30 in China is the new day, 23:59 the old one; nothing in the default partition', async () => {
    const { orgId } = await orgOf(t, DEMO.school);
    await write(
      [
        { at: china('2027-12-16T10:00:00'), route: '/p-16' },
        { at: china('2027-12-16T23:59:00'), route: '/p-16' },
        // 2027-12-16 16:30 UTC: the UTC day is the 16th, the China day the 17th.
        { at: china('2027-12-17T00:30:00'), route: '/p-17' },
        // 2027-12-18 00:00 UTC, older than the cutoff below by four hours, and 20:00 (younger): one day, kept whole.
        { at: china('2027-12-18T08:00:00'), route: '/p-18' },
        { at: china('2027-12-18T20:00:00'), route: '/p-18' },
        { at: china('2027-12-19T09:00:00'), route: '/p-19' },
      ],
      orgId,
    );
    expect(await placeOf(['/p-16', '/p-17', '/p-18', '/p-19'])).toEqual({
      '/p-16': ['access_logs_20271216', 'access_logs_20271216'],
      '/p-17': ['access_logs_20271217'],
      '/p-18': ['access_logs_20271218', 'access_logs_20271218'],
      '/p-19': ['access_logs_20271219'],
    });
  });

  it("the log's day filter reads only that day's partition (the plan prunes the others and the default)", async () => {
    const { orgId } = await orgOf(t, DEMO.school);
    const query = accessLogSelect(t.db, { tenantOrgId: orgId } as Actor, { from: '2027-12-18', to: '2027-12-18' }).toSQL();
    // The statement as the list sends it, with its parameters (PGlite and node-postgres answer the same shape).
    const client = driverOf(t.db) as unknown as { query(text: string, params: unknown[]): Promise<{ rows: { 'QUERY PLAN': string }[] }> };
    const { rows } = await client.query(`explain ${query.sql}`, query.params);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('access_logs_20271218');
    for (const other of ['access_logs_20271217', 'access_logs_20271219', 'access_logs_default']) expect(plan).not.toContain(other);
    // And the page answers those rows only.
    const page = await accessLogSelect(t.db, { tenantOrgId: orgId } as Actor, { from: '2027-12-18', to: '2027-12-18', route: '/p-1' });
    expect(page.map((r) => r.route)).toEqual(['/p-18', '/p-18']);
  });
});

describe('retention by day', () => {
  // 12:00 in China: the cutoff 180 days before is 2027-12-18 12:00 China.
  const now = china('2028-06-15T12:00:00');
  let runId: string;

  it('does not drop a day when its archive cannot be written: the run reports the failure and every row stays', async () => {
    const failing: Storage = { ...storage, putBlob: () => Promise.reject(new Error('file store unavailable')) };
    const archivesBefore = await t.db.$count(accessLogArchives);
    const failed = (await runRetention(t.db, now, { storage: failing, force: true }))!;
    const [run] = await t.db.select().from(retentionRuns).where(eq(retentionRuns.id, failed));
    expect(run.items.find((i: RetentionRunItem) => i.category === 'accessLog')?.error).toContain('file store unavailable');
    expect(await partitions()).toEqual(expect.arrayContaining(['access_logs_20271216', 'access_logs_20271217']));
    expect(Object.values(await placeOf(['/p-16', '/p-17'])).flat()).toHaveLength(3);
    expect(await t.db.$count(accessLogArchives)).toBe(archivesBefore);
  });

  it('archives and drops exactly the days whose whole day is past 180 days; the day holding the cutoff stays whole', async () => {
    runId = (await runRetention(t.db, now, { storage, force: true }))!;
    const [run] = await t.db.select().from(retentionRuns).where(eq(retentionRuns.id, runId));
    expect(run.items.find((i: RetentionRunItem) => i.category === 'accessLog')).toMatchObject({ error: null });
    const parts = await partitions();
    expect(parts).not.toContain('access_logs_20271216');
    expect(parts).not.toContain('access_logs_20271217');
    expect(parts).toEqual(expect.arrayContaining(['access_logs_20271218', 'access_logs_20271219']));
    // The run made the partitions of its own today and tomorrow.
    expect(parts).toEqual(expect.arrayContaining(['access_logs_20280615', 'access_logs_20280616']));
    expect(await placeOf(['/p-16', '/p-17', '/p-18', '/p-19'])).toEqual({ '/p-18': ['access_logs_20271218', 'access_logs_20271218'], '/p-19': ['access_logs_20271219'] });

    const archives = await t.db.select().from(accessLogArchives).where(eq(accessLogArchives.runId, runId)).orderBy(accessLogArchives.periodFrom);
    const days = archives.filter((a) => a.periodFrom && a.periodTo && a.periodTo.getTime() - a.periodFrom.getTime() === DAY);
    expect(days.map((a) => [a.periodFrom!.toISOString(), a.rows])).toEqual(
      expect.arrayContaining([
        [china('2027-12-16T00:00:00').toISOString(), 2],
        [china('2027-12-17T00:00:00').toISOString(), 1],
      ]),
    );
    // Every archived row's day ended before the cutoff.
    const cutoff = now.getTime() - 180 * DAY;
    expect(archives.every((a) => a.periodTo!.getTime() <= cutoff)).toBe(true);
  });

  it('a second run finds nothing more due', async () => {
    const again = (await runRetention(t.db, new Date(now.getTime() + 60_000), { storage, force: true }))!;
    expect(await t.db.$count(accessLogArchives, eq(accessLogArchives.runId, again))).toBe(0);
    expect(Object.keys(await placeOf(['/p-18', '/p-19']))).toEqual(['/p-18', '/p-19']);
  });

  it('the retention screen lists the archives to the platform operator and downloads a day as gzip JSON Lines of the rows as stored', async () => {
    const list = await t.as(DEMO.district).get<Page<AccessLogArchiveRow>>(ARCHIVES('admin'));
    expect(list.status).toBe(200);
    const day17 = list.body.data.records.find((a) => a.periodFrom === china('2027-12-17T00:00:00').toISOString())!;
    expect(day17).toMatchObject({ periodTo: china('2027-12-18T00:00:00').toISOString(), rows: 1 });
    expect(day17.size).toBeGreaterThan(0);
    expect(day17.createdAt).toBe(now.toISOString());
    const file = await t.request({ url: `${ARCHIVES('admin')}/${day17.id}`, token: await t.as(DEMO.district).token() });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/gzip');
    expect(file.headers['content-disposition']).toContain('access-log-2027-12-17.jsonl.gz');
    const lines = gunzipSync(file.rawPayload).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([expect.objectContaining({ route: '/p-17', at: china('2027-12-17T00:30:00').toISOString(), ip: '203.0.113.9', kind: 'console' })]);
  });

  it("a school's administrator sees no archive (every organisation's requests are in them) and cannot download one", async () => {
    const [any] = await t.db.select({ id: accessLogArchives.id }).from(accessLogArchives).limit(1);
    const list = await t.as(DEMO.school).get<Page<AccessLogArchiveRow>>(ARCHIVES('k12'));
    expect(list.status).toBe(200);
    expect(list.body.data.records).toEqual([]);
    expect((await t.as(DEMO.school).get(`${ARCHIVES('k12')}/${any.id}`)).status).toBe(404);
    // The PE teacher has no access-log page at all.
    expect((await t.as(DEMO.teacher).get(`${ARCHIVES('k12')}/${any.id}`)).status).toBe(403);
  });

  it('above the export threshold a download needs an approval; the approved download is logged', async () => {
    const { orgId } = await orgOf(t, DEMO.district);
    await t.db.insert(orgSecuritySettings).values({ orgId, value: { exportApprovalRows: 1 } }).onConflictDoUpdate({ target: orgSecuritySettings.orgId, set: { value: { exportApprovalRows: 1 } } });
    const [day16] = await t.db.select().from(accessLogArchives).where(eq(accessLogArchives.periodFrom, china('2027-12-16T00:00:00'))).orderBy(desc(accessLogArchives.createdAt)).limit(1);
    const url = `${ARCHIVES('admin')}/${day16.id}`;
    const refused = await t.as(DEMO.district).get(url);
    expect(refused.status).toBe(409);
    expect(refused.body.data).toMatchObject({ field: 'exportApproval', path: url });
    const request = await t.as(DEMO.district).post<{ id: string }>(APPROVAL, { screen: 'admin.system.accessLog', path: url, query: {}, reason: '等保测评抽查' });
    expect(request.status).toBe(200);
    const id = request.body.data.id;
    expect((await t.as(DEMO.district).post(`${APPROVAL}/${id}/decide`, { approve: true, note: '同意' })).status).toBe(200);
    const file = await t.request({ url: `${APPROVAL}/${id}/download`, token: await t.as(DEMO.district).token() });
    expect(file.statusCode).toBe(200);
    expect(gunzipSync(file.rawPayload).toString('utf8').trim().split('\n')).toHaveLength(2);
    expect(await t.db.$count(exportDownloads, eq(exportDownloads.requestId, id))).toBe(1);
  });
});
