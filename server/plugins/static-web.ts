import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ERR } from '@/domain/errors';
import { fail } from '@/domain/api';

/** True when `dir` holds a built web app. */
export function hasWebDist(dir: string): boolean {
  return existsSync(join(resolve(dir), 'index.html'));
}

/** Vite's output: every file under assets/ has its content hash in its name, so it never changes under that name. */
const HASHED = `${sep}assets${sep}`;

/**
 * Serves the built SPA under /busi/ (docs/product-rules.md#screens-and-routes). Unknown /busi/* paths answer index.html so
 * client-side routes survive a reload. Register with `{ prefix: BASE_PATH }` only when the dist exists.
 *
 * Hashed assets are cached for a year without revalidation (a screen loads a hundred chunks; with `max-age=0` each was
 * asked again on every page load); index.html and the unhashed files are revalidated every time, so a new build is
 * picked up on the next load. The build writes a brotli and a gzip copy beside each text file (scripts/precompress.ts);
 * `preCompressed` sends the one the browser accepts, with `content-encoding` and `vary: accept-encoding` (the login
 * page's JavaScript went out uncompressed, 608 kB instead of about 170 kB).
 */
export async function staticWebPlugin(app: FastifyInstance, opts: { root: string }): Promise<void> {
  const root = resolve(opts.root);
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    index: ['index.html'],
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, path) => {
      reply.header('cache-control', path.startsWith(root + HASHED) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.setNotFoundHandler((request, reply) => {
    // A missing file (a stale hashed asset, say) must stay a 404: only page routes get the SPA.
    const path = request.url.split('?')[0];
    const isFile = /\.[a-z0-9]+$/i.test(path.slice(path.lastIndexOf('/') + 1));
    if ((request.method === 'GET' || request.method === 'HEAD') && !isFile) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(fail(404, request.t(ERR.notFound)));
  });
}
