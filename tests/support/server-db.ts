import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { createDatabase, dropDatabase, withDatabase } from '../../server/db/admin';
import { openDb, type DbHandle } from '../../server/db/client';

/**
 * What tests/support/server-global-setup.ts prepared once per run: PGlite tarballs (migrated, and
 * migrated + demo-seeded), or template databases on the PostgreSQL server of DATABASE_URL.
 */
export type TestDbSource =
  | { kind: 'pglite'; migratedTarball: string; seededTarball: string }
  | { kind: 'postgres'; databaseUrl: string; migratedTemplate: string; seededTemplate: string };

declare module 'vitest' {
  export interface ProvidedContext {
    tiyuTestDb: TestDbSource;
  }
}

export interface TestDbOptions {
  /** false: migrated but empty (no menus, orgs or users). Default true: the demo seed (server/seed/demo.ts). */
  seeded?: boolean;
}

const tarballs = new Map<string, Promise<Blob>>();
// Read once per test file; every testDb() of the file starts from the same bytes.
const tarball = (path: string): Promise<Blob> => {
  let blob = tarballs.get(path);
  if (!blob) {
    blob = readFile(path).then((buf) => new Blob([buf]));
    tarballs.set(path, blob);
  }
  return blob;
};

/**
 * A private, ready database for one test file or test: a PGlite loaded from the run's tarball, or a
 * fresh PostgreSQL database copied from the run's template (dropped again by `close()`).
 * Same handle as openDb; always `await close()` (afterAll) or the worker never exits.
 */
export async function testDb(opts: TestDbOptions = {}): Promise<DbHandle> {
  const seeded = opts.seeded ?? true;
  const source = inject('tiyuTestDb');
  if (!source) throw new Error('testDb(): tests/support/server-global-setup.ts did not run (use the vitest "server" project)');
  if (source.kind === 'pglite') {
    return openDb({ loadDataDir: await tarball(seeded ? source.seededTarball : source.migratedTarball) });
  }
  const name = `tiyu_t_${randomBytes(6).toString('hex')}`;
  const template = seeded ? source.seededTemplate : source.migratedTemplate;
  await createDatabase(source.databaseUrl, name, template);
  const handle = await openDb({ databaseUrl: withDatabase(source.databaseUrl, name), poolMax: 4 });
  const closePool = handle.close;
  let dropped = false;
  return {
    ...handle,
    async close() {
      await closePool();
      if (dropped) return;
      dropped = true;
      await dropDatabase(source.databaseUrl, name);
    },
  };
}
