/**
 * Crafted spreadsheets against the score import: each file is uploaded to a server running in a child process while a
 * ping request is sent every 25 ms; prints per file the outcome, the time, the slowest ping and the server's peak RSS.
 * Target: every file refused or finished with pings under 1 s and RSS under 1 GB.
 * Run: npx tsx tests/bench/spreadsheet-crafted.ts   (also part of `npm run bench`; BENCH_PORT picks the port, default
 * any free one). Prints numbers, asserts nothing.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import { NATIONAL_COLUMNS } from '@/domain/physique/national-template';
import { fileNameFromContentDisposition, parseImportCounts } from '@/domain/uploads/import-result';

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

// ---- building packages whose parts may inflate to a gigabyte without ever holding it ----------------------------

interface Part {
  name: string;
  deflated: Buffer;
  crc: number;
  size: number;
}

const smallPart = (name: string, xml: string): Part => {
  const data = Buffer.from(HEAD + xml);
  return { name, deflated: deflateRawSync(data, { level: 9 }), crc: crc32(data), size: data.length };
};

/** A part deflated from generated pieces as they come (a 1 GB part costs one piece of memory at a time). */
async function streamedPart(name: string, pieces: Iterable<Buffer>, level = 6): Promise<Part> {
  const deflate = createDeflateRaw({ level });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  let crc = 0;
  let size = 0;
  for (const piece of [Buffer.from(HEAD), ...pieces]) {
    crc = crc32(piece, crc);
    size += piece.length;
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  if (size > 0xffffffff) throw new Error('part needs zip64');
  return { name, deflated: Buffer.concat(out), crc, size };
}

function zip(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(p.crc, 14);
    local.writeUInt32LE(p.deflated.length, 18);
    local.writeUInt32LE(p.size, 22);
    local.writeUInt16LE(name.length, 26);
    const cen = Buffer.alloc(46);
    cen.writeUInt32LE(0x02014b50, 0);
    cen.writeUInt16LE(20, 4);
    cen.writeUInt16LE(20, 6);
    cen.writeUInt16LE(8, 10);
    cen.writeUInt32LE(p.crc, 16);
    cen.writeUInt32LE(p.deflated.length, 20);
    cen.writeUInt32LE(p.size, 24);
    cen.writeUInt16LE(name.length, 28);
    cen.writeUInt32LE(offset, 42);
    chunks.push(local, name, p.deflated);
    central.push(cen, name);
    offset += 30 + name.length + p.deflated.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, cd, end]);
}

