import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getTableName, isTable, sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { createDatabase, dropDatabase, withDatabase } from '../../../server/db/admin';
import { MIGRATIONS_FOLDER, migrateDb, openDb, schema, type DbHandle } from '../../../server/db/client';

/** A brand-new, empty database of the run's kind (not the prepared copy). */
async function emptyDb(): Promise<DbHandle> {
  const source = inject('tiyuTestDb');
  if (source.kind === 'pglite') return openDb();
  const name = `tiyu_t_${randomBytes(6).toString('hex')}`;
  await createDatabase(source.databaseUrl, name);
  const handle = await openDb({ databaseUrl: withDatabase(source.databaseUrl, name), poolMax: 2 });
  return {
    ...handle,
    async close() {
      await handle.close();
      await dropDatabase(source.databaseUrl, name);
    },
  };
}

describe('migrations', () => {
  it('apply to an empty database, twice without harm, and create every schema table', async () => {
    const handle = await emptyDb();
    try {
      await migrateDb(handle);
      await migrateDb(handle);
      const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
      const applied = await handle.db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(applied.rows[0].n).toBe(journal.entries.length);

      const tables = await handle.db.execute<{ table_name: string }>(
        // Partitions (heart-rate samples by day) are the database's, not the schema's.
        sql`select table_name from information_schema.tables t where table_schema = 'public'
              and not exists (select 1 from pg_inherits i join pg_class c on c.oid = i.inhrelid where c.relname = t.table_name)
            order by table_name`,
      );
      const expected = Object.values(schema)
        .filter(isTable)
        .map((t) => getTableName(t))
        .sort();
      expect(tables.rows.map((r) => r.table_name)).toEqual(expected);
    } finally {
      await handle.close();
    }
  });
});
