import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_FOLDER, type Db } from '../../db/client';

/** What a load balancer asks before sending traffic (docs/product-rules.md#health). */
export interface Readiness {
  ready: boolean;
  database: 'ok' | 'unreachable';
  /** 'current' when the newest committed migration is applied; 'behind' when the code expects a newer schema. */
  migrations: 'current' | 'behind' | 'unknown';
}

/** The newest migration the code was built with (drizzle's journal stores its creation time, `when`). */
function newestMigrationMillis(): number {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((e) => e.when));
}
const NEWEST = newestMigrationMillis();

/** Database reachable (one trivial statement) and its schema as new as the code (drizzle's migrations table). */
export async function readiness(db: Db): Promise<Readiness> {
  try {
    await db.execute(sql`select 1`);
  } catch {
    return { ready: false, database: 'unreachable', migrations: 'unknown' };
  }
  try {
    const { rows } = await db.execute<{ newest: string | number | null }>(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`);
    const applied = Number(rows[0]?.newest ?? 0);
    const migrations = applied >= NEWEST ? 'current' : 'behind';
    return { ready: migrations === 'current', database: 'ok', migrations };
  } catch {
    return { ready: false, database: 'ok', migrations: 'unknown' };
  }
}
