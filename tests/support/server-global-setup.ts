import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateDb, openDb, type DbHandle } from '../../server/db/client';
import { seedDemo } from '../../server/seed/demo';
import { createDatabase, dropDatabase, withDatabase } from '../../server/db/admin';
import { setPasswordCostForTests } from '../../server/lib/password';
import type { TestDbSource } from './server-db';
import { TEST_PASSWORD_COST } from './server-setup';

async function dump(handle: DbHandle, path: string): Promise<void> {
  if (handle.kind !== 'pglite') throw new Error('dump: PGlite only');
  // Uncompressed: loading skips gunzip in every test file.
  const blob = await handle.raw.dumpDataDir('none');
  await writeFile(path, Buffer.from(await blob.arrayBuffer()));
}

/**
 * Migrates and seeds ONE database per test run (server project): PGlite → tarballs under the temp
 * directory that every testDb() loads; DATABASE_URL → template databases that testDb() copies.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = performance.now();
  // The demo accounts' hashes at the test cost: every sign-in of the suite verifies one (tests/support/server-setup.ts).
  setPasswordCostForTests(TEST_PASSWORD_COST);
  const databaseUrl = process.env.DATABASE_URL;
  let source: TestDbSource;
  let cleanup: () => Promise<void>;

  if (databaseUrl) {
    const tag = randomBytes(4).toString('hex');
    const migratedTemplate = `tiyu_tpl_${tag}_migrated`;
    const seededTemplate = `tiyu_tpl_${tag}_seeded`;
    await createDatabase(databaseUrl, migratedTemplate);
    const handle = await openDb({ databaseUrl: withDatabase(databaseUrl, migratedTemplate), poolMax: 2 });
    try {
      await migrateDb(handle);
    } finally {
      // A template must have no open connections when it is copied.
      await handle.close();
    }
    await createDatabase(databaseUrl, seededTemplate, migratedTemplate);
    const seeded = await openDb({ databaseUrl: withDatabase(databaseUrl, seededTemplate), poolMax: 2 });
    try {
      await seedDemo(seeded.db);
    } finally {
      await seeded.close();
    }
    source = { kind: 'postgres', databaseUrl, migratedTemplate, seededTemplate };
    cleanup = async () => {
      for (const name of [seededTemplate, migratedTemplate]) await dropDatabase(databaseUrl, name);
    };
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'tiyu-testdb-'));
    const migratedTarball = join(dir, 'migrated.tar');
    const seededTarball = join(dir, 'seeded.tar');
    const handle = await openDb();
    try {
      await migrateDb(handle);
      await dump(handle, migratedTarball);
      await seedDemo(handle.db);
      await dump(handle, seededTarball);
    } finally {
      await handle.close();
    }
    source = { kind: 'pglite', migratedTarball, seededTarball };
    cleanup = () => rm(dir, { recursive: true, force: true });
  }

  project.provide('tiyuTestDb', source);
  console.log(`[server tests] ${source.kind} database migrated and seeded once in ${Math.round(performance.now() - started)} ms`);
  return cleanup;
}
