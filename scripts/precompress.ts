/**
 * Precompresses the build's hashed assets once, at build time: a `.br` (brotli, quality 11) and a `.gz` (gzip, level 9)
 * beside each file, which the server sends with `content-encoding` when the browser accepts it
 * (server/plugins/static-web.ts, @fastify/static `preCompressed`). Compressing at build time lets us use the slowest,
 * smallest settings without spending CPU per request.
 *
 * node:zlib rather than a plugin from the registry: it has brotli built in, the step is thirty lines, and the project
 * adds no build dependency for it (vite-plugin-compression has not been released since 2022; vite-plugin-compression2
 * does the same thing with a dependency tree of its own).
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text formats worth compressing (fonts and images are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|json|svg|html|txt|map)$/i;
/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 1024;

/** Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir` (recursively) that they make smaller. */
export async function precompressDir(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number; gzipBytes: number }> {
  const totals = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && COMPRESSIBLE.test(e.name)).map((e) => join(e.parentPath, e.name));
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < MIN_BYTES) return;
      const body = await readFile(file);
      const [br, gzipped] = await Promise.all([
        brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        gz(body, { level: 9 }),
      ]);
      // A copy no smaller than the file would only cost a disk read.
      if (br.length < body.length) await writeFile(`${file}.br`, br);
      if (gzipped.length < body.length) await writeFile(`${file}.gz`, gzipped);
      totals.files++;
      totals.bytes += body.length;
      totals.brotliBytes += Math.min(br.length, body.length);
      totals.gzipBytes += Math.min(gzipped.length, body.length);
    }),
  );
  return totals;
}

/** Vite plugin: precompresses the output directory after a production build has written it. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'tiyu-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}
