import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orgs } from './orgs';

/**
 * Dictionaries (字典管理): an organisation's own entries of an extendable dictionary (docs/product-rules.md#dictionaries).
 * The platform's entries are not stored: they are the domain's code lists (src/domain/dictionaries). An entry is seen
 * by its organisation and every organisation below it; its code is what records store, so it never changes.
 */
export const dictionaryEntries = pgTable(
  'dictionary_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    dictionary: text('dictionary').notNull(),
    code: text('code').notNull(),
    labelZhCn: text('label_zh_cn').notNull(),
    labelZhTw: text('label_zh_tw').notNull().default(''),
    labelEnUs: text('label_en_us').notNull().default(''),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('dictionary_entries_org_code_uq').on(t.orgId, t.dictionary, t.code), index('dictionary_entries_dictionary_idx').on(t.dictionary, t.code)],
);
