import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';

/**
 * A user's column settings of one list (hidden, order, pinned, density; src/domain/list-settings), so they follow the
 * user to another browser (docs/decisions/049-list-settings-on-the-server.md). One row per user and list key
 * (`<catalogue page key>:<list id>`); the JSON is checked by the domain schema on write and read leniently.
 */
export const listSettings = pgTable(
  'list_settings',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    listKey: text('list_key').notNull(),
    settings: jsonb('settings').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.listKey] }), index('list_settings_user_idx').on(t.userId, t.updatedAt)],
);
