/**
 * Sustained ingestion through the device API (docs/product-rules.md#ingest) on PGlite: N batches of 1,000 records
 * (default 20) posted through the HTTP route (app.inject: authentication, validation, per-record checks, one
 * transaction per batch, the answer), then the same batches again (every record a duplicate), and beside them a plain
 * COPY of the same rows into activity_records: the floor. Prints records/s and µs per record of each (target ≥ 10,000
 * records/s for new records). Run: npm run bench -- ingest [batches=20]. Asserts nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, isNotNull } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { buildApp } from '../../server/app';
import { migrateDb, openDb, type Db } from '../../server/db/client';
import { orgs } from '../../server/db/schema/orgs';
import { students } from '../../server/db/schema/school';
import { devices } from '../../server/db/schema/venue';
import { seedDemo } from '../../server/db/seed/demo';
import { parseEnv } from '../../server/env';
import { hashSecret } from '../../server/lib/tokens';
import { copyLines, withBulkTransaction } from '../../server/modules/physique/bulk-session';

const BATCHES = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 20);
const PER_BATCH = 1000;
const line = (label: string, value: string) => console.log(`  ${label.padEnd(52)} ${value}`);
const rate = (n: number, ms: number) => `${Math.round((n / ms) * 1000).toLocaleString('en-US')} records/s  ${((ms * 1000) / n).toFixed(1)} µs/record  (${(ms / 1000).toFixed(2)} s)`;
const ITEMS = ['ropeFree', 'running', 'jumpingJack', 'plank'] as const;

async function main() {
  console.log(`ingest benchmark: ${BATCHES} batches × ${PER_BATCH} records (PGlite)`);
  const dir = await mkdtemp(join(tmpdir(), 'tiyu-bench-ingest-'));
  const handle = await openDb({ pgliteDir: join(dir, 'pglite') });
  try {
    await migrateDb(handle);
    await seedDemo(handle.db);
    const db: Db = handle.db;
    const [org] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).limit(1);
    const [device] = await db.select().from(devices).where(and(eq(devices.orgId, org.id), isNotNull(devices.activatedAt))).limit(1);
    await db.update(devices).set({ secretHash: hashSecret('bench-secret'), status: 'online' }).where(eq(devices.id, device.id));
    const roster = await db.select({ id: students.id, classId: students.classId }).from(students).where(and(eq(students.orgId, org.id), eq(students.status, 'studying'), eq(students.enabled, true)));
    const now = Date.now();
    const batches = Array.from({ length: BATCHES }, (_, b) =>
      Array.from({ length: PER_BATCH }, (_, i) => {
        const n = b * PER_BATCH + i;
        const item = ITEMS[n % ITEMS.length];
        return { clientId: `bench-${n}`, studentId: roster[n % roster.length].id, kind: 'exercise', item, value: 10 + (n % 500), measuredAt: new Date(now - (n % 5000) * 60_000).toISOString() };
      }),
    );
    const app = await buildApp({ db, env: parseEnv({ NODE_ENV: 'test', WEB_DIST: '/nonexistent' }) });
    const authorization = `Basic ${Buffer.from(`${device.serialNo}:bench-secret`).toString('base64')}`;
    const post = async (records: unknown[]) => {
      const res = await app.inject({ method: 'POST', url: '/api/v1/device/records', headers: { authorization }, payload: { records } });
      if (res.statusCode !== 200) throw new Error(`batch failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res.json<{ data: { accepted: number; duplicate: number } }>().data;
    };
    try {
      await post([{ ...batches[0][0], clientId: 'warm-up' }]);
      let t0 = performance.now();
      let accepted = 0;
      for (const b of batches) accepted += (await post(b)).accepted;
      const firstMs = performance.now() - t0;
      line(`new records through POST /api/v1/device/records`, `${rate(accepted, firstMs)}  (target ≥ 10,000/s)`);

      t0 = performance.now();
      let duplicate = 0;
      for (const b of batches) duplicate += (await post(b)).duplicate;
      line('the same batches resent (all duplicates)', rate(duplicate, performance.now() - t0));

      // Floor: the same rows as plain COPY text into the table (no checks, no HTTP), with fresh client ids.
      const columns = ['org_id', 'student_id', 'class_id', 'kind', 'item', 'value', 'measured_at', 'source', 'device_id', 'client_id'];
      const classOf = new Map(roster.map((s) => [s.id, s.classId]));
      const rows = batches.flat();
      t0 = performance.now();
      for (let b = 0; b < BATCHES; b++) {
        const part = rows.slice(b * PER_BATCH, (b + 1) * PER_BATCH);
        await withBulkTransaction(db, (session) =>
          session.copyIn(
            'activity_records',
            columns,
            copyLines(part, (r) => [org.id, r.studentId, classOf.get(r.studentId), 'exercise', r.item, r.value, r.measuredAt, 'device', device.id, `copy-${r.clientId}`]),
          ),
        );
      }
      const copyMs = performance.now() - t0;
      line('floor: COPY of the same rows, one transaction per 1,000', rate(rows.length, copyMs));
      line('API ÷ floor (per record)', `${(firstMs / copyMs).toFixed(1)}×`);
    } finally {
      await app.close();
    }
  } finally {
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
