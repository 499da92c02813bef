import { parseArgs } from 'node:util';
import { migrateDb, openDb } from '../db/client';
import { seedDemo } from '../seed/demo';
import { parseEnv } from '../env';
import { simulateInProcess } from './run';

/**
 * `npm run simulate -- --days 14`: a fleet of devices and the demo's app users send N days of records through the
 * device and app APIs (server/simulate/fleet.ts), and the demo schools' heart-rate hubs the lessons of the last
 * `--heart-rate-days` school days (server/simulate/heart-rate-fleet.ts), into the configured database (PGLITE_DIR or
 * DATABASE_URL; a PGlite directory must not be in use by a running server). Seeds the demo first on an empty database.
 *
 * `npm run simulate -- --live-lesson --url http://127.0.0.1:8080 --serial TY21HUB1 --secret <the hub's secret>`: keeps
 * one heart-rate lesson in progress on a running server (server/simulate/live.ts) until stopped (Ctrl-C); with
 * `--alerts-in 30` its danger run and silent band begin 30 s after it joins, so both alerts come within two minutes.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      days: { type: 'string', default: '14' },
      'per-device-day': { type: 'string', default: '8' },
      'heart-rate-days': { type: 'string', default: '3' },
      seed: { type: 'string' },
      'live-lesson': { type: 'boolean', default: false },
      url: { type: 'string' },
      serial: { type: 'string' },
      secret: { type: 'string' },
      class: { type: 'string' },
      minutes: { type: 'string', default: '40' },
      backfill: { type: 'string', default: '12' },
      age: { type: 'string', default: '13' },
      'alerts-in': { type: 'string' },
    },
  });
  if (values['live-lesson']) {
    const { runLive } = await import('./live');
    if (!values.url || !values.serial || !values.secret) throw new Error('--live-lesson needs --url, --serial and --secret (issue the hub’s secret on the device screen)');
    const alertsIn = values['alerts-in'] === undefined ? undefined : Number(values['alerts-in']);
    if (alertsIn !== undefined && !(Number.isInteger(alertsIn) && alertsIn >= 0)) throw new Error('--alerts-in must be a whole number of seconds from 0');
    await runLive({
      url: values.url,
      credentials: { serialNo: values.serial, secret: values.secret },
      className: values.class,
      minutes: Number(values.minutes),
      backfillMinutes: Number(values.backfill),
      age: Number(values.age),
      alertsIn,
      ...(values.seed ? { seed: Number(values.seed) } : {}),
    });
    return;
  }
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 90) throw new Error('--days must be a whole number from 1 to 90 (records older than 90 days are refused)');
  const heartRateDays = Number(values['heart-rate-days']);
  if (!Number.isInteger(heartRateDays) || heartRateDays < 0 || heartRateDays > 30) throw new Error('--heart-rate-days must be a whole number from 0 to 30');
  const env = parseEnv();
  const handle = await openDb(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR });
  try {
    await migrateDb(handle);
    await seedDemo(handle.db);
    const t0 = performance.now();
    await simulateInProcess(handle.db, env, {
      days,
      heartRateDays,
      perDeviceDay: Number(values['per-device-day']),
      ...(values.seed ? { seed: Number(values.seed) } : {}),
      log: (line) => process.stdout.write(`${line} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`),
    });
  } finally {
    await handle.close();
  }
}

await main();
