/**
 * Builds the server for `npm start` (docs/decisions/065-built-server.md): server/main.ts and everything of ours it
 * imports (server/, src/domain) become plain JavaScript in dist/server, split where the code imports lazily (the demo
 * seed, the PDF documents, …), so a production start loads a few files without a TypeScript loader. The pure-JavaScript
 * packages a start loads (BUNDLED, with what they import) are bundled in too, so Node does not resolve, read and wrap
 * their hundreds of files one by one; every other package stays an import, resolved at run time as from source. Two
 * folders up from dist/server is the project, as from server/<folder>: the files found beside the code (locales,
 * migrations) are found the same way.
 *
 *   tsx scripts/build-server.ts        (then: node dist/server/main.js)
 */
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = resolve(ROOT, 'dist/server');

/**
 * Packages bundled into dist/server: plain JavaScript that finds no file beside itself at run time. PGlite (its
 * WebAssembly and data files), node-postgres and pg-boss (loaded only on PostgreSQL or after listening), sharp
 * (native), svg-captcha and the fonts (files read by path), the PDF, S3, tus and Swagger UI packages (loaded by some
 * requests only, or serving their own files) and @fastify/swagger (it reads its package.json by path) stay in
 * node_modules.
 */
const BUNDLED = ['fastify', 'fastify-plugin', 'fastify-type-provider-zod', '@fastify/helmet', '@fastify/multipart', '@fastify/rate-limit', '@fastify/static', 'drizzle-orm', 'zod', 'i18next'];
/** Never bundled, even when a bundled package imports them. */
const EXTERNAL = ['@electric-sql/pglite', 'pg', 'pg-native', 'pg-boss', 'pg-copy-streams'];

const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

const chooseBundled: Plugin = {
  name: 'choose-bundled',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@/') || args.path.startsWith('node:')) return undefined;
      const pkg = packageOf(args.path);
      if (EXTERNAL.includes(pkg)) return { path: args.path, external: true };
      // Ours import only the chosen packages into the bundle; what a bundled package imports comes with it.
      const fromOurs = !args.importer.includes('/node_modules/');
      if (fromOurs && !BUNDLED.includes(pkg)) return { path: args.path, external: true };
      return undefined;
    });
  },
};

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
  // The `@/` paths of tsconfig.json.
  tsconfig: 'tsconfig.server.json',
  plugins: [chooseBundled],
  // The bundled CommonJS packages call `require` for Node's modules: ESM has none, so every chunk makes one.
  banner: { js: "import { createRequire as __tiyuCreateRequire } from 'node:module'; const require = __tiyuCreateRequire(import.meta.url);" },
  // `node --enable-source-maps dist/server/main.js` prints stack traces in server/*.ts.
  sourcemap: 'linked',
  logLevel: 'warning',
});
