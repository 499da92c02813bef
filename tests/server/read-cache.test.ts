import { eq, sql } from 'drizzle-orm';
import type { PGlite } from '@electric-sql/pglite';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { ScoreSearchPage } from '@/domain/physique-results/types';
import type { SchoolView, StudentListPage } from '@/domain/data-center/types';
import { orgs } from '../../server/db/schema/orgs';
import { physiqueResults } from '../../server/db/schema/physique';
import { addPlanWithResults } from '../../server/seed/scale';
import { accessLogs } from '../../server/db/schema/access-log';
import { READ_CACHE_MAX_AGE_MS, readCachePlugin } from '../../server/plugins/read-cache';
import { createTestApp, type TestApp } from '../support/server-app';
import { demoOrgs } from './physique-results/physique-fixtures';

let t: TestApp;
const tokens: Record<string, string> = {};
let org: { bureau: string; k12: string; uni: string };

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['school01', 'myclass01', 'college01', 'district01']) tokens[account] = (await t.login(account)).access_token;
  org = await demoOrgs(t.db);
  await addPlanWithResults(t.db, { orgId: org.uni, schoolYear: 2026, seed: 4 });
});
afterAll(async () => {
  await t?.close();
});

const api = (path: string) => `/api/busi/web/${path}`;
async function get<T>(path: string, account = 'school01', headers: Record<string, string> = {}): Promise<{ data: T; body: string }> {
  const res = await t.request({ url: api(path), token: tokens[account], headers });
  expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).toBe(200);
  return { data: res.json<Envelope<T>>().data, body: res.body };
}

/** The statements the app sends to PGlite while `run` runs (PGlite only: the text is the same on PostgreSQL). */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const raw = t.handle.raw as PGlite;
  const seen: string[] = [];
  const query = raw.query;
  raw.query = function (this: PGlite, text: string, ...rest: unknown[]) {
    seen.push(text);
    return (query as (...a: unknown[]) => ReturnType<PGlite['query']>).call(this, text, ...rest);
  } as PGlite['query'];
  try {
    await run();
  } finally {
    raw.query = query;
  }
  return seen;
}

const LIST = 'k12/organizeTest/scoreSearch/page?size=20';

describe('the change feed', () => {
  it('every table of the schema has its trigger, firing in replica mode too', async () => {
    const { rows } = await t.db.execute<{ relname: string; tgenabled: string | null }>(sql`
      select c.relname, g.tgenabled from pg_class c
      left join pg_trigger g on g.tgrelid = c.oid and g.tgname = 'tiyu_changed'
      where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition`);
    // A partition's rows are written through its partitioned table, whose statement trigger fires for them.
    expect(rows.length).toBeGreaterThan(50);
    // The access log is written by every request and read by no kept answer (migration 0063).
    expect(rows.filter((r) => r.tgenabled !== 'A').map((r) => r.relname)).toEqual(['access_logs']);
  });

  it('the access log notifies nothing, and a kept answer that would read it stops the server from starting', async () => {
    const before = await t.app.changes.current(['access_logs'], org.k12);
    await get(LIST);
    await t.app.accessLog.flush();
    expect(await t.app.changes.current(['access_logs'], org.k12)).toBe(before);

    const app = Fastify();
    app.decorate('db', t.db);
    app.decorate('changes', { onChange: () => {} } as unknown as FastifyInstance['changes']);
    for (const name of ['tiyu-changes', 'tiyu-auth', 'tiyu-i18n']) await app.register(fp(async () => {}, { name }));
    await app.register(readCachePlugin);
    app.get('/api/logs', { config: { readsTables: [accessLogs] } }, async () => ({}));
    await expect(app.ready()).rejects.toThrow('access_logs has no change-feed trigger, so kept answers of /api/logs would never be retired');
    await app.close();
  });

  it('tables with an organisation name the organisations of the rows written, their ancestors and descendants', async () => {
    // Partitioned tables (the operation log by school year) notify from the parent, which sees every partition's rows.
    const { rows } = await t.db.execute<{ relname: string; n: number }>(sql`
      select c.relname, count(g.oid)::int as n from pg_class c
      join pg_attribute a on a.attrelid = c.oid and a.attname = 'org_id' and not a.attisdropped
      left join pg_trigger g on g.tgrelid = c.oid and g.tgname in ('tiyu_changed_ins', 'tiyu_changed_upd', 'tiyu_changed_del') and g.tgenabled = 'A'
      where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
      group by c.relname`);
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.filter((r) => r.n !== 3).map((r) => r.relname)).toEqual(['access_logs']);
    const tables = ['physique_results'];
    const [row] = (await t.db.select({ id: physiqueResults.id }).from(physiqueResults).where(eq(physiqueResults.orgId, org.uni)).limit(1));
    const versions = async () => Promise.all([org.uni, org.bureau, org.k12, null].map((o) => t.app.changes.current(tables, o)));
    const before = await versions();
    // A statement that writes no row changes nothing.
    await t.db.update(physiqueResults).set({ invalid: false }).where(sql`false`);
    expect(await versions()).toEqual(before);
    await t.db.update(physiqueResults).set({ invalid: sql`${physiqueResults.invalid}` }).where(eq(physiqueResults.id, row.id));
    const after = await versions();
    // The university and the bureau above it moved; the other school did not; a caller without organisation did.
    expect(after.map((v, i) => v! > before[i]!)).toEqual([true, true, false, true]);
    // A row of the bureau's own (moved there and back) may be part of any answer below it: every school moves.
    await t.db.update(physiqueResults).set({ orgId: org.bureau }).where(eq(physiqueResults.id, row.id));
    await t.db.update(physiqueResults).set({ orgId: org.uni }).where(eq(physiqueResults.id, row.id));
    const below = await versions();
    expect(below.map((v, i) => v! > after[i]!)).toEqual([true, true, true, true]);
  });
});

