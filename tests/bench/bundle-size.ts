/**
 * Bundle size of the first screen (issue 4 §3): builds the web app with Vite into a temporary directory and
 * reports the gzip size of the JavaScript the login route loads — the entry chunk plus every chunk it imports
 * statically — and checks that none of it contains ECharts or spreadsheet (xlsx, papaparse) code.
 * Run: npx tsx tests/bench/bundle-size.ts. Prints numbers only; nothing is asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';

const LAZY_ONLY = [
  { name: 'ECharts', test: /node_modules\/(echarts|zrender|echarts-for-react)\// },
  { name: 'xlsx', test: /node_modules\/(xlsx|@e965\/xlsx)\// },
  { name: 'papaparse', test: /node_modules\/papaparse\// },
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

function isChunk(item: Rollup.OutputChunk | Rollup.OutputAsset): item is Rollup.OutputChunk {
  return item.type === 'chunk';
}

async function main() {
  const outDir = mkdtempSync(join(tmpdir(), 'tiyu-bundle-'));
  try {
    const started = performance.now();
    const result = await build({ configFile: 'vite.config.ts', logLevel: 'warn', build: { outDir, emptyOutDir: true, reportCompressedSize: false } });
    const buildMs = performance.now() - started;
    const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
    const items = outputs.flatMap((o) => o.output);
    const chunks = new Map(items.filter(isChunk).map((c) => [c.fileName, c]));
    const entry = [...chunks.values()].find((c) => c.isEntry);
    if (!entry) throw new Error('no entry chunk in the build output');

    // The entry and its static imports, transitively: what the browser fetches before the login screen shows.
    const initial: Rollup.OutputChunk[] = [];
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const chunk = chunks.get(file);
      if (!chunk) return;
      initial.push(chunk);
      chunk.imports.forEach(visit);
    };
    visit(entry.fileName);

    const css = items.filter((i) => i.type === 'asset' && i.fileName.endsWith('.css') && entry.viteMetadata?.importedCss.has(i.fileName));
    const gz = (code: string | Uint8Array) => gzipSync(code).length;

    console.log(`vite build: ${(buildMs / 1000).toFixed(1)} s, ${chunks.size} JavaScript chunks`);
    console.log('\nlogin route JavaScript (entry + static imports):');
    let raw = 0;
    let zipped = 0;
    for (const c of initial) {
      const size = Buffer.byteLength(c.code);
      const g = gz(c.code);
      raw += size;
      zipped += g;
      console.log(`  ${c.fileName.padEnd(44)} ${kb(size).padStart(10)}  gzip ${kb(g).padStart(9)}`);
    }
    console.log(`  ${'total'.padEnd(44)} ${kb(raw).padStart(10)}  gzip ${kb(zipped).padStart(9)}`);
    for (const a of css) {
      if (a.type !== 'asset') continue;
      console.log(`  (css) ${a.fileName.padEnd(38)} ${kb(Buffer.byteLength(a.source)).padStart(10)}  gzip ${kb(gz(a.source)).padStart(9)}`);
    }

    // The biggest modules of the first screen: where to look when it grows.
    const sizes = initial.flatMap((c) => Object.entries(c.modules).map(([id, m]) => ({ id, size: m.renderedLength })));
    const byPackage = new Map<string, number>();
    for (const { id, size } of sizes) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id)?.[1] ?? (id.includes('/locales/') ? 'locales/*.json' : 'src');
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + size);
    }
    console.log('\nlargest parts of it (module code as rendered into the chunks, before minifying and gzip):');
    for (const [pkg, size] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${pkg.padEnd(32)} ${kb(size).padStart(10)}`);

    const modules = initial.flatMap((c) => c.moduleIds);
    console.log('\nlazy-only libraries in the login route:');
    for (const lib of LAZY_ONLY) {
      const found = modules.filter((m) => lib.test.test(m));
      console.log(`  ${lib.name.padEnd(10)} ${found.length === 0 ? 'absent (ok)' : `PRESENT in ${found.length} modules`}`);
    }

    // Where the heavy libraries went instead, for the record.
    console.log('\nlazy chunks holding them:');
    for (const lib of LAZY_ONLY) {
      const holders = [...chunks.values()].filter((c) => c.moduleIds.some((m) => lib.test.test(m)));
      const total = holders.reduce((sum, c) => sum + gz(c.code), 0);
      console.log(`  ${lib.name.padEnd(10)} ${holders.map((c) => c.fileName).join(', ') || '-'} (gzip ${kb(total)})`);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
