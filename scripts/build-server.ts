/**
 * Builds the server for `npm start` (docs/decisions/065-built-server.md): server/main.ts and everything of ours it
 * imports (server/, src/domain) become plain JavaScript in dist/server, split where the code imports lazily (the demo
 * seed, the PDF documents, …), so a production start loads a few files without a TypeScript loader. Packages in
 * node_modules stay imports, resolved at run time as from source. Two folders up from dist/server is the project, as
 * from server/<folder>: the files found beside the code (locales, migrations) are found the same way.
 *
 *   tsx scripts/build-server.ts        (then: node dist/server/main.js)
 */
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = resolve(ROOT, 'dist/server');

await rm(OUT, { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  entryPoints: ['server/main.ts'],
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // The `@/` paths of tsconfig.json; packages load from node_modules at run time.
  tsconfig: 'tsconfig.server.json',
  packages: 'external',
  // `node --enable-source-maps dist/server/main.js` prints stack traces in server/*.ts.
  sourcemap: 'linked',
  logLevel: 'warning',
});
