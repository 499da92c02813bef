/**
 * Scoring engine throughput: item scores per second through the public engine (scoreItem with an input object and
 * an ItemScore answer; scoreStudent per item), beside two floors: a bare typed-array scan over the very same
 * threshold tables and the compiled lookup read over slots computed beforehand, measured in the same run (best of 5 rounds over 1,000,000 random results). Target: ≥ 10 M item
 * scores/s for scoreItem. Prints numbers; asserts nothing.
 *
 *   npx tsx tests/bench/scoring.ts [--n 1000000]      npm run bench -- scoring
 */
import { parseArgs } from 'node:util';
import { LOWER_IS_BETTER, tableScore } from '@/domain/physique/lookup';
import { scoreItem, scoreStudent, type ScoreItemInput, type StudentResults } from '@/domain/physique/score';
import { getStandard, GRADES, gradeTable, lookupSlot, type Gender, type Grade } from '@/domain/physique/standard';

const { values: args } = parseArgs({ options: { n: { type: 'string', default: '1000000' } } });
const N = Number(args.n);
const ROUNDS = 5;

// Deterministic inputs: every tested threshold item of every grade and gender, raw values spread over the table and a
// little beyond both ends.
let seed = 42;
const next = () => ((seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32);
const lookup = getStandard().lookup;
const inputs: ScoreItemInput[] = [];
const slots = new Int32Array(N);
const raws = new Float64Array(N);
const combos: { grade: Grade; gender: Gender; item: ScoreItemInput['item']; lo: number; hi: number }[] = [];
for (const grade of GRADES) {
  for (const gender of ['male', 'female'] as const) {
    const t = gradeTable(grade, gender);
    for (const spec of t.specs) {
      const table = t.byItem[spec.item];
      if (!table || table.kind !== 'table') continue;
      const a = table.thresholds[0];
      const b = table.thresholds[table.thresholds.length - 1];
      const pad = Math.abs(a - b) * 0.1;
      combos.push({ grade, gender, item: spec.item, lo: Math.min(a, b) - pad, hi: Math.max(a, b) + pad });
    }
  }
}
for (let i = 0; i < N; i++) {
  const c = combos[Math.floor(next() * combos.length)];
  const raw = Math.round((c.lo + next() * (c.hi - c.lo)) * 10) / 10;
  inputs.push({ grade: c.grade, gender: c.gender, item: c.item, raw });
  slots[i] = lookupSlot(c.grade, c.gender, c.item);
  raws[i] = raw;
}
// Whole students for scoreStudent: every item of the grade with a value.
const students: { grade: Grade; gender: Gender; results: StudentResults; items: number }[] = [];
for (let i = 0; i < N / 8; i++) {
  const grade = GRADES[Math.floor(next() * GRADES.length)];
  const gender: Gender = next() < 0.5 ? 'male' : 'female';
  const t = gradeTable(grade, gender);
  const results: StudentResults = {};
  for (const spec of t.specs) {
    const table = t.byItem[spec.item];
    if (!table) continue;
    if (table.kind === 'bmi') results.bmi = 14 + Math.round(next() * 140) / 10;
    else results[spec.item] = table.thresholds[Math.floor(next() * table.thresholds.length)];
  }
  students.push({ grade, gender, results, items: t.specs.length });
}
const studentItems = students.reduce((n, s) => n + s.items, 0);

function best(fn: () => number): { perSecond: number; check: number } {
  let bestMs = Infinity;
  let check = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    check = fn();
    bestMs = Math.min(bestMs, performance.now() - t);
  }
  return { perSecond: 1000 / bestMs, check };
}

/** The floor: the same flattened threshold rows, scanned inline with no engine around them. */
function floor(): number {
  const th = lookup.thresholds;
  const sc = lookup.scores;
  let sum = 0;
  for (let i = 0; i < N; i++) {
    const slot = slots[i];
    const raw = raws[i];
    const start = lookup.rowStart[slot];
    const end = start + lookup.rowCount[slot];
    let s = 0;
    if (lookup.kind[slot] === LOWER_IS_BETTER) {
      for (let j = start; j < end; j++)
        if (raw <= th[j]) {
          s = sc[j];
          break;
        }
    } else {
      for (let j = start; j < end; j++)
        if (raw >= th[j]) {
          s = sc[j];
          break;
        }
    }
    sum += s;
  }
  return sum;
}

/** The floor: the compiled lookup itself over slots computed beforehand (no input object, no answer object). */
function lookupFloor(): number {
  let sum = 0;
  for (let i = 0; i < N; i++) sum += tableScore(lookup, slots[i], raws[i]);
  return sum;
}

/** The lookup from the input objects: item name → slot (one Map read) and the table read, no answer object. */
function slotAndLookup(): number {
  let sum = 0;
  for (let i = 0; i < N; i++) {
    const x = inputs[i];
    sum += tableScore(lookup, lookupSlot(x.grade, x.gender, x.item), x.raw);
  }
  return sum;
}

function engine(): number {
  let sum = 0;
  for (let i = 0; i < N; i++) sum += scoreItem(inputs[i]).score;
  return sum;
}

function perStudent(): number {
  let sum = 0;
  for (const s of students) sum += scoreStudent(s).total ?? 0;
  return sum;
}

const f = best(floor);
const lf = best(lookupFloor);
const sl = best(slotAndLookup);
const e = best(engine);
const st = best(perStudent);
if (f.check !== e.check || lf.check !== e.check || sl.check !== e.check) throw new Error(`scoreItem and the floor disagree: Σ ${e.check} vs ${f.check}`);
const m = (x: number) => `${(x / 1e6).toFixed(1).padStart(6)} M/s`;
console.log(`scoring: ${N.toLocaleString('en')} random item results over ${combos.length} tables, best of ${ROUNDS}`);
console.log(`  floor: bare typed-array scan over the same tables   ${m(f.perSecond * N)}`);
console.log(`  floor: the typed-array lookup over computed slots    ${m(lf.perSecond * N)}`);
console.log(`  slot from the input object + lookup                 ${m(sl.perSecond * N)}`);
console.log(`  scoreItem (input object → ItemScore)                ${m(e.perSecond * N)}   ${((e.perSecond / f.perSecond) * 100).toFixed(0)} % of the scan floor, ${((e.perSecond / lf.perSecond) * 100).toFixed(0)} % of the lookup floor`);
console.log(`  scoreStudent (per item, with totals)                ${m(st.perSecond * studentItems)}`);
console.log(`  target scoreItem ≥ 10 M item scores/s: ${e.perSecond * N >= 10e6 ? 'met' : 'MISSED'}`);
