import { sql } from 'drizzle-orm';
import { newestMigrationMillis, type Db } from '../../db/client';

/** What a load balancer asks before sending traffic (docs/product-rules.md#health). */
export interface Readiness {
  ready: boolean;
  database: 'ok' | 'unreachable';
  /** 'current' when the newest committed migration is applied; 'behind' when the code expects a newer schema. */
  migrations: 'current' | 'behind' | 'unknown';
}

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
    const migrations = applied >= newestMigrationMillis() ? 'current' : 'behind';
    return { ready: migrations === 'current', database: 'ok', migrations };
  } catch {
    return { ready: false, database: 'ok', migrations: 'unknown' };
  }
}
