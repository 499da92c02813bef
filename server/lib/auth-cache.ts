import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { authEpoch } from '../db/schema/auth';

/** Entries kept per map; past this the oldest go first (a bound, not a tuning knob: one entry per live session). */
const MAX_ENTRIES = 20_000;

/**
 * What every signed-in request would otherwise read again (the session behind a token, the user's scope with its
 * permission codes), kept in process while the database's auth epoch is unchanged. Triggers bump the epoch in the
 * same transaction as any write those reads depend on (migration 0014_load), so a revoked session, a disabled account
 * or organisation, or a permission taken from a role takes effect on the next request, on every instance: each
 * request reads the epoch (one primary-key read) and a changed value empties the cache.
 *
 * An entry is stored only under the epoch that was read before it was loaded, so a load that raced a change never
 * outlives the change.
 */
export class AuthCache<Session, Scope> {
  private epoch = -1;
  private readonly sessions = new Map<string, Session>();
  private readonly scopes = new Map<string, Scope>();

  /** Reads the database's epoch and empties the cache when it moved on; returns the epoch this request runs under. */
  async check(db: DbOrTx): Promise<number> {
    const [row] = await db.select({ value: authEpoch.value }).from(authEpoch).where(eq(authEpoch.id, 1));
    // No row (a database without the migration): NaN equals nothing, so nothing is cached.
    const value = row?.value ?? NaN;
    if (value > this.epoch) {
      this.epoch = value;
      this.sessions.clear();
      this.scopes.clear();
    }
    return value;
  }

  session(epoch: number, key: string): Session | undefined {
    return epoch === this.epoch ? this.sessions.get(key) : undefined;
  }

  keepSession(epoch: number, key: string, value: Session): void {
    if (epoch === this.epoch) put(this.sessions, key, value);
  }

  scope(epoch: number, key: string): Scope | undefined {
    return epoch === this.epoch ? this.scopes.get(key) : undefined;
  }

  keepScope(epoch: number, key: string, value: Scope): void {
    if (epoch === this.epoch) put(this.scopes, key, value);
  }
}

function put<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, value);
}
