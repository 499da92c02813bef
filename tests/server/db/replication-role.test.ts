import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db, type DbHandle } from '../../../server/db/client';
import { RESTORE_FK_TRIGGERS, SKIP_FK_TRIGGERS } from '../../../server/db/replication-role';

/**
 * docs/deploy.md "The database role": the fast bulk writes skip the per-row foreign-key triggers wherever the role may
 * set session_replication_role — a superuser (PGlite, the test server's postgres), or on PostgreSQL 15+ a plain role
 * granted SET on it — and keep them (slower, never failing) for any other plain role. The plain-role cases run when
 * DATABASE_URL names a PostgreSQL server where we are a superuser.
 */
async function modeDuring(db: Db): Promise<{ skipped: boolean; during: string; after: string }> {
  return db.transaction(async (tx) => {
    const skipped = (await tx.execute(sql.raw(SKIP_FK_TRIGGERS))).rows.length > 0;
    const during = (await tx.execute<{ m: string }>(sql`select current_setting('session_replication_role') as m`)).rows[0]!.m;
    if (skipped) await tx.execute(sql.raw(RESTORE_FK_TRIGGERS));
    const after = (await tx.execute<{ m: string }>(sql`select current_setting('session_replication_role') as m`)).rows[0]!.m;
    return { skipped, during, after };
  });
}

describe('who may skip the per-row foreign-key checks', () => {
  it('a superuser (PGlite) does, for the transaction only', async () => {
    const handle = await openDb({});
    try {
      expect(await modeDuring(handle.db)).toEqual({ skipped: true, during: 'replica', after: 'origin' });
    } finally {
      await handle.close();
    }
  });

  const url = process.env.DATABASE_URL;
  describe.skipIf(!url)('on PostgreSQL', () => {
    const role = `tiyu_plain_${randomBytes(3).toString('hex')}`;
    let admin: DbHandle;
    let plain: DbHandle;
    let version = 0;
    beforeAll(async () => {
      admin = await openDb({ databaseUrl: url, poolMax: 1 });
      await admin.db.execute(sql.raw(`create role ${role} login password 'plain' nosuperuser`));
      version = (await admin.db.execute<{ v: number }>(sql`select current_setting('server_version_num')::int as v`)).rows[0]!.v;
      const asRole = new URL(url!);
      asRole.username = role;
      asRole.password = 'plain';
      plain = await openDb({ databaseUrl: asRole.toString(), poolMax: 1 });
    });
    afterAll(async () => {
      await plain?.close();
      await admin?.db.execute(sql.raw(`drop owned by ${role}`)).catch(() => undefined);
      await admin?.db.execute(sql.raw(`drop role if exists ${role}`));
      await admin?.close();
    });

    it('a plain role keeps the checks without an error; granted SET on the parameter (15+), it skips them', async () => {
      expect(await modeDuring(plain.db)).toEqual({ skipped: false, during: 'origin', after: 'origin' });
      if (version < 150000) return;
      await admin.db.execute(sql.raw(`grant set on parameter session_replication_role to ${role}`));
      expect(await modeDuring(plain.db)).toEqual({ skipped: true, during: 'replica', after: 'origin' });
    });
  });
});
