import type pg from 'pg';

// node-postgres is imported by the first PostgreSQL connection, not at module load: a start on PGlite never loads it
// (≈ 0.1 s of CPU with drizzle's node-postgres driver; docs/decisions/065-built-server.md).

type PgModule = typeof pg;
let loaded: PgModule | undefined;

/** node-postgres, imported once. */
export async function loadPg(): Promise<PgModule> {
  return (loaded ??= (await import('pg')).default);
}

/** Whether `x` is a node-postgres pool: none exists before loadPg, so false until then without importing it. */
export function isPgPool(x: unknown): x is pg.Pool {
  return loaded !== undefined && x instanceof loaded.Pool;
}
