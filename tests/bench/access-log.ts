/**
 * The access log's cost per request (docs/decisions/062-access-log.md): the same trivial signed-in GET answered by
 * `app.inject`, without and with the access-log plugin (server/plugins/access-log.ts) on PGlite in this process, so the
 * buffered multi-row inserts run on the same thread as the requests (the worst case: on PostgreSQL the insert runs in
 * the server). Rounds alternate the two in one run; a "with" round counts until its rows are in the database.
 *
 *   npm run bench -- access-log [--requests 20000] [--rounds 3]
 */
import { parseArgs } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { migrateDb, openDb } from '../../server/db/client';
import { accessLogPlugin } from '../../server/plugins/access-log';

const { values: args } = parseArgs({ options: { requests: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' } } });
const N = Number(args.requests);
const ROUNDS = Number(args.rounds);

// The database as the migrations make it (the table partitioned by China day, its change-feed trigger), in memory.
const handle = await openDb();
await migrateDb(handle);
const db = handle.db;
const pg = handle.raw as PGlite;

const ORG = '00000000-0000-4000-8000-000000000001';
/** The stand-ins of the plugins the access log depends on: a signed-in caller with its scope, as the console's are. */
const stubs = fp(
  async (app) => {
    app.decorate('db', db);
    app.decorate('now', () => new Date());
    app.decorateRequest('session', null);
    app.decorateRequest('scope', null);
    app.addHook('onRequest', async (request) => {
      request.session = { userId: ORG, sessionId: ORG };
      request.scope = { userId: ORG, accountId: ORG, orgId: ORG, tenantOrgId: ORG, roleId: ORG, orgType: 1 as never, permissions: new Set(), dataScope: 'all' as never };
    });
  },
  { name: 'bench-stubs' },
);
const named = (name: string) => fp(async () => {}, { name });

async function build(withLog: boolean): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(stubs);
  for (const name of ['tiyu-db', 'tiyu-auth', 'tiyu-tenant']) await app.register(named(name));
  if (withLog) await app.register(accessLogPlugin);
  app.get('/api/busi/web/k12/user/student/page', async () => ({ code: 200, data: { records: [], total: 0 } }));
  await app.ready();
  return app;
}

async function round(withLog: boolean): Promise<number> {
  const app = await build(withLog);
  const start = performance.now();
  for (let i = 0; i < N; i++) {
    await app.inject({ url: `/api/busi/web/k12/user/student/page?size=10&name=n${i}`, headers: { 'user-agent': 'bench' } });
  }
  if (withLog) await app.accessLog.flush();
  const ms = performance.now() - start;
  await app.close();
  return ms;
}

const rows = async () => (await pg.query<{ n: number }>('select count(*)::int as n from access_logs')).rows[0].n;
const without: number[] = [];
const withLog: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  without.push(await round(false));
  withLog.push(await round(true));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const a = median(without);
const b = median(withLog);
const { rows: parts } = await pg.query<{ part: string; n: number }>('select tableoid::regclass::text as part, count(*)::int as n from access_logs group by 1 order by 1');
console.log(`${N} requests a round, ${ROUNDS} rounds alternated, median; rows written ${await rows()} (expected ${N * ROUNDS}), by partition: ${parts.map((p) => `${p.part} ${p.n}`).join(', ')}`);
console.log(`without the access log (floor): ${(a / N * 1000).toFixed(1)} µs/request (${Math.round(N / (a / 1000))} req/s)`);
console.log(`with the access log, until written: ${(b / N * 1000).toFixed(1)} µs/request (${Math.round(N / (b / 1000))} req/s): +${((b - a) / N * 1000).toFixed(1)} µs, ${(b / a).toFixed(2)}× the floor`);
await handle.close();
