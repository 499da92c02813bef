import fp from 'fastify-plugin';
import { getTableName, sql, type Table } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authEpoch } from '../db/schema/auth';
import { changesSynced } from './changes';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Every table a GET route's answer is read from. Its answers are then kept per caller, URL and language, and served
     * again until one of these tables (or anything the auth cache depends on) changes, or for at most a minute
     * (docs/decisions/027-read-cache-and-change-feed.md). tests/server/read-cache.test.ts checks the list against the tables the
     * route's statements name.
     */
    readsTables?: readonly Table[];
  }
  interface FastifyInstance {
    readCache: ReadCacheInfo;
  }
  interface FastifyRequest {
    /** Set on a cacheable request that missed: where its answer goes. */
    readCacheMiss: Miss | null;
  }
}

/** What the cache serves, for tests and benchmarks. */
export interface ReadCacheInfo {
  /** Each cached route (its URL pattern) with the tables its answers are keyed by. */
  readonly routes: ReadonlyMap<string, readonly string[]>;
  hits: number;
  misses: number;
}

interface Entry {
  version: number;
  at: number;
  type: string;
  body: string;
}

interface Miss {
  key: string;
  version: number;
  done: () => void;
}

/** Answers kept: the newest first, the least recently used dropped past either bound. */
const MAX_ENTRIES = 2_000;
const MAX_BYTES = 64 * 1024 * 1024;
/**
 * An answer is never older than this: changes arrive through the feed, but some answers also follow the clock (a
 * plan's status by its dates, "this semester").
 */
export const READ_CACHE_MAX_AGE_MS = 60_000;

/**
 * How long a request waits for the same answer another request is computing before it computes its own. On PGlite a
 * waiting request holds one of the request gate's few slots, so this stays short.
 */
const WAIT_MS = 3_000;

/** The auth cache's table: a changed role, membership or session may change any answer. */
const ALWAYS = getTableName(authEpoch);

/**
 * Answers of GET routes that declare `config.readsTables`, kept in process and keyed by the change feed's version of
 * those tables in the caller's tenant organisation's tree (server/lib/change-feed.ts): such a route must read no row
 * of an organisation outside that tree (its ancestors and descendants). Only answers a route has already authorised
 * are served: the hit is checked in `preHandler`, after authentication, the route's permission and its query's
 * validation, so a cached answer reaches only a caller who may read it, and the key holds the caller (user,
 * organisation header, role), the URL and the language. Requests for an answer being computed wait for it instead of
 * computing it again.
 */
