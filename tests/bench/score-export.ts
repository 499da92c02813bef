/**
 * Score export (organizeTest/scoreSearch/export, a job, docs/product-rules.md#physique-results: score search) through the API on a demo database
 * (PGlite), beside its floor in the same run: the same rows read in one query and written with the same streaming
 * writer from memory (the writer alone). Target: export ≤ 1.5× the floor, memory flat (the export streams a batch of
 * rows at a time), and the whole-workbook write the export did before. Prints time, rows and the peak RSS growth of
 * each (run with node --expose-gc for steadier memory figures); asserts nothing.
 * Run: npx tsx tests/bench/score-export.ts   (BENCH_DATA=<seeded pglite dir> copies that database instead of seeding).
 */
import { cpSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { scoreExportColumns } from '@/domain/physique-results/export-layout';
import { buildApp } from '../../server/app';
import { migrateDb, openDb } from '../../server/db/client';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed/demo';
import { orgs } from '../../server/db/schema/orgs';
import { physiqueResults } from '../../server/db/schema/physique';
import { parseEnv } from '../../server/env';
import { createI18n } from '../../server/plugins/i18n';
import { sha256Hex } from '../../server/lib/password';
import { xlsxStream } from '../../server/lib/spreadsheet/xlsx-stream';
import { writeXlsx } from '../../server/lib/spreadsheet/xlsx-writer';
import { orderedResults } from '../../server/modules/physique-results/physique-results.service';
import { toExportRow } from '../../server/modules/physique-results/physique-results.sql';

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;

/** Time and peak RSS growth (sampled every 20 ms) of `fn`. */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; rssGrowth: number }> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  try {
    const value = await fn();
    return { value, ms: performance.now() - t0, rssGrowth: Math.max(peak, process.memoryUsage().rss) - before };
  } finally {
    clearInterval(timer);
  }
}

async function drain(stream: Readable): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream) bytes += (chunk as Buffer).length;
  return bytes;
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'tiyu-export-bench-'));
  if (process.env.BENCH_DATA) cpSync(process.env.BENCH_DATA, join(dir, 'pglite'), { recursive: true });
  const handle = await openDb({ pgliteDir: join(dir, 'pglite') });
  const app = await buildApp({ db: handle.db, env: parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: '1234', WEB_DIST: '/nonexistent' }), rateLimits: { captchaPerMinute: 1000, loginPerMinute: 1000 }, jobWorker: true });
  try {
    await migrateDb(handle);
    await seedDemo(handle.db);
    const [school] = await handle.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12));
    const key = `${Date.now()}bench`;
    await app.inject({ url: `/api/code?randomStr=${key}` });
    const login = await app.inject({ method: 'POST', url: '/api/sso/login', payload: { accountNum: 'school01', password: sha256Hex(DEMO_PASSWORD), code: '1234', randomStr: key } });
    const authorization = `bearer ${login.json<{ data: { access_token: string } }>().data.access_token}`;

    // Through the API: filters, the groups of the list, batches read and written as they stream out. Once to warm up
    // (module code, the database's caches), then measured after the floor and after the whole-workbook write.
    const exportApi = () =>
      measured(async () => {
        // A job (docs/product-rules.md#jobs): started, waited for, its file downloaded.
        const start = await app.inject({ method: 'POST', url: '/api/busi/web/k12/organizeTest/scoreSearch/export', headers: { authorization }, payload: {} });
        if (start.statusCode !== 200) throw new Error(`export failed: ${start.statusCode} ${start.body.slice(0, 200)}`);
        const { id } = start.json<{ data: { id: string } }>().data;
        for (;;) {
          const { state, error } = (await app.inject({ url: `/api/busi/web/jobs/${id}`, headers: { authorization } })).json<{ data: { state: string; error: string | null } }>().data;
          if (state === 'failed') throw new Error(`export failed: ${error}`);
          if (state === 'done') break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const res = await app.inject({ url: `/api/busi/web/jobs/${id}/download`, headers: { authorization } });
        return res.rawPayload.length;
      });

    await exportApi();
    // Floor: the same school's rows read in one query, laid out, and written by the same writer from memory.
    const i18n = createI18n();
    const t = (k: string, o?: Record<string, unknown>) => i18n.t(k, { lng: 'zh_cn', ...o });
    const floor = await measured(async () => {
      const rows = await orderedResults(handle.db, eq(physiqueResults.orgId, school.id));
      const columns = scoreExportColumns(t);
      const cells = rows.map((r) => {
        const row = toExportRow(r);
        return columns.map((c) => c.value(row));
      });
      async function* one() {
        yield cells;
      }
      const bytes = await drain(xlsxStream('floor', columns.map((c) => ({ header: c.header, width: c.width, text: c.text })), one()));
      return { rows: rows.length, bytes };
    });

    // What the export did before: every row in memory, then the whole workbook built at once (writeXlsx).
    const whole = await measured(async () => {
      const rows = await orderedResults(handle.db, eq(physiqueResults.orgId, school.id));
      const columns = scoreExportColumns(t);
      const sheet = [columns.map((c) => c.header), ...rows.map((r) => columns.map((c) => c.value(toExportRow(r))))];
      return writeXlsx([{ name: 'whole', rows: sheet, columnWidths: columns.map((c) => c.width), textColumns: columns.flatMap((c, i) => (c.text ? [i] : [])) }]).length;
    });
    const api = await exportApi();

    console.log(`score export, PGlite demo database: ${floor.value.rows.toLocaleString('en-US')} rows of the school`);
    console.log(`  through the API (streamed): ${(api.ms / 1000).toFixed(2)} s, ${(api.value / 1024).toFixed(0)} KiB, RSS growth ${mib(api.rssGrowth)}`);
    console.log(`  floor (one query, the writer alone from memory): ${(floor.ms / 1000).toFixed(2)} s, ${(floor.value.bytes / 1024).toFixed(0)} KiB, RSS growth ${mib(floor.rssGrowth)}`);
    console.log(`  the whole workbook at once (as before): ${(whole.ms / 1000).toFixed(2)} s, RSS growth ${mib(whole.rssGrowth)}`);
    console.log(`  ratio ${(api.ms / floor.ms).toFixed(2)}× (target ≤ 1.5×)`);
  } finally {
    await app.close();
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
