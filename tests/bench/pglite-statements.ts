/**
 * PGlite's prepared statements (server/db/pglite-statements.ts): one signed-in session's requests, one after another
 * through `app.inject`, on the same district database opened by plain `PGlite` (every statement parsed and planned
 * each time: the floor) and by `PreparingPGlite` (what the server opens), alternated `--rounds` times in one run.
 * Cases as tests/bench/load.ts drives them: the trivial authenticated list, the score list's first page, the k12
 * school view. Prints p50/p95 per case and client and the ratio; also checks the two clients answer the same bytes
 * (`asOf` aside) and exits non-zero when they do not. Asserts no time; CI never runs it.
 *
 *   npx tsx tests/bench/pglite-statements.ts [--students 20000] [--school-sizes 9000] [--runs 100] [--rounds 2]
 *   npm run bench -- pglite-statements
 */
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { buildApp } from '../../server/app';
import type { Db } from '../../server/db/client';
import { PreparingPGlite } from '../../server/db/pglite-statements';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { parseEnv } from '../../server/env';
import { sha256Hex } from '../../server/lib/password';
import { scaleDbDir } from './scale-db';
import { timeRuns } from './lib/timing';

const { values: args } = parseArgs({
  options: {
    students: { type: 'string', default: '20000' },
    'school-sizes': { type: 'string', default: '9000' },
    runs: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '2' },
  },
});
const students = Number(args.students);
const schoolSizes = args['school-sizes'] ? args['school-sizes'].split(',').map(Number) : [];

type Client = 'PGlite' | 'PreparingPGlite';
const K12 = '/api/busi/web/k12';

async function measure(dir: string, client: Client): Promise<{ times: Map<string, { p50: number; p95: number }>; bodies: Map<string, string> }> {
  const pglite = client === 'PGlite' ? new PGlite({ dataDir: dir }) : new PreparingPGlite({ dataDir: dir });
  await pglite.waitReady;
  const db = drizzle({ client: pglite }) as unknown as Db;
  const env = parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: '1234', WEB_DIST: '/nonexistent-tiyu-dist' });
  const app = await buildApp({ db, env, rateLimits: { captchaPerMinute: 1e6, loginPerMinute: 1e6 } });
  try {
    // The largest school's first account and current school year, as the load bench picks them.
    const { rows } = await db.execute<{ account: string; year_id: string }>(sql`select
  (select u.account_num from memberships m join users u on u.id = m.user_id where m.org_id = s.org_id order by u.account_num limit 1) as account,
  (select sy.id from school_years sy where sy.org_id = s.org_id and sy.current) as year_id
from students s join classes c on c.id = s.class_id join grades g on g.id = c.grade_id where not g.graduated and s.enabled
group by s.org_id order by count(*) desc limit 1`);
    const [{ account, year_id: yearId }] = rows;
    const randomStr = `bench${Date.now()}`;
    await app.inject({ url: `/api/code?randomStr=${randomStr}` });
    const login = await app.inject({ method: 'POST', url: '/api/sso/login', payload: { accountNum: account, password: sha256Hex(DEMO_PASSWORD), code: '1234', randomStr } });
    const headers = { authorization: `bearer ${(login.json() as { data: { access_token: string } }).data.access_token}` };
    const cases: [string, string][] = [
      ['floor (school years)', `${K12}/org/acayear/page?size=20`],
      ['score list', `${K12}/organizeTest/scoreSearch/page?schoolYearId=${yearId}&current=1&size=20`],
      ['school view', `${K12}/dataCenter/school`],
    ];
    const times = new Map<string, { p50: number; p95: number }>();
    const bodies = new Map<string, string>();
    for (const [name, url] of cases) {
      const first = await app.inject({ url, headers });
      if (first.statusCode !== 200) throw new Error(`${name}: ${first.statusCode} ${first.body.slice(0, 200)}`);
      bodies.set(name, first.body.replace(/"asOf":"[^"]*"/, ''));
      times.set(name, await timeRuns(() => app.inject({ url, headers }), Number(args.runs)));
    }
    return { times, bodies };
  } finally {
    await app.close();
    await pglite.close();
  }
}

const dir = await scaleDbDir(students, schoolSizes);
console.log(`pglite-statements: ${students} students (large schools ${schoolSizes.join(', ') || 'none'}), ${args.runs} requests a case, ${args.rounds} rounds`);
let differs = false;
for (let round = 1; round <= Number(args.rounds); round++) {
  const plain = await measure(dir, 'PGlite');
  const preparing = await measure(dir, 'PreparingPGlite');
  for (const [name, a] of plain.times) {
    const b = preparing.times.get(name)!;
    const same = plain.bodies.get(name) === preparing.bodies.get(name);
    differs ||= !same;
    console.log(
      `  round ${round} ${name.padEnd(21)} PGlite (floor) p50 ${a.p50.toFixed(1).padStart(6)} ms p95 ${a.p95.toFixed(1).padStart(6)} ms | PreparingPGlite p50 ${b.p50.toFixed(1).padStart(6)} ms p95 ${b.p95.toFixed(1).padStart(6)} ms | p50 ×${(b.p50 / a.p50).toFixed(2)}${same ? '' : '  ANSWERS DIFFER'}`,
    );
  }
}
if (differs) process.exit(1);
