/**
 * End-to-end benchmark of the student import (docs/product-rules.md#people-import): a workbook of N students, each with
 * a parent (two children per parent), goes through the HTTP routes (app.inject): the dry run, then the commit, on
 * PGlite (a data directory). Prints beside each other the parse-only time of the same file in the same run (our reader
 * and the header) and the write floor (the same students, parents and links COPYed straight into their tables in one
 * transaction, rolled back, before the import: same indexes and triggers, the per-row foreign-key checks skipped where
 * the role may, as the commit skips them), the dry run, the commit, their sum against parse + write floor (target
 * ≤ 2×; < 3 s at 10,000) and the peak RSS; then the streamed
 * export of every student. Without a row count it also runs 100,000 rows in a child process and prints both peaks.
 * Run: npm run bench -- people [rows=10000] (BENCH_DATA=<seeded pglite dir> copies that database instead of seeding
 * the demo, several minutes on a loaded machine). Asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { STUDENT_COLUMNS } from '@/domain/people/people-import';
import { SKIP_FK_TRIGGERS } from '../../server/db/replication-role';
import { copyLines, withBulkTransaction } from '../../server/modules/physique-results/bulk-session';
import { buildApp } from '../../server/app';
import { migrateDb, openDb } from '../../server/db/client';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed/demo';
import { orgs } from '../../server/db/schema/orgs';
import { classes, grades, parents, schoolYears, semesters, students } from '../../server/db/schema/school';
import { parseEnv } from '../../server/env';
import { sha256Hex } from '../../server/lib/password';
import { writeXlsx } from '../../server/lib/spreadsheet/xlsx-writer';
import { readPeopleFile } from '../../server/modules/people/people-import.service';
import { jobOutcome, jobSettled } from '../support/jobs';

const ROW_ARG = process.argv.slice(2).find((a) => /^\d+$/.test(a));
const ROWS = Number(ROW_ARG ?? 10_000);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;
const line = (label: string, value: string) => console.log(`  ${label.padEnd(46)} ${value}`);

async function peakRss<T>(fn: () => Promise<T>): Promise<{ value: T; peak: number; ms: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  const t0 = performance.now();
  try {
    const value = await fn();
    return { value, ms: performance.now() - t0, peak: Math.max(peak, process.memoryUsage.rss()) };
  } finally {
    clearInterval(timer);
  }
}

function multipart(file: Buffer, fields: Record<string, string>) {
  const boundary = `----bench${randomUUID().replace(/-/g, '')}`;
  const parts = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="students.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  return { payload: Buffer.concat([...parts, head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function main() {
  console.log(`people import benchmark: ${ROWS.toLocaleString('en-US')} students with parents (PGlite)`);
  const dir = await mkdtemp(join(tmpdir(), 'tiyu-bench-people-'));
  if (process.env.BENCH_DATA) cpSync(process.env.BENCH_DATA, join(dir, 'pglite'), { recursive: true });
  const handle = await openDb({ pgliteDir: join(dir, 'pglite') });
  try {
    let t0 = performance.now();
    await migrateDb(handle);
    await seedDemo(handle.db);
    line('database prepared (migrate, demo)', s(performance.now() - t0));
    const db = handle.db;
    const [org] = await db.select({ id: orgs.id }).from(orgs).where(and(eq(orgs.type, ORG_TYPE.k12), sql`${orgs.name} like '%实验学校%'`));
    const classRows = await db
      .select({ id: classes.id, name: classes.name, gradeNo: grades.gradeNo })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(classes.orgId, org.id), eq(grades.graduated, false)));
    const [year] = await db.select({ schoolYearId: schoolYears.id, semesterId: semesters.id }).from(semesters).innerJoin(schoolYears, eq(schoolYears.id, semesters.schoolYearId)).where(eq(schoolYears.orgId, org.id)).limit(1);
    const gradeNames = ['一年级', '二年级', '三年级', '四年级', '五年级', '六年级', '七年级', '八年级', '九年级', '高一', '高二', '高三'];

    t0 = performance.now();
    const rows: unknown[][] = [STUDENT_COLUMNS.map((c) => c.header)];
    const floorStudents: unknown[][] = [];
    const floorParents: unknown[][] = [];
    const floorLinks: unknown[][] = [];
    for (let i = 0; i < ROWS; i++) {
      const c = classRows[i % classRows.length];
      const family = Math.floor(i / 2);
      const studentId = crypto.randomUUID();
      floorStudents.push([studentId, org.id, c.id, '学生' + i, `B${String(i).padStart(10, '0')}`, i % 2 ? 'female' : 'male', '2015-09-01', '01']);
      if (i % 2 === 0) floorParents.push([crypto.randomUUID(), org.id, `13${String(family).padStart(9, '0')}`, `家长${family}`, 'male']);
      floorLinks.push([floorParents.at(-1)![0], studentId, 'father']);
      rows.push(['学生' + i, `B${String(i).padStart(10, '0')}`, '', i % 2 ? '女' : '男', '2015-09-01', '汉族', gradeNames[c.gradeNo - 1], c.name, `家长${family}`, `13${String(family).padStart(9, '0')}`, '父亲', '男']);
    }
    const file = writeXlsx([{ name: '学生', rows, textColumns: [1, 9] }]);
    line('workbook generated (not timed below)', `${s(performance.now() - t0)}  ${(file.length / 1024 / 1024).toFixed(1)} MiB`);

    const parse = await peakRss(() => readPeopleFile({ fileName: 'students.xlsx', buffer: file }, 'student', (k) => k));
    line('parse only (read .xlsx, find the header)', `${s(parse.ms)}  (${parse.value.rows.length.toLocaleString('en-US')} rows)`);
    // The write floor, before the import: rolled back and vacuumed (the import meets no dead keys); the best of two
    // (the first meets a cold cache, which the import's dry run warms for its commit).
    const rollback = new Error('rollback');
    let floorMs = Infinity;
    for (let round = 0; round < 2; round++) {
      await withBulkTransaction(db, async (tx) => {
        const f0 = performance.now();
        await tx.query(SKIP_FK_TRIGGERS);
        await tx.copyIn('students', ['id', 'org_id', 'class_id', 'name', 'reg_no', 'gender', 'birth_date', 'ethnicity'], copyLines(floorStudents, (r) => r));
        await tx.copyIn('parents', ['id', 'org_id', 'mobile', 'name', 'gender'], copyLines(floorParents, (r) => r));
        await tx.copyIn('parent_students', ['parent_id', 'student_id', 'relation'], copyLines(floorLinks, (r) => r));
        floorMs = Math.min(floorMs, performance.now() - f0);
        throw rollback;
      }).catch((error: unknown) => {
        if (error !== rollback) throw error;
      });
      await db.execute(sql`vacuum students, parents, parent_students, student_class_history, dc_roster`);
    }
    line('write floor (COPY students, parents, links)', `${s(floorMs)}  (${floorStudents.length} + ${floorParents.length} + ${floorLinks.length} rows, best of 2, rolled back)`);
    (globalThis as { gc?: () => void }).gc?.();

    const app = await buildApp({ db, env: parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: '1234', WEB_DIST: '/nonexistent' }), rateLimits: { captchaPerMinute: 1000, loginPerMinute: 1000 }, jobWorker: true });
    try {
      const key = `${Date.now()}bench`;
      await app.inject({ url: `/api/code?randomStr=${key}` });
      const login = await app.inject({ method: 'POST', url: '/api/sso/login', payload: { accountNum: 'school01', password: sha256Hex(DEMO_PASSWORD), code: '1234', randomStr: key } });
      const token = login.json<{ data: { access_token: string } }>().data.access_token;
      const auth = { authorization: `bearer ${token}` };
      const run = await peakRss(async () => {
        const body = multipart(file, year);
        const d0 = performance.now();
        const dry = await app.inject({ method: 'POST', url: '/api/busi/web/k12/user/student/import/preview', payload: body.payload, headers: { ...body.headers, ...auth } });
        const dryMs = performance.now() - d0;
        if (dry.statusCode !== 200) throw new Error(`dry run failed: ${dry.statusCode} ${dry.body.slice(0, 300)}`);
        const preview = dry.json<{ data: { importId: string; create: number; rejected: number; parentsCreate: number } }>().data;
        const c0 = performance.now();
        // The commit runs as a job (docs/product-rules.md#jobs): timed to the end of the job and its file's download.
        const started = await app.inject({ method: 'POST', url: `/api/busi/web/k12/user/student/import/${preview.importId}/commit`, headers: auth });
        const done = await jobOutcome((url) => app.inject({ url, headers: auth }), started, 'zh-CN', 600_000, jobSettled(db));
        if (done.statusCode !== 200) throw new Error(`commit failed: ${done.statusCode} ${done.body.slice(0, 300)}`);
        return { dryMs, commitMs: performance.now() - c0, preview };
      });
      const { dryMs, commitMs, preview } = run.value;
      line('dry run (upload, read, check every row)', `${s(dryMs)}  (${preview.create} to create, ${preview.rejected} rejected, ${preview.parentsCreate} parents)`);
      line('commit (write the rows the dry run checked)', s(commitMs));
      line('import end to end (dry run + commit)', `${s(dryMs + commitMs)}  ${(((dryMs + commitMs) / parse.ms) || 0).toFixed(1)}× parse only  (target < 3 s at 10,000)`);
      line('import ÷ (parse + write floor) (target ≤ 2×)', `${((dryMs + commitMs) / (parse.ms + floorMs)).toFixed(2)}×  (floor ${s(parse.ms + floorMs)})`);
      line('peak RSS during the import', mib(run.peak));
      const stored = await db.$count(students, eq(students.orgId, org.id));
      line('students / parents stored in the school', `${stored.toLocaleString('en-US')} / ${(await db.$count(parents, eq(parents.orgId, org.id))).toLocaleString('en-US')}`);
      const exp = await peakRss(() => app.inject({ url: '/api/busi/web/k12/user/student/export', headers: auth }));
      line('export of every student (streamed)', `${s(exp.ms)}  ${(exp.value.rawPayload.length / 1024 / 1024).toFixed(1)} MiB, peak RSS ${mib(exp.peak)}`);
    } finally {
      await app.close();
    }
    if (!ROW_ARG) {
      console.log('\n99,999 students + header, the import row limit (child process, for the memory comparison)');
      const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1], '99999'], { encoding: 'utf8', env: { ...process.env }, maxBuffer: 1 << 24 });
      for (const l of out.split('\n').filter((x) => /parse only|floor|dry run|commit|end to end|÷|peak RSS|export/.test(x))) console.log(l);
    }
  } finally {
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
