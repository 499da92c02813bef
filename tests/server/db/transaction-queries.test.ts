import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DbHandle } from '../../../server/db/client';
import { testDb } from '../../support/server-db';

let h: DbHandle;
beforeAll(async () => {
  h = await testDb({ seeded: false });
});
afterAll(async () => {
  await h?.close();
});

// Services read with Promise.all over a DbOrTx, which is one connection inside a transaction (server/db/client.ts).
it('a transaction runs queries sent at once in the order they were sent, without node-postgres’ queueing warning', async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => void warnings.push(w.message);
  process.on('warning', onWarning);
  try {
    const order = await h.db.transaction(async (tx) => {
      await tx.execute(sql`create temp table sent_order (id serial primary key, n int not null) on commit drop`);
      const inserted = await Promise.all([1, 2, 3, 4].map((n) => tx.execute<{ n: number }>(sql`insert into sent_order (n) values (${n}) returning n`)));
      expect(inserted.map((r) => r.rows[0]?.n)).toEqual([1, 2, 3, 4]);
      const { rows } = await tx.execute<{ n: number }>(sql`select n from sent_order order by id`);
      return rows.map((r) => r.n);
    });
    expect(order).toEqual([1, 2, 3, 4]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((m) => m.includes('already executing a query'))).toEqual([]);
  } finally {
    process.off('warning', onWarning);
  }
});
