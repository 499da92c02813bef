/**
 * The score list's statements (server/modules/physique-results/physique-results.service.ts) on a district of `--students`
 * whose largest school has `--school-sizes` students (tests/bench/scale-db.ts), on PGlite and PostgreSQL:
 * EXPLAIN (ANALYZE, BUFFERS) of each statement as the service builds it, for the largest school's current year (as
 * the screen opens it), and p50/p95 of each beside the list's earlier page statement (every matching result joined and
 * sorted, which the exports still run) and the summary read from the results (before physique_result_counts),
 * measured in the same run. It also checks that pages (first, second, middle, last; with filters; the bureau over every
 * school) hold the same rows in the same order as that full sort and that the summary and groups from the counts equal
 * those from the results, and exits non-zero when one differs. Asserts no time.
 *
 *   npx tsx tests/bench/score-list.ts [--students 20000] [--school-sizes 9000] [--engines pglite,postgres] [--iterations 30] [--explain]
 *   npm run bench -- score-list
 *
 * PostgreSQL: DATABASE_URL when set, else a server whose cluster is kept in data/bench/postgres (PGPORT_TEST).
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Family } from '@/domain/menus/access';
import type { ScoreFilter } from '@/domain/physique-results/schemas';
import { openDb, type DbHandle } from '../../server/db/client';
import { ChangeFeed } from '../../server/lib/change-feed';
import { WHOLE_ORG } from '../../server/lib/data-scope';
import {
  countsFilter,
  groupsOfPage,
  orderedResults,
  pageIdsQuery,
  pageRows,
  resultFilter,
  searchResults,
  summaryAndGroups,
  summaryAndGroupsQuery,
  type Caller,
} from '../../server/modules/physique-results/physique-results.service';
import { benchUnderPostgres, scaleDbDir, scalePgDatabase } from './scale-db';
import { timeRuns } from './lib/timing';

type Engine = 'pglite' | 'postgres';

const { values: args } = parseArgs({
  options: {
    students: { type: 'string', default: '20000' },
    'school-sizes': { type: 'string', default: '9000' },
    engines: { type: 'string', default: 'pglite,postgres' },
    iterations: { type: 'string', default: '30' },
    /** Print the EXPLAIN (ANALYZE, BUFFERS) plans, not only their times. */
    explain: { type: 'boolean', default: false },
  },
});
const students = Number(args.students);
const schoolSizes = args['school-sizes'] ? args['school-sizes'].split(',').map(Number).filter((n) => n <= students / 2) : [];
const iterations = Number(args.iterations);
const SIZE = 20;

async function time(fn: () => Promise<unknown>): Promise<string> {
  const { p50, p95 } = await timeRuns(fn, iterations);
  return `p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`;
}

async function explain(handle: DbHandle, name: string, query: { toSQL(): { sql: string; params: unknown[] } }): Promise<void> {
  const { sql: text, params } = query.toSQL();
  const statement = `explain (analyze, buffers) ${text}`;
  const rows = handle.kind === 'pglite' ? (await handle.raw.query<Record<string, string>>(statement, params)).rows : (await handle.raw.query<Record<string, string>>(statement, params)).rows;
  const lines = rows.map((r) => Object.values(r)[0]);
  const times = lines.filter((l) => /^(Planning|Execution) Time/.test(l)).join(', ');
  console.log(`    EXPLAIN ${name}: ${times}`);
  if (args.explain) for (const l of lines) console.log(`      ${l}`);
}

