/**
 * The cluster test (`npm run test:cluster`, docs/deploy.md shape 3): on loopback, a PostgreSQL primary and a streaming
 * replica (Debian's PostgreSQL, run as the postgres user when we are root), two app instances, nginx in front (Debian's
 * package) and the S3-compatible store the file tests use (s3rver). Ports 8300-8309 and 54400-54409.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startS3 } from '../server/files/s3-server';
import { mp4 } from '../server/files/fixtures';
import { writeXlsx } from '../../server/lib/spreadsheet/xlsx-writer';
import { EXPORT_APPROVAL_ROWS } from '../../src/domain/security/settings';

const PGBIN = join('/usr/lib/postgresql', readdirSync('/usr/lib/postgresql').sort().at(-1)!, 'bin');
const PRIMARY = 54400, REPLICA = 54401, PROXY = 8300, A = 8301, B = 8302;
const dir = mkdtempSync(join(tmpdir(), 'tiyu-cluster-'));
const root = process.getuid?.() === 0;
const asPg = (cmd: string) => execFileSync(root ? 'su' : 'bash', root ? ['postgres', '-s', '/bin/bash', '-c', cmd] : ['-c', cmd], { stdio: 'pipe' }).toString();
const psql = (port: number, q: string) => asPg(`${PGBIN}/psql -h 127.0.0.1 -p ${port} -U postgres -d postgres -At -c "${q}"`).trim();
const url = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;
const children: ChildProcess[] = [];
const killGroup = (c: ChildProcess) => {
  try {
    if (c.pid) process.kill(-c.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
};
process.on('exit', () => children.forEach(killGroup));
/** Stops a server at once: SIGKILL is a crash (the replica test), SIGQUIT PostgreSQL's immediate shutdown. */
const killPostmaster = (name: string, signal: NodeJS.Signals = 'SIGKILL') => process.kill(Number(readFileSync(`${dir}/${name}/postmaster.pid`, 'utf8').split('\n')[0]), signal);
const logs: Record<string, string> = { A: '', B: '' };
const apps: Partial<Record<'A' | 'B', ChildProcess>> = {};

