import { BASE_PATH } from '@/domain/constants';
import { buildApp } from './app';
import { migrateDb, openDb } from './db/client';
import { DEMO_ACCOUNTS, seedDemo, syncMenus } from './db/seed/demo';
import { seedMeetDocumentsDemo } from './db/seed/meet-documents-demo';
import { createStorage } from './lib/storage/create-storage';
import { parseEnv } from './env';
import { simulateInProcess } from './simulate/run';

/** Starts the server: env → database (migrated, seeded once) → app → listen → graceful close. */
async function main(): Promise<void> {
  const env = parseEnv();
  const handle = await openDb(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR });
  await migrateDb(handle);

  // A fresh database gets the demo; an existing one gets catalogue changes to its menus.
  const seeded = await seedDemo(handle.db);
  if (!seeded) await syncMenus(handle.db);
  // The demo's meet documents (stamps, a template, style photos) are files: they go into the file store the app uses.
  if (seeded) {
    const storage = await createStorage(env);
    await seedMeetDocumentsDemo(handle.db, storage, new Date()).finally(() => storage.close());
  }
  // The demo's activity screens show data that arrived through the ingestion API (server/simulate).
  const simulateDays = env.TIYU_SIMULATE_DAYS ?? (env.NODE_ENV === 'test' ? 0 : 14);
  if (seeded && simulateDays > 0) await simulateInProcess(handle.db, env, { days: simulateDays, log: (line) => process.stdout.write(`${line}\n`) });

  // A read replica (docs/deploy.md): never migrated or seeded here, it follows the primary.
  const replica = env.DATABASE_URL && env.DATABASE_REPLICA_URL ? await openDb({ databaseUrl: env.DATABASE_REPLICA_URL, connectTimeoutMs: 2_000 }) : undefined;
  const app = await buildApp({
    db: handle.db,
    replica: replica?.db,
    env,
    logger: { level: env.LOG_LEVEL },
  });

  // Graceful stop (docs/product-rules.md#health): new requests get 503 (Fastify's return503OnClosing) so a load
  // balancer drains this instance, in-flight ones (an upload part, an import) run to their end within the grace
  // period. Past it the process exits anyway: a tus upload resumes from its last stored part on another instance, and
  // an import or sync left 'running' is marked failed by the next reader (server/modules/test-plan/plan-job-holder.ts).
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
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

  const port = (app.server.address() as { port: number } | null)?.port ?? env.PORT;
  const db = env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${env.PGLITE_DIR}`;
  const lines = [
    '',
    `tiyu is running: http://localhost:${port}${BASE_PATH}/`,
    `database: ${db}${seeded ? ' (demo data seeded now)' : ''}`,
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