describe('invalidation by organisation', () => {
  const UNI_LIST = 'gx/organizeTest/scoreSearch/page?size=20';
  // Every year: the university's first rows are of its oldest plan, outside the current year the bureau's list opens on.
  const BUREAU_LIST = 'admin/organizeTest/scoreSearch/page?size=20&allYears=true';

  it('a write in one school keeps the other schools’ answers, and never serves that school or the bureau above it a stale one', async () => {
    const school = await get<ScoreSearchPage>(LIST);
    const schoolView = await get<SchoolView>('k12/dataCenter/school');
    const uni = await get<ScoreSearchPage>(UNI_LIST, 'college01');
    const bureau = await get<ScoreSearchPage>(BUREAU_LIST, 'district01');
    const victim = uni.data.records.find((r) => !r.invalid)!;
    const hits = t.app.readCache.hits;
    // Another connection writes a result of the university (a script, another instance).
    await t.db.update(physiqueResults).set({ invalid: true, invalidAt: new Date() }).where(eq(physiqueResults.id, victim.id));
    // The K12 school's answers are still served from memory.
    expect((await get<ScoreSearchPage>(LIST)).body).toBe(school.body);
    expect((await get<SchoolView>('k12/dataCenter/school')).body).toBe(schoolView.body);
    expect(t.app.readCache.hits).toBe(hits + 2);
    // The university and the bureau above it read the write.
    const uniAfter = await get<ScoreSearchPage>(UNI_LIST, 'college01');
    expect(uniAfter.data.records.find((r) => r.id === victim.id)!.invalid).toBe(true);
    expect(uniAfter.data.summary.valid).toBe(uni.data.summary.valid - 1);
    const bureauAfter = await get<ScoreSearchPage>(BUREAU_LIST, 'district01');
    expect(bureauAfter.data.summary.valid).toBe(bureau.data.summary.valid - 1);
    expect(t.app.readCache.hits).toBe(hits + 2);
  });
});