/** A one-sheet workbook: sheet rows from `rows` (streamed), shared strings from `sharedStrings` when given. */
async function workbook(rows: Iterable<Buffer>, sharedStrings?: Iterable<Buffer>): Promise<Buffer> {
  const parts = [
    smallPart(
      '[Content_Types].xml',
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    ),
    smallPart('_rels/.rels', `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    smallPart('xl/workbook.xml', `<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    smallPart(
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>${sharedStrings ? `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : ''}</Relationships>`,
    ),
  ];
  if (sharedStrings) parts.push(await streamedPart('xl/sharedStrings.xml', [Buffer.from(`<sst xmlns="${NS}">`), ...sharedStrings, Buffer.from('</sst>')], 9));
  parts.push(await streamedPart('xl/worksheets/sheet1.xml', [Buffer.from(`<worksheet xmlns="${NS}"><sheetData>`), ...rows, Buffer.from('</sheetData></worksheet>')]));
  return zip(parts);
}

const col = (i: number) => {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};
const headerRow = () =>
  Buffer.from(`<row r="1">${NATIONAL_COLUMNS.map((c, i) => `<c r="${col(i)}1" t="inlineStr"><is><t>${c.header}</t></is></c>`).join('')}</row>`);

/** Rows in pieces of about 1 MB. */
function* rowsOf(count: number, row: (r: number) => string, first = 1): Generator<Buffer> {
  let piece = '';
  for (let r = first; r < first + count; r++) {
    piece += row(r);
    if (piece.length > 1 << 20) {
      yield Buffer.from(piece);
      piece = '';
    }
  }
  if (piece) yield Buffer.from(piece);
}

function* repeat(piece: Buffer, times: number): Generator<Buffer> {
  for (let i = 0; i < times; i++) yield piece;
}

/** A row of the national template that fails validation in every identity column. */
const failingRow = (r: number) =>
  `<row r="${r}"><c r="A${r}"><v>99</v></c><c r="B${r}" t="inlineStr"><is><t>x${r}</t></is></c><c r="D${r}" t="inlineStr"><is><t>G${r}</t></is></c><c r="F${r}" t="inlineStr"><is><t>某${r}</t></is></c><c r="G${r}"><v>9</v></c><c r="J${r}"><v>150.5</v></c><c r="K${r}"><v>40.1</v></c><c r="L${r}"><v>1800</v></c><c r="M${r}"><v>9.1</v></c></row>`;

async function craftedFiles(): Promise<{ label: string; file: Buffer }[]> {
  const si = Buffer.from(`<si><t>${'a'.repeat(1000)}</t></si>`.repeat(1000));
  return [
    { label: 'only cell ZZZZZZ1', file: await workbook([Buffer.from('<row r="1"><c r="ZZZZZZ1"><v>1</v></c></row>')]) },
    { label: 'shared strings bomb (≈1 GB inflated)', file: await workbook([Buffer.from('<row r="1"><c r="A1" t="s"><v>0</v></c></row>')], repeat(si, 1000)) },
    { label: '1,000,000 failing rows', file: await workbook([headerRow(), ...rowsOf(1_000_000, failingRow, 2)]) },
    { label: '20,000 rows, one cell at column ZZZ', file: await workbook(rowsOf(20_000, (r) => `<row r="${r}"><c r="ZZZ${r}"><v>1</v></c></row>`)) },
    { label: '20,000 rows, one cell at column XFD', file: await workbook(rowsOf(20_000, (r) => `<row r="${r}"><c r="XFD${r}"><v>1</v></c></row>`)) },
    { label: '20,000 rows, one cell at column IV (read)', file: await workbook([headerRow(), ...rowsOf(20_000, (r) => `<row r="${r}"><c r="IV${r}"><v>1</v></c></row>`, 2)]) },
    { label: '2,000,000 failing one-cell rows', file: await workbook([headerRow(), ...rowsOf(2_000_000, (r) => `<row r="${r}"><c r="A${r}"><v>11</v></c></row>`, 2)]) },
    { label: '150,000 failing one-cell rows (finished)', file: await workbook([headerRow(), ...rowsOf(150_000, (r) => `<row r="${r}"><c r="A${r}"><v>11</v></c></row>`, 2)]) },
    { label: '&#x110000; in a cell', file: await workbook([headerRow(), Buffer.from('<row r="2"><c r="F2" t="inlineStr"><is><t>&#x110000;</t></is></c></row>')]) },
  ];
}

// ---- the server, in a child process so that its memory and event loop are its own ------------------------------

async function serve(): Promise<void> {
  const { buildApp } = await import('../../server/app');
  const { migrateDb, openDb } = await import('../../server/db/client');
  const { seedDemo, DEMO_PASSWORD } = await import('../../server/seed/demo');
  const { parseEnv } = await import('../../server/env');
  const { sha256Hex } = await import('../../server/lib/password');
  const { createPlan, demoOrgs } = await import('../server/physique-results/physique-fixtures');
  const dir = await mkdtemp(join(tmpdir(), 'tiyu-bench-crafted-'));
  const handle = await openDb({ pgliteDir: join(dir, 'pglite') });
  await migrateDb(handle);
  await seedDemo(handle.db);
  const app = await buildApp({ db: handle.db, env: parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: '1234', WEB_DIST: '/nonexistent' }), rateLimits: { captchaPerMinute: 100_000, loginPerMinute: 1000 } });
  const key = `${Date.now()}bench`;
  await app.inject({ url: `/api/code?randomStr=${key}` });
  const login = await app.inject({ method: 'POST', url: '/api/sso/login', payload: { accountNum: 'school01', password: sha256Hex(DEMO_PASSWORD), code: '1234', randomStr: key } });
  const token = login.json<{ data: { access_token: string } }>().data.access_token;
  const org = await demoOrgs(handle.db);
  const plans: string[] = [];
  for (let i = 0; i < 12; i++) plans.push(await createPlan(handle.db, org.k12));
  const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.BENCH_PORT ?? 0) });
  process.send!({ address, token, plans });
  process.on('message', (m) => {
    if (m === 'gc') global.gc?.();
    if (m === 'stop') void app.close().then(() => handle.close()).then(() => rm(dir, { recursive: true, force: true })).then(() => process.exit(0));
  });
}

function statusKb(pid: number, field: string): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

