import { openDb } from './db/client';
import { detachSchoolYear, SCHOOL_YEAR_PARTITIONED, schoolYearPartitions, type SchoolYearTable } from './db/school-year-partitions';
import { parseEnv } from './env';

/**
 * `npm run db:detach-school-year -- <table> <start year>` (e.g. `audit_logs 2024` for 2024-2025): detaches an ended
 * school year's partition for archive (docs/deploy.md, "Partitions by school year"); without arguments, lists each
 * table's school-year partitions. The detached rows stay in a plain table of the partition's name: dump it, then drop it.
 */
async function main(args: string[]): Promise<number> {
  const env = parseEnv();
  const handle = await openDb(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR });
  try {
    const [table, year] = args;
    if (!table) {
      for (const t of SCHOOL_YEAR_PARTITIONED) for (const p of await schoolYearPartitions(handle.db, t)) process.stdout.write(`${p.partition}\t${p.rows} rows\n`);
      return 0;
    }
    if (!(SCHOOL_YEAR_PARTITIONED as readonly string[]).includes(table) || !/^\d{4}$/.test(year ?? '')) {
      process.stderr.write(`usage: db:detach-school-year -- <${SCHOOL_YEAR_PARTITIONED.join('|')}> <start year>\n`);
      return 2;
    }
    const done = await detachSchoolYear(handle.db, table as SchoolYearTable, Number(year), new Date());
    process.stdout.write(`detached ${done.partition} (${done.rows} rows): pg_dump -t ${done.partition}, then drop table ${done.partition}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await handle.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
