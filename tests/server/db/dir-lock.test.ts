import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIR_LOCK_FILE, lockDataDir } from '../../../server/db/dir-lock';

const ROOT = join(import.meta.dirname, '../../..');

/** `tsx server/main.ts` on the given PGlite directory; stdout and stderr collected. */
function startServer(dir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PGLITE_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent-tiyu-dist', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

const stop = async (child: ChildProcess, exited: Promise<unknown>) => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await exited;
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiyu-lock-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('one server process per PGlite directory', () => {
  // Two servers start from source (tsx): ≈ 12 s on a quiet machine, over 120 s under the full suite at load ≈ 22.
  it('refuses a second server on the same directory before it migrates or seeds anything', { timeout: 360_000 }, async () => {
    const first = startServer(dir);
    try {
      // The first server holds the directory as soon as it opens it (before migrating).
      await vi.waitFor(() => expect(existsSync(join(dir, DIR_LOCK_FILE))).toBe(true), { timeout: 180_000, interval: 100 });
      expect(Number(await readFile(join(dir, DIR_LOCK_FILE), 'utf8'))).toBe(first.child.pid);
      const filesBefore = readdirSync(dir).sort();

      const second = startServer(dir);
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`is in use by another tiyu process (pid ${first.child.pid})`);
      expect(second.output()).not.toContain('tiyu is running');
      // The lock is still the first server's.
      expect(Number(await readFile(join(dir, DIR_LOCK_FILE), 'utf8'))).toBe(first.child.pid);
      expect(readdirSync(dir).sort()).toEqual(expect.arrayContaining(filesBefore));
    } finally {
      await stop(first.child, first.exited);
    }
  });

  it('takes over the lock of a process that died without releasing it, and releases its own', () => {
    // The server above was killed with SIGKILL: its lock file is left behind with a dead pid.
    expect(existsSync(join(dir, DIR_LOCK_FILE))).toBe(true);
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(/in use by another tiyu process/);
    release();
    expect(existsSync(join(dir, DIR_LOCK_FILE))).toBe(false);
  });
});
