import nodeModule from 'node:module';
import { BASE_PATH } from '@/domain/constants';
import { startPglite } from './db/pglite-start';
import { parseEnv } from './env';
import { DEMO_ACCOUNTS } from './seed/demo-accounts';

/** How long after listening the job worker starts. */
const JOB_WORKER_AFTER_LISTEN_MS = 1_000;

/** Starts the server: env → database (migrated, seeded once) → app → listen → graceful close. */
async function main(): Promise<void> {
  const env = parseEnv();
  // Node ≥ 22.1 keeps the code it compiled for the modules loaded below in its compile cache (os.tmpdir()), so a
  // restart skips compiling them (≈ 0.2 s of a start, docs/decisions/065-built-server.md); Node 20 has no such cache.
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  // PGlite starts on its directory before anything else loads (only it and the directory lock are loaded so far); the
  // database client, the schema and the app's modules (every route and its libraries) load while it opens: on the main
  // thread that load mostly waits for the module loader's thread, which the database's start fills (tests/bench/startup.ts).
  const started = env.DATABASE_URL ? undefined : startPglite({ pgliteDir: env.PGLITE_DIR });
  started?.catch(() => {});
  const clientModule = import('./db/client');
  const appModule = import('./app');
  const menuSyncModule = import('./modules/menus/menu-sync');
  // Awaited below; a failure to load surfaces there, not as an unhandled rejection meanwhile.
  clientModule.catch(() => {});
  appModule.catch(() => {});
  menuSyncModule.catch(() => {});
  // What start is doing, with the time since the process started (module loading included): a first start seeds and
  // simulates for minutes.
  const seconds = () => (performance.now() / 1000).toFixed(1);
  const say = (line: string) => process.stdout.write(`[${seconds().padStart(5)} s] ${line}\n`);
  const where = env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${env.PGLITE_DIR}`;
  say(`opening the database: ${where}`);
  const { migrateDb, openDb, schema, settleDb } = await clientModule;
  let handle = await openDb(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR, started });
  say('applying migrations');
  await migrateDb(handle);

  // A fresh database gets the demo; an existing one gets catalogue changes to its menus.
  // `$count`, not drizzle-orm's `count()`: a dynamic import of drizzle-orm here waited for the app's modules, which load
  // meanwhile, and with it the menus' check below (docs/decisions/065-built-server.md).
  const orgCount = await handle.db.$count(schema.orgs);
  const scope = env.TIYU_DEMO_SEED;
  if (orgCount === 0) say(`new database: seeding the demo district (${scope === 'full' ? 'once; a few minutes' : 'people only'})`);
  // The seed's modules load only on a first start.
  const seeded = orgCount === 0 && (await (await import('./seed/demo')).seedDemo(handle.db, { scope, log: (line) => say(`  seeding ${line}`) }));
  // The menus are compared with the catalogue while the app builds and listens; every request waits for it (buildApp's
  // `startup`), so none reads a menu the catalogue changed.
  let menusSynced: Promise<unknown> | undefined;
  if (!seeded) {
    say('comparing the menus with the catalogue (beside building the app)');
    const db = handle.db;
    const syncing = menuSyncModule.then(({ syncMenus }) => syncMenus(db));
    syncing.catch(() => {});
    menusSynced = syncing;
  }
  // The demo's meet documents (stamps, a template, style photos) are files: they go into the file store the app uses.
  if (seeded && scope === 'full') {
    say('seeding the meet documents (stamps, a certificate template, photos)');
    // First-start-only modules (fonts, images, the simulator) load only on a first start.
    const { seedMeetDocumentsDemo } = await import('./seed/meet-documents-demo');
    const { createStorage } = await import('./lib/storage/create-storage');
    const storage = await createStorage(env);
    const { seedExemptionCertificates } = await import('./seed/exemption-demo');
    await seedMeetDocumentsDemo(handle.db, storage, new Date())
      .then(() => seedExemptionCertificates(handle.db, storage, new Date()))
      .finally(() => storage.close());
  }
  // The demo's activity screens show data that arrived through the ingestion API (server/simulate).
  const simulateDays = scope === 'full' ? (env.TIYU_SIMULATE_DAYS ?? (env.NODE_ENV === 'test' ? 0 : 14)) : 0;
  if (seeded && simulateDays > 0) {
    say(`simulating ${simulateDays} days of device and app records (once; TIYU_SIMULATE_DAYS=0 skips it)`);
    const { simulateInProcess } = await import('./simulate/run');
    await simulateInProcess(handle.db, env, { days: simulateDays, log: (line) => say(`  ${line}`) });
  }
  // What the first start wrote becomes the durable starting point before anything is served (settleDb).
  if (seeded) handle = await settleDb(handle);

  // A read replica (docs/deploy.md): never migrated or seeded here, it follows the primary.
  const replica = env.DATABASE_URL && env.DATABASE_REPLICA_URL ? await openDb({ databaseUrl: env.DATABASE_REPLICA_URL, connectTimeoutMs: 2_000 }) : undefined;
  say('building the app');
  const { buildApp } = await appModule;
  const app = await buildApp({
    db: handle.db,
    replica: replica?.db,
    env,
    logger: { level: env.LOG_LEVEL },
    startup: menusSynced,
  });

  // The TOTP secrets are encrypted with TIYU_SECRET_KEY (server/modules/security/secret-box.ts); without it a key
  // everyone can read protects them, fine for a demo, not for a deployment.
  if (env.NODE_ENV === 'production' && !process.env.TIYU_SECRET_KEY) app.log.warn('TIYU_SECRET_KEY is not set: two-factor secrets are encrypted with the development key (README, "Environment")');

  // Graceful stop (docs/product-rules.md#health): new requests get 503 (Fastify's return503OnClosing) so a load
  // balancer drains this instance, in-flight ones (an upload part, an import) run to their end within the grace
  // period. Past it the process exits anyway: a tus upload resumes from its last stored part on another instance, and
  // an import or sync left 'running' is marked failed by the next reader (server/modules/test-plans/plan-job-holder.ts).
  let closing = false;
  // Set once listening (the job worker's start, below).
  const worker: { start?: NodeJS.Timeout } = {};
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    clearTimeout(worker.start);
    app.log.info({ signal, graceMs: env.SHUTDOWN_GRACE_MS }, 'closing');
    const grace = setTimeout(() => {
      app.log.warn('in-flight requests outlived the grace period; exiting');
      process.exit(1);
    }, env.SHUTDOWN_GRACE_MS);
    grace.unref();
    try {
      await app.close();
    } finally {
      await replica?.close();
      await handle.close();
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));

  try {
    await app.listen({ port: env.PORT, host: env.HOST });
  } catch (err) {
    app.log.error(err);
    await handle.close();
    process.exit(1);
  }
  try {
    await menusSynced;
  } catch (err) {
    app.log.error(err, 'comparing the menus with the catalogue failed');
    await app.close();
    await handle.close();
    process.exit(1);
  }

  // Long work (certificate issuing) runs as jobs: this instance takes its share (docs/decisions/026-job-queue.md), from
  // a second after listening: loading pg-boss and its start's queries, on PGlite's one thread, went before a start's
  // first answer (docs/decisions/065-built-server.md). Queued jobs wait for it; a worker that cannot start stops the server.
  worker.start = setTimeout(() => {
    app.jobs.work().catch(async (err: unknown) => {
      // A stop that came meanwhile closes as it does.
      if (closing) return;
      closing = true;
      app.log.error(err, 'the job worker could not start');
      await app.close().catch(() => {});
      await replica?.close();
      await handle.close();
      process.exit(1);
    });
  }, JOB_WORKER_AFTER_LISTEN_MS);

  const port = (app.server.address() as { port: number } | null)?.port ?? env.PORT;
  const lines = [
    '',
    `tiyu is running: http://localhost:${port}${BASE_PATH}/ (started in ${seconds()} s)`,
    `database: ${where}${seeded ? ' (demo data seeded now)' : ''}`,
    ...(env.TIYU_CAPTCHA_FIXED ? [`captcha: fixed to ${env.TIYU_CAPTCHA_FIXED} (TIYU_CAPTCHA_FIXED)`] : []),
    '',
    'demo accounts:',
    ...DEMO_ACCOUNTS.map((a) => `  ${a.account.padEnd(12)} ${a.password.padEnd(12)} ${a.description}`),
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
