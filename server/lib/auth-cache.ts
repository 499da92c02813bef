import { eq, getTableName } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { authEpoch } from '../db/schema/auth';
import type { ChangeFeed } from './change-feed';

/** Entries kept per map; past this the oldest go first (a bound, not a tuning knob: one entry per live session). */
const MAX_ENTRIES = 20_000;

const EPOCH_TABLE = getTableName(authEpoch);

/**
 * What every signed-in request would otherwise read again (the session behind a token, the user's scope with its
 * permission codes), kept in process while the database's auth epoch is unchanged. Triggers bump the epoch in the
 * same transaction as any write those reads depend on (migration 0014_load), so a revoked session, a disabled account
 * or organisation, or a permission taken from a role takes effect on the next request, on every instance.
 *
 * How a request learns the epoch: while the change feed is live (server/lib/change-feed.ts), from the feed, which hears
 * every committed update of the epoch row before the request goes on (`ChangeFeed.current`), so a cached request runs no
 * statement; otherwise by reading the epoch row (one primary-key read per request).
 *
 * An entry is stored only under the epoch that was current before it was loaded, so a load that raced a change never
 * outlives the change. Epochs are opaque strings that name their source, so a value read from the row never matches
 * one heard from the feed.
 */
export class AuthCache<Session, Scope> {
  private epoch = '';
  /** The highest epoch read from the row while the feed was not live (a slower read may answer an older one). */
  private rowEpoch = -1;
  private readonly sessions = new Map<string, Session>();
  private readonly scopes = new Map<string, Scope>();

  constructor(private readonly feed?: ChangeFeed) {
    feed?.onChange((table) => {
      if (table === null || table === EPOCH_TABLE) this.reset('');
    });
  }

  /** The epoch this request runs under; the cache is emptied whenever it moves on. `synced`: the request's sync with the feed (ChangeFeed.synced). */
  async check(db: DbOrTx, synced?: Promise<void>): Promise<string> {
    const heard = await this.feed?.current([EPOCH_TABLE], null, synced);
    if (heard != null) {
      const epoch = `feed ${heard}`;
      if (epoch !== this.epoch) this.reset(epoch);
      return epoch;
    }
    const [row] = await db.select({ value: authEpoch.value }).from(authEpoch).where(eq(authEpoch.id, 1));
    // No row (a database without the migration): nothing is cached.
    if (!row) return 'none';
    if (row.value > this.rowEpoch || !this.epoch.startsWith('row ')) {
      this.rowEpoch = Math.max(this.rowEpoch, row.value);
      if (this.epoch !== `row ${this.rowEpoch}`) this.reset(`row ${this.rowEpoch}`);
    }
    return `row ${row.value}`;
  }

  session(epoch: string, key: string): Session | undefined {
    return epoch === this.epoch ? this.sessions.get(key) : undefined;
  }

  keepSession(epoch: string, key: string, value: Session): void {
    if (epoch === this.epoch) put(this.sessions, key, value);
  }

  scope(epoch: string, key: string): Scope | undefined {
    return epoch === this.epoch ? this.scopes.get(key) : undefined;
  }

  keepScope(epoch: string, key: string, value: Scope): void {
    if (epoch === this.epoch) put(this.scopes, key, value);
  }

  private reset(epoch: string): void {
    this.epoch = epoch;
    this.sessions.clear();
    this.scopes.clear();
  }
}

function put<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, value);
}
