import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { PGlite } from '@electric-sql/pglite';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { BASE_PATH } from '@/domain/constants';
import { ERR } from '@/domain/errors';
import { driverOf, type Db } from './db/client';
import { parseEnv, type Env } from './env';
import { AppError } from './lib/app-error';
import { AUDIT_SEAL_EVERY_MS, sealAuditChains } from './lib/audit-chain';
import { JobQueue } from './lib/jobs';
import { databaseRateLimitStore } from './lib/shared-limits';
import { createStorage } from './lib/storage/create-storage';
import type { Storage } from './lib/storage/storage';
import { registerModules } from './modules';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './modules/module-options';
import { authPlugin } from './plugins/auth';
import { changesPlugin } from './plugins/changes';
import { dbPlugin } from './plugins/db';
import { requestGatePlugin } from './plugins/request-gate';
import { errorsPlugin } from './plugins/errors';
import { i18nPlugin } from './plugins/i18n';
import { readCachePlugin } from './plugins/read-cache';
import { replicaPlugin } from './plugins/replica';
import { requestInputPlugin } from './plugins/request-input';
import { securityHeadersPlugin } from './plugins/security-headers';
import { hasWebDist, staticWebPlugin } from './plugins/static-web';
import { accessLogPlugin } from './plugins/access-log';
import { tenantPlugin } from './plugins/tenant';

export interface BuildAppOptions {
  db: Db;
  /** Parsed environment; defaults to process.env. */
  env?: Env;
  /** The clock of every expiry rule; tests move it forward to expire tokens, captchas and locks. */
  now?: () => Date;
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  /** Per-IP limits per minute; tests raise them. */
  rateLimits?: Partial<RateLimits>;
  /** Where uploaded files live; defaults to the storage the environment names. Tests pass their own. */
  storage?: Storage;
  /** API requests served at once (server/plugins/request-gate.ts); default PGLITE_REQUEST_SLOTS on PGlite, no limit on PostgreSQL. */
  requestSlots?: number;
  /** Take jobs in this process once built (tests that run jobs; server/main.ts starts it after listen instead). */
  jobWorker?: boolean;
  /** A read replica of `db` (DATABASE_REPLICA_URL); absent on PGlite and on one PostgreSQL. */
  replica?: Db;
  /** Start-up work that runs while the app builds and listens (server/main.ts: the menus against the catalogue): every request waits for it. */
  startup?: Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The job queue (server/lib/jobs.ts): modules define their kinds, routes enqueue. */
    jobs: JobQueue;
  }
}

/** PGlite runs one statement at a time: a few requests at once keep its queue fair (docs/decisions/029-pglite-statements-and-request-gate.md). */
export const PGLITE_REQUEST_SLOTS = 4;

/** Abandoned uploads and unused blobs are swept hourly. */
const FILE_SWEEP_MS = 60 * 60 * 1000;

type ZodCompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/** TRUST_PROXY as Fastify takes it: `true` or the proxies' addresses; nothing trusted when unset. */
function trustProxyOf(value: string | undefined): boolean | string {
  if (!value) return false;
  return value === 'true' ? true : value;
}

const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * Gives every plugin registered on `app` (and on its children, which inherit `register`) its function's name as
 * Fastify's display name. Without one, Fastify looks for the plugin among the exports of every CommonJS module loaded
 * so far (require.cache, hundreds of entries), twice per registration (fastify/lib/plugin-utils.js `getPluginName`):
 * with ≈ 300 registrations that search was a tenth of building the app at start (docs/performance.md, "Server start").
 * Plugins made with fastify-plugin keep the name they declare.
 */
function nameRegisteredPlugins(app: FastifyInstance): void {
  const register = app.register;
  app.register = function (this: FastifyInstance, plugin: unknown, opts?: unknown) {
    if (typeof plugin === 'function' && !Object.hasOwn(plugin, DISPLAY_NAME)) Object.defineProperty(plugin, DISPLAY_NAME, { value: plugin.name || 'anonymous' });
    return (register as (this: FastifyInstance, plugin: unknown, opts?: unknown) => FastifyInstance).call(this, plugin, opts);
  } as FastifyInstance['register'];
}

