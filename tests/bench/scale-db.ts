/**
 * The districts of the dashboard and load benches (server/seed/scale.ts), built once and reused: PGlite ones into
 * data/bench/ (gitignored; ≈ 1–2 GB at 345,000 students, 8–20 minutes to seed), PostgreSQL ones as databases of a
 * cluster kept in data/bench/postgres (`benchUnderPostgres`). A cached database is reused while the seed is unchanged
 * and none of the migrations it was built with changed; migrations added since are applied on open, as an upgrade of
 * an installed database would apply them (so their backfills are exercised at scale too).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createDatabase, dropDatabase, withDatabase } from '../../server/db/admin';
import { MIGRATIONS_FOLDER, migrateDb, openDb } from '../../server/db/client';
import { seedScale } from '../../server/seed/scale';

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
  return existsSync(marker) && markerValid(readFileSync(marker, 'utf8'));
}

const markerText = () => JSON.stringify({ at: new Date().toISOString(), migrations: migrationHashes() });

function markerValid(text: string | null): boolean {
  if (!text) return false;
  try {
    const built = (JSON.parse(text) as { migrations?: Record<string, string> }).migrations;
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
  const dir = join(CACHE, prefix + hash(join(ROOT, 'server/seed/scale.ts')));
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
  await writeFile(marker, markerText());
  return dir;
}

/** Where `benchUnderPostgres` keeps its cluster. */
const PG_DIR = join(CACHE, 'postgres');

/**
 * Runs this bench script again (`script`, `args`) under a PostgreSQL server whose cluster is kept in data/bench/postgres
 * (scripts/with-postgres.sh with TIYU_PG_DIR), so `scalePgDatabase` finds the districts it seeded on earlier runs.
 */
export function benchUnderPostgres(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const child = spawnSync('bash', [join(ROOT, 'scripts/with-postgres.sh'), process.execPath, '--import', 'tsx', script, ...args], {
    stdio: 'inherit',
    cwd: ROOT,
    env: { ...env, TIYU_PG_DIR: PG_DIR },
  });
  if (child.status !== 0) throw new Error(`${script} under PostgreSQL exited with ${child.status}`);
}

/** True when this process runs under the kept cluster of `benchUnderPostgres` (its databases are kept, not dropped). */
export const keptPostgres = () => process.env.TIYU_PG_DIR !== undefined;

/**
 * The URL of a migrated database on the server of `baseUrl` holding a `seedScale` district, seeded when missing or
 * built with migrations that changed since (the marker is the database's comment). `drop` removes it, unless the
 * server is the kept bench cluster.
 */
export async function scalePgDatabase(baseUrl: string, students: number, schoolSizes: number[], log: (m: string) => void = console.log): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tiyu_scale_${students}_${schoolSizes.join('_') || 'x'}_${hash(join(ROOT, 'server/seed/scale.ts'))}`;
  const url = withDatabase(baseUrl, name);
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  const comment = await client
    .query<{ c: string | null }>(`select shobj_description(oid, 'pg_database') as c from pg_database where datname = $1`, [name])
    .then((r) => (r.rows.length ? (r.rows[0].c ?? '') : null))
    .finally(() => client.end());
  if (comment !== null && markerValid(comment)) {
    const handle = await openDb({ databaseUrl: url, poolMax: 2 });
    await migrateDb(handle).finally(() => handle.close());
    log(`  reusing PostgreSQL ${name}`);
  } else {
    await dropDatabase(baseUrl, name);
    await createDatabase(baseUrl, name);
    const handle = await openDb({ databaseUrl: url, poolMax: 10 });
    try {
      await migrateDb(handle);
      const s = await seedScale(handle.db, { students, schoolSizes, log: (m) => log(`  ${m}`) });
      log(`  seeded PostgreSQL ${name}: ${s.students} students, ${s.results} results in ${(s.ms / 1000).toFixed(1)} s`);
      // Fresh tables have no statistics or visibility map yet; an installed database would have both from autovacuum.
      await handle.db.execute(sql.raw('vacuum analyze'));
    } finally {
      await handle.close();
    }
  }
  const marker = new pg.Client({ connectionString: url });
  await marker.connect();
  await marker.query(`comment on database ${name} is '${markerText().replaceAll("'", "''")}'`).finally(() => marker.end());
  return { url, drop: () => (keptPostgres() ? Promise.resolve() : dropDatabase(baseUrl, name)) };
}