async function measure(engine: Engine, handle: DbHandle): Promise<boolean> {
  const one = async <T>(q: SQL) => (await handle.db.execute<T & Record<string, unknown>>(q)).rows[0];
  const school = await one<{ org_id: string; n: number; year_id: string; parent_id: string }>(
    sql`select s.org_id, count(*)::int as n, (select sy.id from school_years sy where sy.org_id = s.org_id and sy.current) as year_id,
  (select o.parent_id from orgs o where o.id = s.org_id) as parent_id
from students s join classes c on c.id = s.class_id join grades g on g.id = c.grade_id where not g.graduated and s.enabled
group by s.org_id order by n desc limit 1`,
  );
  const callerOf = (family: Family, tenantOrgId: string): Caller => ({ family, tenantOrgId, userId: '00000000-0000-0000-0000-000000000000', classScope: WHOLE_ORG });
  const schoolCaller = callerOf('k12', school.org_id);
  const year: ScoreFilter = { schoolYearId: school.year_id };
  const where = resultFilter(schoolCaller, year);
  const { summary, groups } = await summaryAndGroups(handle.db, schoolCaller, year);
  console.log(`  ${engine}: school of ${school.n} students, current year: ${summary.matched} results in ${groups.length} (plan, grade, class) groups`);

  // Same rows, same order as the full sort, page by page.
  let same = true;
  const cases: [string, Caller, ScoreFilter][] = [
    ['school, current year', schoolCaller, year],
    ['school, current year, girls', schoolCaller, { ...year, gender: 'female' }],
    ['school, current year, fail', schoolCaller, { ...year, level: 'fail' }],
    ['school, current year, incomplete', schoolCaller, { ...year, level: 'incomplete' }],
    ['school, every year', schoolCaller, {}],
    ['bureau, every school, current year', callerOf('admin', school.parent_id), { schoolYearId: school.year_id }],
  ];
  for (const [name, caller, f] of cases) {
    const counted = await summaryAndGroups(handle.db, caller, f, 'counts');
    const total = counted.summary.matched;
    const read = await summaryAndGroups(handle.db, caller, f, 'results');
    // Groups that tie on the list's order come in either order (the pages take them together), so compare them sorted.
    const sorted = (x: typeof read) => JSON.stringify([x.summary, x.groups.map((g) => JSON.stringify(g)).sort()]);
    if (sorted(counted) !== sorted(read)) {
      console.log(`    MISMATCH ${name}: summary or groups from the counts differ from those of the results`);
      same = false;
    }
    const last = Math.max(1, Math.ceil(total / SIZE));
    for (const current of [...new Set([1, 2, Math.ceil(last / 2), last, last + 1])]) {
      const page = await searchResults(handle.db, caller, { ...f, current, size: SIZE });
      const full = await orderedResults(handle.db, resultFilter(caller, f))
        .limit(SIZE)
        .offset((current - 1) * SIZE);
      const ok = page.total === total && page.records.map((r) => r.id).join() === full.map((r) => r.id).join();
      if (!ok) console.log(`    MISMATCH ${name}, page ${current}: ${page.records.length} rows against ${full.length}`);
      same &&= ok;
    }
  }
  console.log(`    pages against the full sort, summaries against the results': ${same ? 'same rows, same order, same summaries' : 'DIFFERENT'}`);

  const lastPage = Math.ceil(summary.matched / SIZE);
  for (const [label, current] of [
    ['first page', 1],
    ['last page', lastPage],
  ] as const) {
    const offset = (current - 1) * SIZE;
    const page = groupsOfPage(groups, offset, SIZE);
    await explain(handle, `${label}, full sort (before)`, orderedResults(handle.db, where).limit(SIZE).offset(offset));
    await explain(handle, `${label}, page of its groups (ids)`, { toSQL: () => new PgDialect().sqlToQuery(pageIdsQuery(where, page, SIZE)) });
  }
  const counts = countsFilter(schoolCaller, year);
  await explain(handle, 'summary and groups from the results (before)', summaryAndGroupsQuery(handle.db, where));
  await explain(handle, 'summary and groups from the counts', summaryAndGroupsQuery(handle.db, counts, 'counts'));

  console.log(`    full sort, first page (before): ${await time(() => orderedResults(handle.db, where).limit(SIZE))}`);
  console.log(`    summary and groups from the results (before): ${await time(() => summaryAndGroupsQuery(handle.db, where))}`);
  console.log(`    summary and groups from the counts: ${await time(() => summaryAndGroupsQuery(handle.db, counts, 'counts'))}`);
  const first = groupsOfPage(groups, 0, SIZE);
  console.log(`    page of its groups, first page: ${await time(() => pageRows(handle.db, where, first, SIZE))}`);
  console.log(`    searchResults, first page (both, one after the other): ${await time(() => searchResults(handle.db, schoolCaller, { ...year, current: 1, size: SIZE }))}`);
  // searchResults as it was before the counts: the summary and groups read from the results, then the same page.
  const before = async () => {
    const read = await summaryAndGroups(handle.db, schoolCaller, year, 'results');
    return pageRows(handle.db, where, groupsOfPage(read.groups, 0, SIZE), SIZE);
  };
  console.log(`    the same with the summary from the results (before): ${await time(before)}`);
  console.log(`    searchResults, last page: ${await time(() => searchResults(handle.db, schoolCaller, { ...year, current: lastPage, size: SIZE }))}`);
  // The bureau's list as it opens (no filter sent: the current year by default), the target's figure (page 1, p95):
  // with its summary and groups counted each time, and kept per change-feed version as the route runs it (every
  // page, page size and user of the same filter reuse them). Every year (allYears) is what it opened on before.
  const bureau = callerOf('admin', school.parent_id);
  const opened = await searchResults(handle.db, bureau, { current: 1, size: SIZE });
  const every = await searchResults(handle.db, bureau, { allYears: true, current: 1, size: SIZE });
  console.log(`    bureau of ${await one<{ n: number }>(sql`select count(*)::int as n from orgs where parent_id = ${school.parent_id}`).then((r) => r.n)} schools: opens on ${opened.defaultYear?.academicYear ?? 'every year'} (${opened.total} results); every year ${every.total}`);
  console.log(`    bureau, every year (allYears), page 1, counted: ${await time(() => searchResults(handle.db, bureau, { allYears: true, current: 1, size: SIZE }))}`);
  console.log(`    bureau, page 1 as the list opens (default year), counted: ${await time(() => searchResults(handle.db, bureau, { current: 1, size: SIZE }))}`);
  const feed = await ChangeFeed.open(handle.db);
  try {
    console.log(`    bureau, page 1 as the list opens, summary kept (route): ${await time(() => searchResults(handle.db, bureau, { current: 1, size: SIZE }, { feed, synced: feed.synced() }))}`);
    let n = 0;
    const pages = Math.max(1, Math.ceil(opened.total / SIZE));
    console.log(`    bureau, pages spread over 1…${pages}, summary kept (route): ${await time(() => searchResults(handle.db, bureau, { current: ((n++ * 7919) % pages) + 1, size: SIZE }, { feed, synced: feed.synced() }))}`);
  } finally {
    await feed.close();
  }
  return same;
}

async function main(): Promise<void> {
  const engines = args.engines.split(',') as Engine[];
  let ok = true;
  if (engines.includes('pglite')) {
    const handle = await openDb({ pgliteDir: await scaleDbDir(students, schoolSizes) });
    try {
      ok = (await measure('pglite', handle)) && ok;
    } finally {
      await handle.close();
    }
  }
  if (engines.includes('postgres')) {
    if (process.env.DATABASE_URL) {
      const { url, drop } = await scalePgDatabase(process.env.DATABASE_URL, students, schoolSizes);
      const handle = await openDb({ databaseUrl: url, poolMax: 2 });
      try {
        ok = (await measure('postgres', handle)) && ok;
      } finally {
        await handle.close();
        await drop();
      }
    } else if (existsSync('/usr/lib/postgresql')) {
      benchUnderPostgres(import.meta.filename, ['--engines', 'postgres', '--students', args.students, '--school-sizes', args['school-sizes'], '--iterations', args.iterations, ...(args.explain ? ['--explain'] : [])]);
    } else console.log('  PostgreSQL: skipped (no DATABASE_URL and no local server binaries)');
  }
  if (!ok) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