function multipart(file: Buffer): { body: Buffer; type: string } {
  const boundary = '----tiyubench';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="crafted.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`);
  return { body: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

async function measure(child: ChildProcess, base: string, token: string, planId: string, file: Buffer) {
  const pid = child.pid!;
  child.send('gc');
  await new Promise((r) => setTimeout(r, 300));
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets the peak (VmHWM) to the present RSS
  } catch {
    // not allowed here: the sampled peak below still holds
  }
  const rssBefore = statusKb(pid, 'VmRSS');
  let sampled = rssBefore;
  const sampler = setInterval(() => (sampled = Math.max(sampled, statusKb(pid, 'VmRSS'))), 10);
  let running = true;
  let maxPing = 0;
  let pings = 0;
  const pinger = (async () => {
    while (running) {
      const t0 = performance.now();
      await fetch(`${base}/api/bench-ping`).then((r) => r.arrayBuffer());
      maxPing = Math.max(maxPing, performance.now() - t0);
      pings++;
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  const { body, type } = multipart(file);
  const t0 = performance.now();
  const res = await importThroughJob(base, token, await fetch(`${base}/api/busi/web/k12/organizeTest/testManage/import/${planId}`, { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': type, authorization: `bearer ${token}` } }));
  const payload = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - t0;
  running = false;
  await pinger;
  clearInterval(sampler);
  const peak = Math.max(sampled, statusKb(pid, 'VmHWM'));
  let outcome: string;
  if (res.status === 200) {
    const counts = parseImportCounts(fileNameFromContentDisposition(res.headers.get('content-disposition') ?? '') ?? '');
    outcome = `200 ${counts?.success} imported, ${counts?.failure} failed, failures workbook ${(payload.length / 1024).toFixed(0)} KB`;
  } else outcome = `${res.status} ${(JSON.parse(payload.toString()) as { msg: string }).msg}`;
  // Memory given back: RSS once the collector has run.
  child.send('gc');
  await new Promise((r) => setTimeout(r, 500));
  return { outcome, ms, maxPing, pings, peakMb: peak / 1024, beforeMb: rssBefore / 1024, afterMb: statusKb(pid, 'VmRSS') / 1024 };
}

async function main(): Promise<void> {
  console.log('crafted spreadsheets against the score import (server in a child process, ping every 25 ms)');
  const t0 = performance.now();
  const files = await craftedFiles();
  console.log(`  files built in ${((performance.now() - t0) / 1000).toFixed(1)} s (not timed below)`);
  const child = fork(import.meta.filename, ['--serve'], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ready = await new Promise<{ address: string; token: string; plans: string[] }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { address: string; token: string; plans: string[] }));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  try {
    const pad = (s: string, n: number) => s.padEnd(n);
    console.log(`  ${pad('file', 42)} ${pad('size', 9)} ${pad('time', 8)} ${pad('max ping', 9)} ${pad('peak RSS', 9)} ${pad('RSS after', 10)} outcome`);
    for (const [i, { label, file }] of files.entries()) {
      const r = await measure(child, ready.address, ready.token, ready.plans[i], file);
      const size = file.length > 1 << 20 ? `${(file.length / (1 << 20)).toFixed(1)} MB` : `${(file.length / 1024).toFixed(1)} KB`;
      console.log(
        `  ${pad(label, 42)} ${pad(size, 9)} ${pad(`${(r.ms / 1000).toFixed(2)} s`, 8)} ${pad(`${r.maxPing.toFixed(0)} ms`, 9)} ${pad(`${r.peakMb.toFixed(0)} MB`, 9)} ${pad(`${r.afterMb.toFixed(0)} MB`, 10)} ${r.outcome}`,
      );
    }
  } finally {
    child.send('stop');
    await new Promise((r) => child.once('exit', r));
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();

/**
 * The import runs as a job (docs/product-rules.md#jobs): a refusal at once is the answer; else the job is waited for,
 * and its failures workbook (done) or its message with its status (failed) is the answer, as the request used to be.
 */
async function importThroughJob(base: string, token: string, start: Response): Promise<Response> {
  if (start.status !== 200) return start;
  const { id } = ((await start.json()) as { data: { id: string } }).data;
  const auth = { authorization: `bearer ${token}` };
  for (;;) {
    const job = ((await (await fetch(`${base}/api/busi/web/jobs/${id}`, { headers: auth })).json()) as { data: { state: string; error: string | null; errorStatus?: number } }).data;
    if (job.state === 'done') return fetch(`${base}/api/busi/web/jobs/${id}/download`, { headers: auth });
    if (job.state === 'failed') return new Response(JSON.stringify({ code: String(job.errorStatus ?? 500), data: null, msg: job.error }), { status: job.errorStatus ?? 500 });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
