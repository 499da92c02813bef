import fp from 'fastify-plugin';
import type { Db } from '../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** The clock every rule reads (token and captcha expiry, lockout); tests inject their own. */
    now(): Date;
  }
}

export interface DbPluginOptions {
  db: Db;
  now: () => Date;
}

/** Makes the database and the clock available to every module. */
export const dbPlugin = fp<DbPluginOptions>(
  async (app, opts) => {
    app.decorate('db', opts.db);
    app.decorate('now', opts.now);
  },
  { name: 'tiyu-db' },
);
