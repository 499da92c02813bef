import { openDb, migrateDb } from '../../../server/db/client';
import { copyLines, withBulkTransaction } from '../../../server/modules/physique/bulk-session';
const h = await openDb({ pgliteDir: '/tmp/perf9b/pgl-explain' });
await migrateDb(h);
const raw = h.raw as any;
const org = crypto.randomUUID();
const n = (await raw.query('select count(*)::int n from students')).rows[0].n;
if (n < 50000) {
  await raw.query(`insert into orgs (id, name, type, code) values ($1, 'x', 'k12', 'x${Date.now()}')`, [org]).catch((e: any) => console.log('org', e.message));
}
console.log((await raw.query(`select indexname, indexdef from pg_indexes where tablename = 'students'`)).rows);
const regs = Array.from({ length: 2000 }, (_, i) => `B${String(i).padStart(18, '0')}`);
console.log((await raw.query(`explain analyze select id from students where org_id = $1 and enabled and upper(reg_no) = any($2::text[])`, [org, regs])).rows.map((r: any) => r['QUERY PLAN']).join('\n'));
await h.close();