export const readCachePlugin = fp(
  async (app) => {
    const entries = new Map<string, Entry>();
    /**
     * The key each request's answer was last kept under, by what the request gate sees before authentication (method,
     * URL, token, organisation and language headers): the gate lets such a request by without a slot. A guess only;
     * what is served is decided by the key in preHandler as for every request.
     */
    const likely = new Map<string, string>();
    const likelyKeyOf = (request: FastifyRequest) =>
      [request.method, request.url, request.headers.authorization ?? '', request.headers.orgid ?? '', request.headers['accept-language'] ?? ''].join('\n');
    const computing = new Map<string, { version: number; ready: Promise<void>; since: number }>();
    let bytes = 0;
    const tableNames = new WeakMap<readonly Table[], string[]>();
    const drop = (key: string) => {
      const e = entries.get(key);
      if (!e) return;
      entries.delete(key);
      bytes -= e.body.length * 2;
    };
    app.changes.onChange((table) => {
      if (table === null) {
        entries.clear();
        bytes = 0;
      }
    });

    const namesOf = (tables: readonly Table[]) => {
      let names = tableNames.get(tables);
      if (!names) tableNames.set(tables, (names = [ALWAYS, ...tables.map((t) => getTableName(t))]));
      return names;
    };
    const info: ReadCacheInfo = { routes: new Map(), hits: 0, misses: 0 };
    app.decorate('readCache', info);
    app.addHook('onRoute', (route) => {
      const tables = route.config?.readsTables;
      // Fastify adds a HEAD route beside each GET one, with the same config.
      if (!tables || route.method === 'HEAD') return;
      if (route.method !== 'GET') {
        throw new Error(`${route.url}: only GET answers are kept (config.readsTables)`);
      }
      (info.routes as Map<string, readonly string[]>).set(route.url, namesOf(tables));
    });
    // A table without the change feed's trigger (migration 0063: the access log) never retires an answer: a route
    // reading it would serve stale answers for up to READ_CACHE_MAX_AGE_MS, so the server refuses to start instead.
    // A database that cannot be reached at start is the readiness check's to report (GET /api/health/ready), not this.
    app.addHook('onReady', async () => {
      const declared = [...new Set([...info.routes.values()].flat())];
      let rows: { relname: string }[];
      try {
        ({ rows } = await app.db.execute<{ relname: string }>(sql`
          select c.relname from pg_class c
          where c.relnamespace = current_schema()::regnamespace and c.relname = any(${sql.param(declared)}::text[])
            and not exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = 'tiyu_changed')`));
      } catch (err) {
        app.log.warn({ err }, 'read cache: the tables of kept answers could not be checked for the change feed');
        return;
      }
      if (rows.length) {
        const routes = [...info.routes].filter(([, names]) => rows.some((r) => names.includes(r.relname))).map(([url]) => url);
        throw new Error(`read cache: ${rows.map((r) => r.relname).join(', ')} has no change-feed trigger, so kept answers of ${routes.join(', ')} would never be retired`);
      }
    });
    const keyOf = (request: FastifyRequest) =>
      [request.routeOptions.url, request.url, request.session?.userId ?? '', request.headers.orgid ?? '', request.scope?.roleId ?? '', request.locale].join('\n');
    const fresh = (e: Entry | undefined, version: number): e is Entry => !!e && e.version === version && app.now().getTime() - e.at < READ_CACHE_MAX_AGE_MS;
    if (app.requestGate) {
      app.requestGate.skip = (request) => {
        if (request.method !== 'GET') return false;
        const key = likely.get(likelyKeyOf(request));
        const e = key === undefined ? undefined : entries.get(key);
        return !!e && app.now().getTime() - e.at < READ_CACHE_MAX_AGE_MS;
      };
    }

    app.decorateRequest('readCacheMiss', null);
    /** Serves the request's answer from memory when it is there and fresh; true when it did. */
    const fromMemory = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
      const tables = request.routeOptions.config.readsTables;
      if (!tables || request.method !== 'GET') return false;
      // Every cached answer is confined to the caller's tenant organisation's tree (architecture rule 4), so only writes
      // there retire it: a result written in another school keeps this school's answers.
      const version = await app.changes.current(namesOf(tables), request.scope?.tenantOrgId ?? null, changesSynced(app, request));
      if (version === null) return false;
      const key = keyOf(request);
      let hit = entries.get(key);
      /** The answer came from a computation under way when the request arrived, not from memory. */
      let shared = false;
      if (!fresh(hit, version)) {
        const pending = computing.get(key);
        const waited = pending ? performance.now() - pending.since : Infinity;
        // A computation that is outdated or has run too long (a stuck request) is not waited for: this request
        // computes the answer and keeps it instead.
        if (pending?.version !== version || waited >= WAIT_MS) {
          let done!: () => void;
          const ready = new Promise<void>((ok) => (done = ok));
          computing.set(key, { version, ready, since: performance.now() });
          info.misses++;
          const miss: Miss = {
            key,
            version,
            done: () => {
              if (computing.get(key)?.ready === ready) computing.delete(key);
              done();
            },
          };
          request.readCacheMiss = miss;
          // Whatever becomes of the request (answered, failed, its client gone), its waiters are let go.
          reply.raw.once('close', miss.done);
          return false;
        }
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([pending.ready, new Promise((ok) => (timer = setTimeout(ok, WAIT_MS - waited)))]);
        clearTimeout(timer);
        hit = entries.get(key);
        shared = true;
        // The answer it waited for failed, is late or is already outdated: compute its own, uncached.
        if (!fresh(hit, version)) return false;
      }
      if (!hit) return false;
      info.hits++;
      entries.delete(key);
      entries.set(key, hit);
      // Benchmarks split what memory answers (hit) from what is computed (miss, or shared: another request's computation
      // waited for; tests/bench/load.ts); it tells a client nothing else.
      reply.header('x-read-cache', shared ? 'shared' : 'hit');
      reply.header('content-type', hit.type);
      void reply.send(hit.body);
      return true;
    };
    app.addHook('preHandler', async (request, reply) => {
      if (await fromMemory(request, reply)) return reply;
      // Let through the request gate on the chance of a kept answer: it has work after all, so it queues for a slot.
      if (request.slotDeferred && app.requestGate && !(await app.requestGate.admit(request))) return reply.code(499).send();
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const miss = request.readCacheMiss;
      if (!miss) return payload;
      request.readCacheMiss = null;
      reply.header('x-read-cache', 'miss');
      if (reply.statusCode === 200 && typeof payload === 'string') {
        drop(miss.key);
        entries.set(miss.key, { version: miss.version, at: app.now().getTime(), type: String(reply.getHeader('content-type') ?? 'application/json'), body: payload });
        if (likely.size >= 4 * MAX_ENTRIES) likely.clear();
        likely.set(likelyKeyOf(request), miss.key);
        bytes += payload.length * 2;
        for (const [key] of entries) {
          if (entries.size <= MAX_ENTRIES && bytes <= MAX_BYTES) break;
          drop(key);
        }
      }
      miss.done();
      return payload;
    });
    // A request that failed before its answer was sent still lets the requests waiting for it go on.
    app.addHook('onResponse', async (request) => {
      request.readCacheMiss?.done();
      request.readCacheMiss = null;
    });
  },
  { name: 'tiyu-read-cache', dependencies: ['tiyu-changes', 'tiyu-auth', 'tiyu-i18n'] },
);
