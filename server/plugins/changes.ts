import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ChangeFeed } from '../lib/change-feed';

declare module 'fastify' {
  interface FastifyInstance {
    /** Committed writes, table by table, as this instance heard them (server/lib/change-feed.ts). */
    changes: ChangeFeed;
  }
  interface FastifyRequest {
    /** This request's sync with the change feed, started by its first check (`changesSynced`). */
    changesSync: Promise<void> | null;
  }
}

/**
 * The request's one sync with the change feed: started by its first check (the auth cache's), shared by the later ones
 * (the read cache's, a kept summary's). It was started after the request began, so it proves each of them never older
 * than a write committed before the request (docs/decisions/027-read-cache-and-change-feed.md).
 */
export function changesSynced(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  return (request.changesSync ??= app.changes.synced());
}

/** The change feed, opened on the app's database and closed with the app. */
export const changesPlugin = fp(
  async (app) => {
    const feed = await ChangeFeed.open(app.db);
    app.decorate('changes', feed);
    app.decorateRequest('changesSync', null);
    app.addHook('onClose', () => feed.close());
  },
  { name: 'tiyu-changes', dependencies: ['tiyu-db'] },
);