function startApp(name: 'A' | 'B', port: number, s3: string): ChildProcess {
  const child = spawn('node_modules/.bin/tsx', ['server/main.ts'], {
    env: {
      ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', TIYU_CAPTCHA_FIXED: '1234', LOG_LEVEL: 'warn',
      DATABASE_URL: url(PRIMARY), DATABASE_REPLICA_URL: url(REPLICA), TRUST_PROXY: '127.0.0.1', S3_BUCKET: 'tiyu', S3_ENDPOINT: s3,
      S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', WEB_DIST: '/nonexistent', TIYU_SIMULATE_DAYS: '0',
      // A job whose instance dies is taken again after this (the kill -9 test), not after 15 minutes; longer than a
      // score export takes on a loaded machine, or a live job would be expired and run twice.
      TIYU_JOB_EXPIRE_SECONDS: '30',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own: tsx runs the server in a child process, nginx its workers; the group is killed as one.
    detached: true,
  });
  child.stdout!.on('data', (d) => (logs[name] += String(d)));
  child.stderr!.on('data', (d) => (logs[name] += String(d)));
  children.push(child);
  return child;
}

async function ready(port: number, ms = 240_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health/ready`)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`instance on ${port} not ready:\n${logs.A}\n${logs.B}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
async function call(port: number, path: string, init: RequestInit & { token?: string; cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `bearer ${init.token}`);
  if (init.cookie) headers.set('cookie', init.cookie);
  if (init.body && typeof init.body === 'string') headers.set('content-type', 'application/json');
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { ...init, headers });
  return res;
}
async function login(port: number, account: string, password = 'Tiyu@2026', ip = '127.0.0.9') {
  const key = `${Date.now()}${randomBytes(4).toString('hex')}`;
  await call(port, `/api/code?randomStr=${key}`, { headers: { 'x-forwarded-for': ip } });
  return call(port, '/api/sso/login', { method: 'POST', headers: { 'x-forwarded-for': ip }, body: JSON.stringify({ accountNum: account, password: sha(password), code: '1234', randomStr: key }) });
}

/** Polls a job on one instance until it is done or failed. */
async function jobDone(port: number, token: string, id: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const job = (await (await call(port, `/api/busi/web/jobs/${id}`, { token })).json()).data;
    if (job.state === 'done' || job.state === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('tiyu on a cluster', { timeout: 600_000 }, () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  before(async () => {
    chmodSync(dir, 0o755);
    if (root) chownSync(dir, (Number(execFileSync('id', ['-u', 'postgres']).toString())), Number(execFileSync('id', ['-g', 'postgres']).toString()));
    asPg(`${PGBIN}/initdb -D ${dir}/primary -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null`);
    asPg(`${PGBIN}/pg_ctl -D ${dir}/primary -o '-p ${PRIMARY} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off' -l ${dir}/primary.log -w start >/dev/null`);
    asPg(`${PGBIN}/pg_basebackup -h 127.0.0.1 -p ${PRIMARY} -U postgres -D ${dir}/replica -R -X stream`);
    // Every statement in the replica's log: the export test looks there for the job's reads.
    asPg(`${PGBIN}/pg_ctl -D ${dir}/replica -o '-p ${REPLICA} -k ${dir} -c listen_addresses=127.0.0.1 -c log_statement=all' -l ${dir}/replica.log -w start >/dev/null`);
    s3 = await startS3('tiyu');
    // A migrates and seeds first; B starts on the ready database.
    apps.A = startApp('A', A, s3.endpoint);
    await ready(A);
    apps.B = startApp('B', B, s3.endpoint);
    await ready(B);
    writeFileSync(`${dir}/nginx.conf`, `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/nginx.err warn; events {}
http { access_log off; client_body_temp_path ${dir}; proxy_temp_path ${dir};
  upstream tiyu { server 127.0.0.1:${A}; server 127.0.0.1:${B}; }
  server { listen 127.0.0.1:${PROXY}; client_max_body_size 0;
    location / { proxy_pass http://tiyu; proxy_request_buffering off; proxy_set_header X-Forwarded-For $remote_addr; proxy_set_header Host $host; } } }`);
    const nginx = spawn('nginx', ['-c', `${dir}/nginx.conf`, '-p', dir], { stdio: 'inherit', detached: true });
    children.push(nginx);
    await ready(PROXY, 10_000);
  });
  after(async () => {
    for (const c of children.reverse()) killGroup(c);
    await s3?.stop();
    for (const d of ['replica', 'primary']) {
      try {
        killPostmaster(d, 'SIGQUIT');
      } catch {
        // Already stopped (the replica test kills it).
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('a write through A is read through B at once; a user reads their own write while the replica lags', async () => {
    const res = await login(A, 'district01');
    assert.equal(res.status, 200);
    const token = (await res.json()).data.access_token as string;
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    const list = async (port: number, c?: string) => (await (await call(port, '/api/busi/web/admin/user/page?size=50', { token, cookie: c })).json()).data;
    const before = await list(B, cookie);
    psql(REPLICA, 'select pg_wal_replay_pause()');
    try {
      const name = `集群${Date.now() % 100000}`;
      const created = await call(A, '/api/busi/web/admin/user', { method: 'POST', token, body: JSON.stringify({ name, accountNum: `cl${Date.now() % 1e8}`, mobile: '', roleId: before.records.find((r: { roleId?: string }) => r.roleId)?.roleId, enabled: true, password: 'Start123' }) });
      const wrote = created.headers.get('set-cookie')?.split(';')[0];
      assert.ok(created.status < 300, await created.clone().text());
      assert.ok(wrote?.startsWith('tiyu_wlsn='));
      // The replica is paused: B still shows the user's own write (it waits, then reads from the primary).
      const after = await list(B, wrote);
      assert.equal(after.total, before.total + 1);
      assert.match(logs.B, /read replica unusable/);
    } finally {
      psql(REPLICA, 'select pg_wal_replay_resume()');
    }
  });

  it('a tus upload started on A resumes on B', async () => {
    const res = await login(A, 'school01', 'Tiyu@2026', '10.5.0.1');
    const token = (await res.json()).data.access_token as string;
    const video = mp4(300_000);
    const meta = `purpose ${Buffer.from('lessonVideo').toString('base64')},filename ${Buffer.from('a.mp4').toString('base64')}`;
    const created = await call(A, '/api/uc/oss/files/tus', { method: 'POST', token, headers: { 'tus-resumable': '1.0.0', 'upload-length': String(video.length), 'upload-metadata': meta } });
    assert.equal(created.status, 201);
    const location = created.headers.get('location')!;
    const part = (port: number, offset: number, bytes: Buffer) =>
      call(port, location, { method: 'PATCH', token, headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, body: bytes });
    assert.equal((await part(A, 0, video.subarray(0, 150_000))).status, 204);
    const head = await call(B, location, { method: 'HEAD', token, headers: { 'tus-resumable': '1.0.0' } });
    assert.equal(head.headers.get('upload-offset'), '150000');
    const last = await part(B, 150_000, video.subarray(150_000));
    assert.equal(last.status, 200, await last.clone().text());
  });

  it('the change feed retires cached answers on both instances', async () => {
    const res = await login(A, 'school01', 'Tiyu@2026', '10.7.0.1');
    const token = (await res.json()).data.access_token as string;
    const LIST = '/api/busi/web/k12/organizeTest/scoreSearch/page?size=20';
    type ScorePage = { records: { id: string; invalid: boolean }[]; summary: { valid: number } };
    const list = async (port: number): Promise<ScorePage> => (await (await call(port, LIST, { token })).json()).data;
    // Twice on each instance: the second answer comes from its read cache.
    const before = await list(A);
    await list(A);
    await list(B);
    assert.deepEqual(await list(B), before);
    const victim = before.records.find((r) => !r.invalid)!;
    // Another connection writes (a script, another instance): both caches must let the answer go.
    psql(PRIMARY, `update physique_results set invalid = true, invalid_at = now() where id = '${victim.id}'`);
    for (const port of [A, B]) {
      const after = await list(port);
      assert.equal(after.summary.valid, before.summary.valid - 1, `instance on ${port}`);
    }
  });

  it('the score export job reads the replica when it is as fresh as the primary', async () => {
    const res = await login(B, 'school01', 'Tiyu@2026', '10.8.0.1');
    const token = (await res.json()).data.access_token as string;
    // A whole school's scores are above the export approval threshold (docs/product-rules.md#personal-data-access):
    // the school's administrator raises it first, so the export runs as a job.
    const settingsUrl = '/api/busi/web/k12/system/security';
    const current = (await (await call(B, settingsUrl, { token })).json()).data as Record<string, unknown>;
    const saved = await call(B, settingsUrl, { method: 'PUT', token, body: JSON.stringify({ ...current, exportApprovalRows: EXPORT_APPROVAL_ROWS.max }) });
    assert.equal(saved.status, 200, await saved.clone().text());
    const logged = readFileSync(`${dir}/replica.log`, 'utf8').length;
    const started = await call(B, '/api/busi/web/k12/organizeTest/scoreSearch/export', { method: 'POST', token, body: '{}' });
    assert.equal(started.status, 200, await started.clone().text());
    const job = await jobDone(B, token, (await started.json()).data.id);
    assert.equal(job.state, 'done', job.error);
    assert.ok(job.result.counts.rows > 0);
    // The rows were read on the replica (its log holds the job's select of the scores), not only on the primary.
    assert.match(readFileSync(`${dir}/replica.log`, 'utf8').slice(logged), /physique_results/);
  });

  it('the replica stopped: reads continue', async () => {
    const res = await login(PROXY, 'district01', 'Tiyu@2026', '10.6.0.1');
    const token = (await res.json()).data.access_token as string;
    killPostmaster('replica');
    for (let i = 0; i < 6; i++) {
      const r = await call(PROXY, '/api/busi/web/admin/user/page?size=50', { token });
      assert.equal(r.status, 200);
    }
  });
  it('the rate limit and the sign-in lockout hold across A and B', async () => {
    // Every call comes from 127.0.0.1 (no trusted proxy), one client for the limits: 30 captchas a minute in all.
    const ip = '10.1.2.3';
    let limited = 0;
    for (let i = 0; i < 34; i++) {
      const r = await call(i % 2 ? A : B, `/api/code?randomStr=${Date.now()}${i}`, { headers: { 'x-forwarded-for': ip } });
      if (r.status === 429) limited++;
    }
    assert.ok(limited >= 4, `30 a minute across both instances: ${limited} of 34 refused`);
    for (let i = 0; i < 5; i++) await login(i % 2 ? A : B, 'teacher01', 'Wrong@2026', `10.9.0.${i}`);
    const right = await login(B, 'teacher01', 'Tiyu@2026', '10.9.1.1');
    assert.equal(right.status, 400, 'locked after five failures spread over both instances');
  });

  it('kill -9 of A in the middle of an import: the job finishes on B, every row once', async () => {
    const ROWS = 20_000;
    const STUDENTS = '/api/busi/web/k12/user/student';
    const res = await login(A, 'school01', 'Tiyu@2026', '10.4.0.1');
    const token = (await res.json()).data.access_token as string;
    const prefix = `CK${randomBytes(2).toString('hex').toUpperCase()}`;
    const head = ['姓名', '学籍号', '学号', '性别', '出生日期', '民族', '年级', '班级'];
    const rows = Array.from({ length: ROWS }, (_, i) => [`集群${i}`, `${prefix}${String(i).padStart(6, '0')}`, '', i % 2 ? '男' : '女', '', '', '一年级', '一年级1班']);
    const options = (await (await call(A, `${STUDENTS}/import/options`, { token })).json()).data as { schoolYears: { id: string; current: boolean; semesters: { id: string; current: boolean }[] }[] };
    const year = options.schoolYears.find((y) => y.current)!;
    const form = new FormData();
    form.set('schoolYearId', year.id);
    form.set('semesterId', year.semesters.find((s) => s.current)!.id);
    form.set('file', new Blob([new Uint8Array(writeXlsx([{ name: '学生', rows: [head, ...rows] }]))]), 'students.xlsx');
    const dry = await call(A, `${STUDENTS}/import/preview`, { method: 'POST', token, body: form });
    assert.equal(dry.status, 200, await dry.clone().text());
    const { importId, create } = (await dry.json()).data as { importId: string; create: number };
    assert.equal(create, ROWS);
    // B is frozen while A takes the job, so it is A's worker that runs it (and dies with it).
    process.kill(-apps.B!.pid!, 'SIGSTOP');
    let jobId: string;
    try {
      const started = await call(A, `${STUDENTS}/import/${importId}/commit`, { method: 'POST', token });
      assert.equal(started.status, 200, await started.clone().text());
      jobId = (await started.json()).data.id as string;
      for (;;) {
        const job = (await (await call(A, `/api/busi/web/jobs/${jobId}`, { token })).json()).data as { state: string };
        assert.doesNotMatch(job.state, /done|failed/, 'the job ended before the kill: make the file larger');
        if (job.state === 'running') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      killGroup(apps.A!);
    } finally {
      process.kill(-apps.B!.pid!, 'SIGCONT');
    }
    // B's supervisor expires A's claim, B's worker runs the job from the start; the write commits once.
    const job = await jobDone(B, token, jobId, 180_000);
    assert.equal(job.state, 'done', job.error);
    assert.deepEqual(job.result.counts, { success: ROWS, failure: 0 });
    const list = (await (await call(B, `${STUDENTS}/page?current=1&size=10&keyword=${prefix}`, { token })).json()).data as { total: number };
    assert.equal(list.total, ROWS);
    assert.equal(psql(PRIMARY, `select count(*) from students where reg_no like '${prefix}%'`), String(ROWS));
  });
});
