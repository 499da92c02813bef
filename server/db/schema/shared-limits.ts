import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Request counts of the rate-limited routes (captcha, sign-in, …), one row per route and client per window, so every
 * server instance on one database counts against the same limit (server/lib/shared-limits.ts). Written by raw SQL
 * only; rows past `resets_at` are swept by the store itself.
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetsAt: timestamp('resets_at', { withTimezone: true, mode: 'date' }).notNull(),
});
