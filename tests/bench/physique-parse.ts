/**
 * Benchmark of the national-template import path (docs/product-rules.md#physique-results: score import): reading the .xlsx, mapping and validating rows, scoring.
 * Run: npx tsx tests/bench/physique-parse.ts [rows=50000]. Each measurement runs in its own process so its peak RSS is its own.
 * Prints numbers only; speed is never asserted (it drifts with the machine).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as XLSX from 'xlsx';
import { isBlankRow, mapHeaders, parseTemplateRow, type NationalTemplateRow } from '@/domain/physique/national-template';
import { scoreStudent } from '@/domain/physique/score';
import { openXlsx, readXlsxRows } from '../../server/lib/spreadsheet/xlsx-reader';
import { writeXlsx } from '../../server/lib/spreadsheet/xlsx-writer';
import { nationalTemplateRows } from '../support/national-template-fixture';

type Mode = 'scanner' | 'scanner-collect' | 'sheetjs' | 'pipeline' | 'score';
const MODES: { mode: Mode; label: string }[] = [
  { mode: 'scanner', label: 'scanner, streamed (openXlsx batches)' },
  { mode: 'scanner-collect', label: 'scanner, all rows in memory (readXlsxRows)' },
  { mode: 'sheetjs', label: 'SheetJS 0.20.3 read, dense mode' },
  { mode: 'pipeline', label: 'scanner + mapHeaders + parseTemplateRow + scoreStudent' },
  { mode: 'score', label: 'scoreStudent alone (rows pre-parsed)' },
];

interface Result {
  rows: number;
  ms: number;
  peakRssMiB: number;
  note?: string;
}

const peakRss = () => process.resourceUsage().maxRSS / 1024;

async function pipeline(buf: Buffer): Promise<{ rows: number; note: string }> {
  const source = await openXlsx(buf);
  let mapping: ReturnType<typeof mapHeaders> | null = null;
  let ok = 0;
  let failed = 0;
  let complete = 0;
  let rows = 0;
  for await (const batch of source.batches()) {
    for (const { row, cells } of batch) {
      if (!mapping) {
        mapping = mapHeaders(cells);
        continue;
      }
      if (isBlankRow(cells)) continue;
      rows++;
      const parsed = parseTemplateRow(cells, mapping, row, { date1904: source.date1904 });
      if (!parsed.ok) {
        failed++;
        continue;
      }
      ok++;
      const { grade, gender, results } = parsed.row;
      if (scoreStudent({ grade, gender, results }).complete) complete++;
    }
  }
  return { rows, note: `${ok} valid, ${failed} rejected, ${complete} complete totals` };
}

async function child(mode: Mode, file: string): Promise<Result> {
  const buf = readFileSync(file);
  if (mode === 'score') {
    // Parse outside the clock, then score every valid row; repeated to get above timer noise.
    const { rows } = await readXlsxRows(buf);
    const mapping = mapHeaders(rows[0]);
    const parsed: NationalTemplateRow[] = [];
    for (let i = 1; i < rows.length; i++) {
      const p = parseTemplateRow(rows[i], mapping, i + 1);
      if (p.ok) parsed.push(p.row);
    }
    const repeat = 10;
    let complete = 0;
    const t0 = performance.now();
    for (let k = 0; k < repeat; k++) for (const r of parsed) if (scoreStudent({ grade: r.grade, gender: r.gender, results: r.results }).complete) complete++;
    const ms = (performance.now() - t0) / repeat;
    return { rows: parsed.length, ms, peakRssMiB: peakRss(), note: `${complete / repeat} complete per pass, ${repeat} passes` };
  }
  const t0 = performance.now();
  let rows = 0;
  let note: string | undefined;
  if (mode === 'scanner') {
    const source = await openXlsx(buf);
    let cells = 0;
    for await (const batch of source.batches()) for (const r of batch) {
      rows++;
      for (const c of r.cells) if (c !== null) cells++;
    }
    note = `engine ${source.engine}, ${cells} cells`;
  } else if (mode === 'scanner-collect') {
    const r = await readXlsxRows(buf);
    rows = r.rows.length;
    note = `engine ${r.engine}`;
  } else if (mode === 'sheetjs') {
    const wb = XLSX.read(buf, { type: 'buffer', dense: true, cellDates: false, cellHTML: false, cellText: false, cellFormula: false });
    const data = wb.Sheets[wb.SheetNames[0]]['!data'] ?? [];
    let cells = 0;
    for (const r of data) {
      if (!r) continue;
      rows++;
      for (const c of r) if (c) cells++;
    }
    note = `${cells} cells`;
  } else {
    ({ rows, note } = await pipeline(buf));
  }
  return { rows, ms: performance.now() - t0, peakRssMiB: peakRss(), note };
}

function fixtureFile(rows: number): string {
  const file = join(tmpdir(), `tiyu-national-template-${rows}.xlsx`);
  if (!existsSync(file)) {
    const t0 = performance.now();
    const fixture = nationalTemplateRows({ rows, invalidShare: 0.02 });
    const buf = writeXlsx([{ name: '体测成绩', rows: fixture.rows, textColumns: [1, 3] }]);
    writeFileSync(file, buf);
    console.log(`generated ${file}: ${rows} rows, ${(buf.length / 1048576).toFixed(1)} MiB, ${fixture.invalid.size} broken rows, written in ${(performance.now() - t0).toFixed(0)} ms (writeXlsx)`);
  }
  return file;
}

async function main() {
  const self = fileURLToPath(import.meta.url);
  if (process.argv[2] === '--child') {
    const result = await child(process.argv[3] as Mode, process.argv[4]);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const rows = Number(process.argv[2] ?? 50_000);
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const file = fixtureFile(rows);
  console.log(`file ${file} (${(readFileSync(file).length / 1048576).toFixed(1)} MiB), best of ${runs} fresh processes per line, Node ${process.version}\n`);
  const line = (...cols: string[]) => console.log(cols[0].padEnd(58) + cols.slice(1).map((c) => c.padStart(12)).join(''));
  line('measurement', 'rows', 'ms', 'rows/s', 'peak RSS');
  for (const { mode, label } of MODES) {
    let best: Result | null = null;
    let maxRss = 0;
    for (let i = 0; i < runs; i++) {
      const out = spawnSync(process.execPath, [...process.execArgv, self, '--child', mode, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (out.status !== 0) throw new Error(`${mode} failed: ${out.stderr}`);
      const r = JSON.parse(out.stdout.trim().split('\n').pop() ?? '{}') as Result;
      maxRss = Math.max(maxRss, r.peakRssMiB);
      if (!best || r.ms < best.ms) best = r;
    }
    if (!best) continue;
    const rate = (best.rows / best.ms) * 1000;
    line(label, String(best.rows), best.ms.toFixed(0), rate >= 1e6 ? `${(rate / 1e6).toFixed(2)}M` : `${(rate / 1e3).toFixed(1)}k`, `${maxRss.toFixed(0)} MiB`);
    if (best.note) console.log(`  ${best.note}`);
  }
}

await main();
