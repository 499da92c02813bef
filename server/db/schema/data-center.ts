import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { WallPlaylist } from '../../../src/domain/data-center/wall';
import { users } from './auth';
import { orgs } from './orgs';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Read-only wall-display links (issue 4 §2): one organisation, one playlist. Only the SHA-256 of the token is
 * stored, so the table alone opens no wall; revoking sets `revoked_at` (the row stays for the list and the log).
 */
export const screenLinks = pgTable(
  'screen_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The organisation the wall shows (a school, or a bureau for a bureau-wide wall). */
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    /** The tenant organisation whose administrators manage the link (a bureau may create links for its schools). */
    ownerOrgId: uuid('owner_org_id')
      .notNull()
      .references(() => orgs.id),
    tokenHash: text('token_hash').notNull(),
    name: text('name').notNull(),
    playlist: jsonb('playlist').$type<WallPlaylist>().notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: at('created_at').notNull().defaultNow(),
    revokedAt: at('revoked_at'),
    revokedBy: uuid('revoked_by').references(() => users.id),
    /** Last time a wall fetched config or a scene (updated at most once a minute). */
    lastSeenAt: at('last_seen_at'),
  },
  (t) => [uniqueIndex('screen_links_token_hash_uq').on(t.tokenHash), index('screen_links_owner_idx').on(t.ownerOrgId, t.createdAt), index('screen_links_org_idx').on(t.orgId)],
);