/** Builds the server (docs/architecture.md): used by main.ts and by every server test. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const env = options.env ?? parseEnv();
  const logger = options.logger ?? false;
  // Set once the instance exists; framework errors only happen while it serves requests.
  const built: { app?: FastifyInstance } = {};
  const app = Fastify({
    ...(typeof logger === 'object' && 'child' in logger ? { loggerInstance: logger } : { logger }),
    // Request ids from the web client's `requestId` header make a browser report traceable in the log.
    requestIdHeader: 'requestid',
    // Behind nginx the client is X-Forwarded-For's, for rate limits and sign-in logs (docs/deploy.md).
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    // A URL that cannot be decoded (`/api/%E0%A4%A`) goes through the error handler like any other bad request.
    frameworkErrors: (error, request, reply) => built.app?.errorHandler(error, request as FastifyRequest, reply as FastifyReply),
    // Every route validates and serializes with zod: given here, Fastify never loads its default compilers (ajv,
    // fast-json-stringify) at start (docs/performance.md, "Server start").
    // The factories' types are ajv's and fast-json-stringify's; the zod compilers stand in for them (cast once here).
    schemaController: { compilersFactory: { buildValidator: () => validatorCompiler, buildSerializer: () => serializerCompiler } as unknown as ZodCompilersFactory },
    // No HEAD twin for every GET: the API's clients (the console, the apps) never send HEAD, and the twins were a third
    // of the ≈ 1,650 routes a start registers (docs/performance.md, "Server start"). Routes a probe or a browser may
    // ask with HEAD say so (`exposeHeadRoute`: health, the redirects; the static files and tus uploads declare HEAD).
    exposeHeadRoutes: false,
    // No per-plugin timer: every route Fastify registers is an avvio `after` step, and with a timeout each one sets and
    // clears a 10 s timer (≈ 3,200 a start; decision 065). A plugin that never finished would hang the start instead of
    // failing it after 10 s; none of ours waits on anything the migrations' check before it did not already wait on.
    pluginTimeout: 0,
  }).withTypeProvider<ZodTypeProvider>();
  built.app = app;
  nameRegisteredPlugins(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const { startup } = options;
  if (startup)
    app.addHook('onRequest', async () => {
      await startup;
    });

  await app.register(dbPlugin, { db: options.db, now: options.now ?? (() => new Date()) });
  const slots = options.requestSlots ?? (driverOf(options.db) instanceof PGlite ? PGLITE_REQUEST_SLOTS : undefined);
  if (slots) await app.register(requestGatePlugin, { slots });
  await app.register(i18nPlugin);
  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(requestInputPlugin);
  await app.register(changesPlugin);
  await app.register(authPlugin);
  await app.register(tenantPlugin);
  await app.register(accessLogPlugin);
  await app.register(readCachePlugin);
  await app.register(replicaPlugin, { replica: options.replica });
  // Only routes that opt in (captcha, sign-in) are limited.
  await app.register(rateLimit, {
    global: false,
    // Counted in the database, so every instance on it allows the limit once (server/lib/shared-limits.ts).
    store: databaseRateLimitStore(options.db),
    // A database that cannot count cannot sign anyone in either: the request goes on and fails with its own error
    // instead of every limited route answering 500 for the counter.
    skipOnError: true,
    errorResponseBuilder: () => new AppError(429, ERR.tooManyRequests),
  });

  const jobQueue = new JobQueue({ db: options.db, now: app.now, i18n: app.i18n, log: app.log, expireSeconds: env.TIYU_JOB_EXPIRE_SECONDS, heartbeatSeconds: env.TIYU_JOB_HEARTBEAT_SECONDS, pollSeconds: env.TIYU_JOB_POLL_SECONDS, readFresh: (read) => app.readWith(null, read) });
  app.decorate('jobs', jobQueue);
  app.addHook('onClose', () => jobQueue.stop());

  const storage = options.storage ?? (await createStorage(env));
  if (!options.storage) app.addHook('onClose', () => storage.close());
  await registerModules(app, {
    limits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    captchaFixed: env.TIYU_CAPTCHA_FIXED,
    storage,
    // An injected storage belongs to a test, which sweeps by hand with its own clock.
    fileSweepEveryMs: options.storage ? 0 : FILE_SWEEP_MS,
    heartRateRawDays: env.TIYU_HEART_RATE_RAW_DAYS,
  });

  app.get('/', { exposeHeadRoute: true }, (_request, reply) => reply.redirect(`${BASE_PATH}/`));
  if (hasWebDist(env.WEB_DIST)) {
    app.get(BASE_PATH, { exposeHeadRoute: true }, (_request, reply) => reply.redirect(`${BASE_PATH}/`));
    await app.register(staticWebPlugin, { prefix: BASE_PATH, root: env.WEB_DIST });
  }

  if (options.jobWorker) {
    // New operation-log rows join their organisation's hash chain within seconds (docs/decisions/050-audit-hash-chain.md);
    // the instances that work jobs take turns (the sealer's lock).
    let sealing: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      sealing = sealAuditChains(options.db).catch((err: unknown) => app.log.error({ err }, 'audit log seal'));
    }, AUDIT_SEAL_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await sealing;
    });
  }

  await app.ready();
  if (options.jobWorker) await jobQueue.work();
  return app;
}
