import { parseArgs } from 'node:util';
import { migrateDb, openDb } from '../db/client';
import { seedDemo } from '../seed/demo';
import { parseEnv } from '../env';
import { simulateInProcess } from './run';

/**
 * `npm run simulate -- --days 14`: a fleet of devices and the demo's app users send N days of records through the
 * device and app APIs (server/simulate/fleet.ts) into the configured database (PGLITE_DIR or DATABASE_URL; a PGlite
 * directory must not be in use by a running server). Seeds the demo first on an empty database.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { days: { type: 'string', default: '14' }, 'per-device-day': { type: 'string', default: '8' }, seed: { type: 'string' } } });
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 90) throw new Error('--days must be a whole number from 1 to 90 (records older than 90 days are refused)');
  const env = parseEnv();
  const handle = await openDb(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR });
  try {
    await migrateDb(handle);
    await seedDemo(handle.db);
    const t0 = performance.now();
    await simulateInProcess(handle.db, env, {
      days,
      perDeviceDay: Number(values['per-device-day']),
      ...(values.seed ? { seed: Number(values.seed) } : {}),
      log: (line) => process.stdout.write(`${line} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`),
    });
  } finally {
    await handle.close();
  }
}

await main();
