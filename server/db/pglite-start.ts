import { mkdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './dir-lock';
import { PreparingPGlite } from './pglite-statements';

/** A PGlite instance starting on its directory (locked), before drizzle and the schema are loaded. */
export interface StartedPglite {
  client: PGlite;
  /** Lets go of the directory lock. */
  release: () => void;
}

/**
 * Locks `dir` and starts PGlite on it, without waiting for it: only PGlite and the lock are loaded here, so
 * server/main.ts starts the database before the rest of the server's modules load (docs/performance.md, start-up);
 * openDb waits for it (`started`).
 */
export async function startPglite(opts: { pgliteDir?: string; loadDataDir?: Blob }): Promise<StartedPglite> {
  // PGlite creates only the last path segment itself (e.g. ./data/pglite on a fresh checkout).
  if (opts.pgliteDir) await mkdir(opts.pgliteDir, { recursive: true });
  // Before PGlite touches the files: a second process on the same directory is refused, not half-started.
  const release = opts.pgliteDir ? lockDataDir(opts.pgliteDir) : () => {};
  try {
    return { client: new PreparingPGlite({ dataDir: opts.pgliteDir, loadDataDir: opts.loadDataDir }), release };
  } catch (err) {
    release();
    throw err;
  }
}
