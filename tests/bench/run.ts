// `npm run bench`: runs every benchmark in tests/bench one after another (each in its own
// process, so one's memory does not skew the next) and prints what each measures.
// `npm run bench -- physique` runs only the benchmarks whose file name contains "physique" (a name that is exactly one
// file's, as `load` is load.ts's, runs that one only: the docs' commands name one bench each);
// everything after the name is passed on to each benchmark as it is, so `--flag value`, `--flag=value`
// and positional arguments all arrive (e.g. `npm run bench -- dashboard --sizes 20000 --quick`).
// BENCH_DRY=1 only lists the benchmarks that would run and the arguments each would get.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The name filter (the first argument, unless it is a flag) and the arguments for the benchmarks. */
export function benchArgs(args: readonly string[]): { filter: string; passOn: string[] } {
  const [first = '', ...rest] = args;
  return first.startsWith('-') ? { filter: '', passOn: [...args] } : { filter: first, passOn: rest };
}

const dir = import.meta.dirname;
const { filter, passOn } = benchArgs(process.argv.slice(2));
const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'run.ts');
const benches = (files.includes(`${filter}.ts`) ? [`${filter}.ts`] : files.filter((f) => f.includes(filter))).sort();

if (process.env.BENCH_DRY) {
  for (const file of benches) console.log(file, JSON.stringify(passOn));
  process.exit(0);
}

let failed = 0;
for (const file of benches) {
  console.log(`\n== bench ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file), ...passOn], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`bench ${file} exited with ${r.status}`);
  }
}
process.exit(failed ? 1 : 0);
