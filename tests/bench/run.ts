// `npm run bench`: runs every benchmark in tests/bench one after another (each in its own
// process, so one's memory does not skew the next) and prints what each measures.
// `npm run bench -- physique` runs only the benchmarks whose file name contains "physique";
// flags (e.g. `npm run bench -- dashboard --quick`) are passed on to each benchmark.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = import.meta.dirname;
const args = process.argv.slice(2);
const filter = args.find((a) => !a.startsWith('-')) ?? '';
const flags = args.filter((a) => a.startsWith('-'));
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && f.includes(filter))
  .sort();

let failed = 0;
for (const file of benches) {
  console.log(`\n== bench ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file), ...flags], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`bench ${file} exited with ${r.status}`);
  }
}
process.exit(failed ? 1 : 0);
