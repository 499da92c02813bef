/**
 * The PGlite districts of the dashboard and load benches (server/db/seed/scale.ts), built once into data/bench/
 * (gitignored; ≈ 1–2 GB at 345,000 students, 8–20 minutes to seed) and reused. A cached database is reused while
 * the seed is unchanged and none of the migrations it was built with changed; migrations added since are applied on
 * open, as an upgrade of an installed database would apply them (so their backfills are exercised at scale too).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { MIGRATIONS_FOLDER, migrateDb, openDb } from '../../server/db/client';
import { seedScale } from '../../server/db/seed/scale';

const ROOT = resolve(import.meta.dirname, '../..');
const CACHE = join(ROOT, 'data/bench');
const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12);

function migrationHashes(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql')).sort()) out[f] = hash(join(MIGRATIONS_FOLDER, f));
  return out;
}

/** True when every migration the database was built with is still there, unchanged. */
function stillValid(marker: string): boolean {
  if (!existsSync(marker)) return false;
  try {
    const built = (JSON.parse(readFileSync(marker, 'utf8')) as { migrations?: Record<string, string> }).migrations;
    if (!built) return false;
    const now = migrationHashes();
    return Object.entries(built).every(([f, h]) => now[f] === h);
  } catch {
    return false;
  }
}

/** The directory of a migrated PGlite database holding a `seedScale` district; seeds it when there is none. */
export async function scaleDbDir(students: number, schoolSizes: number[], log: (m: string) => void = console.log): Promise<string> {
  const prefix = `scale-${students}-${schoolSizes.join('_') || 'x'}-`;
  const dir = join(CACHE, prefix + hash(join(ROOT, 'server/db/seed/scale.ts')));
  const marker = join(dir, '.seeded');
  if (stillValid(marker)) {
    const handle = await openDb({ pgliteDir: dir });
    try {
      await migrateDb(handle);
    } finally {
      await handle.close();
    }
  } else {
    if (existsSync(CACHE)) for (const old of readdirSync(CACHE).filter((d) => d.startsWith(prefix))) await rm(join(CACHE, old), { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const handle = await openDb({ pgliteDir: dir });
    try {
      await migrateDb(handle);
      const s = await seedScale(handle.db, { students, schoolSizes, log: (m) => log(`  ${m}`) });
      log(`  seeded PGlite ${dir}: ${s.students} students, ${s.results} results in ${(s.ms / 1000).toFixed(1)} s`);
    } finally {
      await handle.close();
    }
  }
  await writeFile(marker, JSON.stringify({ at: new Date().toISOString(), migrations: migrationHashes() }));
  return dir;
}
