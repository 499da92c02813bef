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

describe('the change feed’s triggers at start', () => {
  it('a table that lost its trigger gets it back at the next start; a start that finds none missing runs no per-table loop', async () => {
    const handle = await emptyDb();
    try {
      await migrateDb(handle);
      const triggers = async (table: string) =>
        (
          await handle.db.execute<{ tgname: string; tgenabled: string }>(
            sql`select tgname, tgenabled from pg_trigger where tgrelid = ${table}::regclass and tgname like 'tiyu_changed%' order by tgname`,
          )
        ).rows;
      // A table with an organisation (rows notify their organisations) and one without (a statement trigger).
      const byOrg = 'physique_results';
      const plain = 'platform_settings';
      const byOrgBefore = await triggers(byOrg);
      const plainBefore = await triggers(plain);
      expect(byOrgBefore.map((r) => r.tgname)).toEqual(['tiyu_changed', 'tiyu_changed_del', 'tiyu_changed_ins', 'tiyu_changed_upd']);
      expect(plainBefore).toEqual([{ tgname: 'tiyu_changed', tgenabled: 'A' }]);

      // Covered: the start asks once and calls nothing else (PGlite: the statements it sends are seen here).
      const sent: string[] = [];
      if (handle.kind === 'pglite') {
        const raw = handle.raw;
        const query = raw.query.bind(raw);
        raw.query = ((text: string, ...rest: unknown[]) => {
          sent.push(text);
          return (query as (...a: unknown[]) => ReturnType<typeof raw.query>)(text, ...rest);
        }) as typeof raw.query;
        await migrateDb(handle);
        raw.query = query;
        expect(sent.filter((s) => s.includes('tiyu_'))).toEqual(['select exists (select 1 from tiyu_change_trigger_gaps()) as missing']);
      }

      await handle.db.execute(sql.raw(`drop trigger tiyu_changed_ins on ${byOrg}`));
      await handle.db.execute(sql.raw(`drop trigger tiyu_changed_upd on ${byOrg}`));
      await handle.db.execute(sql.raw(`drop trigger tiyu_changed on ${plain}`));
      expect((await handle.db.execute(sql`select table_name from tiyu_change_trigger_gaps() order by 1`)).rows).toEqual([{ table_name: byOrg }, { table_name: plain }]);
      await migrateDb(handle);
      expect(await triggers(byOrg)).toEqual(byOrgBefore);
      expect(await triggers(plain)).toEqual(plainBefore);
      expect((await handle.db.execute(sql`select table_name from tiyu_change_trigger_gaps()`)).rows).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});
