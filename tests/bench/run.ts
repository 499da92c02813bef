// `npm run bench`: runs every benchmark in tests/bench one after another (each in its own
// process, so one's memory does not skew the next) and prints what each measures.
// `npm run bench -- physique` runs only the benchmarks whose file name contains "physique".
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = import.meta.dirname;
const filter = process.argv[2] ?? '';
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && f.includes(filter))
  .sort();

let failed = 0;
for (const file of benches) {
  console.log(`\n== bench ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`bench ${file} exited with ${r.status}`);
  }
}
process.exit(failed ? 1 : 0);