describe('the read cache', () => {
  it('cached routes declare every table their statements read', async () => {
    if (t.handle.kind !== 'pglite') return;
    const tables = new Set((await t.db.execute<{ n: string }>(sql`select tablename as n from pg_tables where schemaname = current_schema()`)).rows.map((r) => r.n));
    // Each cached route with the calls that reach its branches (a scope of classes, a bureau, a university, filters).
    const calls: Record<string, [string, string][]> = {
      '/api/busi/web/k12/organizeTest/scoreSearch/page': [['school01', LIST], ['school01', `${LIST}&keyword=a&gender=female`], ['myclass01', LIST]],
      '/api/busi/web/admin/organizeTest/scoreSearch/page': [['district01', 'admin/organizeTest/scoreSearch/page?size=20']],
      '/api/busi/web/gx/organizeTest/scoreSearch/page': [['college01', 'gx/organizeTest/scoreSearch/page?size=20']],
    };
    for (const family of ['k12', 'gx', 'admin'] as const) {
      const account = { k12: 'school01', gx: 'college01', admin: 'district01' }[family];
      const views = ['filters', 'school', 'grade?gradeNo=7', 'class', 'student?size=20', 'lessonLoad', ...(family === 'gx' ? ['college'] : [])];
      for (const v of views) calls[`/api/busi/web/${family}/dataCenter/${v.split('?')[0]}`] = [[account, `${family}/dataCenter/${v}`]];
      if (family === 'k12') calls['/api/busi/web/k12/dataCenter/school'].push(['myclass01', 'k12/dataCenter/school']);
    }
    const k12Student = (await get<StudentListPage>('k12/dataCenter/student?size=10')).data.records[0];
    const uniStudent = (await get<StudentListPage>('gx/dataCenter/student?size=10', 'college01')).data.records[0];
    calls['/api/busi/web/k12/dataCenter/class/:id'] = [['school01', `k12/dataCenter/class/${k12Student.classId}`]];
    calls['/api/busi/web/k12/dataCenter/student/:id'] = [['school01', `k12/dataCenter/student/${k12Student.studentId}`]];
    calls['/api/busi/web/gx/dataCenter/class/:id'] = [['college01', `gx/dataCenter/class/${uniStudent.classId}`]];
    calls['/api/busi/web/gx/dataCenter/student/:id'] = [['college01', `gx/dataCenter/student/${uniStudent.studentId}`]];
    calls['/api/busi/web/admin/dataCenter/class/:id'] = [['district01', `admin/dataCenter/class/${k12Student.classId}`]];
    calls['/api/busi/web/admin/dataCenter/student/:id'] = [['district01', `admin/dataCenter/student/${k12Student.studentId}`]];

    // Lesson-load reports (docs/product-rules.md#lesson-load: reports): each grouping reads other tables.
    calls['/api/busi/web/k12/class/load/summary'] = [['school01', 'k12/class/load/summary?group=teacher'], ['school01', 'k12/class/load/summary?group=school'], ['myclass01', 'k12/class/load/summary']];
    calls['/api/busi/web/gx/class/load/summary'] = [['college01', 'gx/class/load/summary?group=college']];
    calls['/api/busi/web/admin/class/load/schools'] = [['district01', 'admin/class/load/schools']];
    // A dictionary's entries (docs/product-rules.md#dictionaries): the school's line of organisations.
    calls['/api/busi/web/dictionaries/:code'] = [['school01', 'dictionaries/venueType']];
    const entry = { dictionary: 'venueType', code: 'rcache', labelZhCn: '缓存', labelZhTw: '', labelEnUs: '', sort: 1, enabled: true };
    expect((await t.as('school01').post('/api/busi/web/k12/system/dictionary', entry)).status).toBe(200);
    expect([...t.app.readCache.routes.keys()].filter((r) => !calls[r])).toEqual([]);
    for (const [route, list] of Object.entries(calls)) {
      const declared = t.app.readCache.routes.get(route);
      expect(declared, route).toBeDefined();
      for (const [account, path] of list) {
        // The first call loads the caller into the auth cache; a statement on a table without organisation that every
        // cached route reads retires its answer (its statement trigger fires even for no row), so the second runs the
        // route alone.
        await get(path, account);
        await t.db.execute(sql`update teacher_classes set class_id = class_id where false`);
        // A dictionary reads no class scope: a write of one of the school's entries retires its answer.
        if (route === '/api/busi/web/dictionaries/:code') await t.db.execute(sql`update dictionary_entries set version = version where code = 'rcache'`);
        const statements = await statementsOf(() => get(path, account));
        expect(statements.length, path).toBeGreaterThan(0);
        const read = new Set(statements.flatMap((s) => [...s.matchAll(/\b(?:from|join)\s+"?([a-z_][a-z0-9_]*)"?/gi)].map((m) => m[1]).filter((n) => tables.has(n))));
        expect([...read].filter((n) => !declared!.includes(n)), `${path} reads tables it does not declare`).toEqual([]);
      }
    }
  });

  it('answers a repeated request from memory, and the next request after a write over HTTP reads the write', async () => {
    const first = await get<ScoreSearchPage>(LIST);
    const hits = t.app.readCache.hits;
    const again = await get<ScoreSearchPage>(LIST);
    expect(again.body).toBe(first.body);
    expect(t.app.readCache.hits).toBe(hits + 1);
    if (t.handle.kind === 'pglite') expect(await statementsOf(() => get(LIST))).toEqual([]);

    const victim = first.data.records.find((r) => !r.invalid)!;
    const res = await t.request({ method: 'POST', url: api('k12/organizeTest/scoreSearch/invalid'), token: tokens.school01, payload: { ids: [victim.id] } });
    expect(res.statusCode, res.body).toBe(200);
    const after = await get<ScoreSearchPage>(LIST);
    expect(after.data.records.find((r) => r.id === victim.id)!.invalid).toBe(true);
    expect(after.data.summary.valid).toBe(first.data.summary.valid - 1);
  });

  it('the next request after another connection wrote (another instance, a script) reads the write', async () => {
    const before = await get<ScoreSearchPage>(LIST);
    const view = await get<SchoolView>('k12/dataCenter/school');
    await get<ScoreSearchPage>(LIST);
    const victim = before.data.records.find((r) => !r.invalid)!;
    // t.db is not the app's request path: on PostgreSQL it is a pool connection other than the feed's.
    await t.db.update(physiqueResults).set({ invalid: true, invalidAt: new Date() }).where(eq(physiqueResults.id, victim.id));
    const after = await get<ScoreSearchPage>(LIST);
    expect(after.data.records.find((r) => r.id === victim.id)!.invalid).toBe(true);
    expect(after.data.summary.valid).toBe(before.data.summary.valid - 1);
    const viewAfter = await get<SchoolView>('k12/dataCenter/school');
    expect(viewAfter.body).not.toBe(view.body);
  });

  it('keys answers by caller: a teacher scoped to her classes never gets the school’s answer to the same URL', async () => {
    const school = await get<ScoreSearchPage>(LIST);
    const mine = await get<ScoreSearchPage>(LIST, 'myclass01');
    expect(mine.data.total).toBeGreaterThan(0);
    expect(mine.data.total).toBeLessThan(school.data.total);
    expect((await get<ScoreSearchPage>(LIST, 'myclass01')).body).toBe(mine.body);
    expect((await get<ScoreSearchPage>(LIST)).body).toBe(school.body);
  });

  it('never serves an answer older than a minute, nor a refused or failed one', async () => {
    await get(LIST);
    const hits = t.app.readCache.hits;
    t.clock.advance(READ_CACHE_MAX_AGE_MS + 1);
    await get(LIST);
    expect(t.app.readCache.hits).toBe(hits);
    await get(LIST);
    expect(t.app.readCache.hits).toBe(hits + 1);
    // The same URL without a session, or with a university account on a K12 route, is refused before the cache.
    expect((await t.request({ url: api(LIST) })).statusCode).toBe(401);
    expect((await t.request({ url: api(LIST), token: tokens.college01 })).statusCode).toBe(403);
    expect(t.app.readCache.hits).toBe(hits + 1);
  });

  it('a kept answer is served while every request slot is busy (PGlite); an answer to compute waits for a slot', async () => {
    const gate = t.app.requestGate;
    if (!gate) return;
    await get(LIST);
    // Requests computing answers hold every slot.
    const holders = Array.from({ length: 8 }, () => ({ raw: { destroyed: false }, releaseSlot: null, slotDeferred: false }) as unknown as FastifyRequest);
    const admitted = holders.map((h) => gate.admit(h));
    try {
      const res = await t.request({ url: api(LIST), token: tokens.school01 });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-read-cache']).toBe('hit');
      let answered = false;
      const computed = t.request({ url: api(`${LIST}&gender=male`), token: tokens.school01 }).then((r) => ((answered = true), r));
      await new Promise((ok) => setTimeout(ok, 300));
      expect(answered).toBe(false);
      for (const h of holders) h.releaseSlot?.();
      await Promise.all(admitted);
      for (const h of holders) h.releaseSlot?.();
      expect((await computed).statusCode).toBe(200);
    } finally {
      await Promise.all(admitted);
      for (const h of holders) h.releaseSlot?.();
    }
  });

  it('concurrent requests for one answer compute it once', async () => {
    t.clock.advance(READ_CACHE_MAX_AGE_MS + 1);
    const { hits, misses } = t.app.readCache;
    const bodies = await Promise.all(Array.from({ length: 8 }, () => get(LIST).then((r) => r.body)));
    expect(new Set(bodies).size).toBe(1);
    expect(t.app.readCache.misses).toBe(misses + 1);
    expect(t.app.readCache.hits).toBe(hits + 7);
  });

  it('a school’s scope and plans are read once until they change: another view of the school reads only its own figures', async () => {
    const first = await get<SchoolView>('k12/dataCenter/school?semesterCode=11');
    // Another URL (computed, not from memory): only the view's own statement, not the school and its plans again.
    if (t.handle.kind === 'pglite') {
      const statements = await statementsOf(() => get('k12/dataCenter/school?semesterCode=13'));
      expect(statements.length).toBe(1);
      expect(statements.join('\n')).not.toContain('"parentId"');
    }
    // A change of the school shows in the next view at once, computed or not.
    await t.db.update(orgs).set({ name: `${first.data.scope.orgName} (renamed)` }).where(eq(orgs.id, org.k12));
    try {
      expect((await get<SchoolView>('k12/dataCenter/school?semesterCode=11')).data.scope.orgName).toBe(`${first.data.scope.orgName} (renamed)`);
      expect((await get<SchoolView>('k12/dataCenter/school?semesterCode=13')).data.scope.orgName).toBe(`${first.data.scope.orgName} (renamed)`);
    } finally {
      await t.db.update(orgs).set({ name: first.data.scope.orgName }).where(eq(orgs.id, org.k12));
    }
  });

  it('a request syncs with the change feed once, however many of its checks ask (PostgreSQL: one round trip)', async () => {
    if (t.handle.kind !== 'postgres') return;
    await get(LIST);
    // The feed's round trip is a `select 1` on its listening connection (server/lib/change-feed.ts).
    const pings = vi.spyOn(pg.Client.prototype, 'query');
    const pingsOf = () => pings.mock.calls.filter(([text]) => text === 'select 1').length;
    try {
      // From memory: the session's check and the read cache's.
      await get(LIST);
      expect(pingsOf()).toBe(1);
      // Computed: the same two and the score list's kept summary.
      await get(`${LIST}&invalid=false&current=2`);
      expect(pingsOf()).toBe(2);
    } finally {
      pings.mockRestore();
    }
  });

  it('while the feed is lost (PostgreSQL), answers are computed afresh until it is back', async () => {
    if (t.handle.kind !== 'postgres') return;
    await get(LIST);
    await t.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'tiyu change feed' and datname = current_database()`);
    const victim = (await get<ScoreSearchPage>(`${LIST}&invalid=false`)).data.records[0];
    await t.db.update(physiqueResults).set({ invalid: true, invalidAt: new Date() }).where(eq(physiqueResults.id, victim.id));
    expect((await get<ScoreSearchPage>(LIST)).data.records.find((r) => r.id === victim.id)!.invalid).toBe(true);
    // It reconnects within a few seconds; then answers are kept again.
    const until = Date.now() + 10_000;
    let hits = t.app.readCache.hits;
    while (Date.now() < until) {
      await get(LIST);
      if (t.app.readCache.hits > hits) break;
      hits = t.app.readCache.hits;
      await new Promise((ok) => setTimeout(ok, 200));
    }
    expect(t.app.readCache.hits).toBeGreaterThan(hits);
  });
});
