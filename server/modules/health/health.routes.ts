import type { FastifyPluginAsync } from 'fastify';
import { readiness } from './health.service';

/**
 * Liveness and readiness for a load balancer (docs/product-rules.md#health), outside the `{code, data, msg}` envelope
 * like any health probe: `/api/health` answers while the process serves requests; `/api/health/ready` answers 200 only
 * when the database is reachable and its migrations are current, else 503 naming what is wrong. While the server
 * closes, Fastify answers every new request 503 (`return503OnClosing`), so traffic drains before in-flight work ends.
 * Hand routes: public probes outside the envelope, which the action kit always answers.
 */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  // A probe may ask with HEAD (server/app.ts registers no HEAD twins otherwise).
  app.get('/health', { exposeHeadRoute: true }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/health/ready', { exposeHeadRoute: true }, async (_request, reply) => {
    const state = await readiness(app.db);
    reply.header('cache-control', 'no-store');
    return reply.status(state.ready ? 200 : 503).send(state);
  });
};
