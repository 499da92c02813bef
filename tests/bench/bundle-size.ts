/**
 * Bundle size of the first screen: builds the web app with Vite into a temporary directory and reports the gzip size
 * of the JavaScript the login route loads — the entry chunk, every chunk it imports statically, and the locale chunks
 * of the login namespaces in the default language (src/lib/i18n.ts loads them before the first paint) — against the
 * target, with the largest modules; and checks that none of it contains ECharts or spreadsheet (xlsx, papaparse) code.
 * Run: npx tsx tests/bench/bundle-size.ts. Prints numbers only; nothing is asserted.
 * BENCH_MODULES=<text> also lists the login route's modules whose path contains the text (e.g. node_modules/zod).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';
import { DEFAULT_LOCALE } from '../../src/domain/constants';

/** docs/architecture.md (performance): the login route's JavaScript, gzip. */
const TARGET_GZIP = 180 * 1024;
/** The namespaces src/lib/i18n.ts loads before the first paint (LOGIN_NAMESPACES; that module needs a browser). */
const LOGIN_NAMESPACES = ['common', 'auth', 'validation', 'errors', 'ui'];

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
    // The login namespaces of the default language: dynamic imports, but awaited before the first paint.
    const localeChunk = (ns: string) =>
      [...chunks.values()].find((c) => c.facadeModuleId?.endsWith(`/locales/${DEFAULT_LOCALE}/${ns}.json`))?.fileName;
    for (const ns of LOGIN_NAMESPACES) {
      const file = localeChunk(ns);
      if (!file) throw new Error(`no chunk for locales/${DEFAULT_LOCALE}/${ns}.json`);
      visit(file);
    }

    const css = items.filter((i) => i.type === 'asset' && i.fileName.endsWith('.css') && entry.viteMetadata?.importedCss.has(i.fileName));
    const gz = (code: string | Uint8Array) => gzipSync(code).length;

    console.log(`vite build: ${(buildMs / 1000).toFixed(1)} s, ${chunks.size} JavaScript chunks`);
    console.log(`\nlogin route JavaScript (entry + static imports + ${DEFAULT_LOCALE} login namespaces):`);
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
    console.log(`  ${'target'.padEnd(44)} ${''.padStart(10)}  gzip ${kb(TARGET_GZIP).padStart(9)}  ${zipped <= TARGET_GZIP ? 'met' : 'MISSED'}`);
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
    console.log('\nlargest packages in it (module code as rendered into the chunks, minified, before gzip):');
    for (const [pkg, size] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${pkg.padEnd(32)} ${kb(size).padStart(10)}`);
    console.log('\nlargest modules in it:');
    const short = (id: string) => id.replace(/^.*node_modules\//, '').replace(`${process.cwd()}/`, '');
    for (const { id, size } of [...sizes].sort((a, b) => b.size - a.size).slice(0, 15)) console.log(`  ${short(id).padEnd(64)} ${kb(size).padStart(10)}`);

    const modules = initial.flatMap((c) => c.moduleIds);
    if (process.env.BENCH_MODULES) for (const m of modules.filter((id) => id.includes(process.env.BENCH_MODULES!))) console.log("  module", m);
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
