import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ERR } from '@/domain/errors';
import { fail } from '@/domain/api';

/** True when `dir` holds a built web app. */
export function hasWebDist(dir: string): boolean {
  return existsSync(join(resolve(dir), 'index.html'));
}

/**
 * Serves the built SPA under /busi/ (docs/product-rules.md#screens-and-routes). Unknown /busi/* paths answer index.html so
 * client-side routes survive a reload. Register with `{ prefix: BASE_PATH }` only when the dist exists.
 */
export async function staticWebPlugin(app: FastifyInstance, opts: { root: string }): Promise<void> {
  await app.register(fastifyStatic, { root: resolve(opts.root), prefix: '/', index: ['index.html'] });
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
