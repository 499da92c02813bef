import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Name of the lock file a server keeps in its PGlite data directory while it has the directory open. */
export const DIR_LOCK_FILE = 'tiyu-server.lock';

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly ownerPid: number,
  ) {
    super(
      `the database directory ${dir} is in use by another tiyu process (pid ${ownerPid}); ` +
        'PGlite serves one process only: stop that process, or set PGLITE_DIR to another directory ' +
        `(if no such process runs, delete ${join(dir, DIR_LOCK_FILE)})`,
    );
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data directory for this process: an exclusively created lock file holding our pid. A lock whose owner
 * is gone (killed, crashed) is taken over; a live owner, this process included, is refused with DataDirLockedError.
 * Two processes on one PGlite directory would each see only their own writes and lose them on restart.
 * Returns the release function (idempotent; also run on process exit).
 */
export function lockDataDir(dir: string): () => void {
  const abs = resolve(dir);
  const file = join(abs, DIR_LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        process.off('exit', release);
        try {
          unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
      process.on('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let owner: number;
    try {
      owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
    } catch {
      // Removed meanwhile by its owner: try again.
      continue;
    }
    if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) throw new DataDirLockedError(abs, owner);
    // A stale lock of a process that died without releasing it.
    try {
      unlinkSync(file);
    } catch {
      // Another starting process took it over first; the next attempt sees its lock.
    }
  }
  throw new DataDirLockedError(abs, Number.NaN);
}
