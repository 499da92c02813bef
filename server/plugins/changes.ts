import fp from 'fastify-plugin';
import { ChangeFeed } from '../lib/change-feed';

declare module 'fastify' {
  interface FastifyInstance {
    /** Committed writes, table by table, as this instance heard them (server/lib/change-feed.ts). */
    changes: ChangeFeed;
  }
}

/** The change feed, opened on the app's database and closed with the app. */
export const changesPlugin = fp(
  async (app) => {
    const feed = await ChangeFeed.open(app.db);
    app.decorate('changes', feed);
    app.addHook('onClose', () => feed.close());
  },
  { name: 'tiyu-changes', dependencies: ['tiyu-db'] },
);
