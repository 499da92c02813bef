import { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { driverOf, type Db } from '../db/client';
import { isPgPool, loadPg } from '../db/pg-driver';

/** The channel every table's `tiyu_changed` trigger notifies with its table name (migration 0035_changes). */
export const CHANGES_CHANNEL = 'tiyu_changes';

/** How long a lost PostgreSQL listener waits before it connects again. */
const RECONNECT_MS = 1000;

/**
 * What this process knows of committed writes, table by table and organisation by organisation: every statement that
 * writes a table of the database notifies `tiyu_changes` with the table's name, and for a table with `org_id` the
 * organisations of the rows it wrote with their ancestors and descendants (statement-level triggers, migrations
 * 0035_changes and 0036_changes_by_org; PostgreSQL delivers a notification when, and only if, its transaction commits),
 * and the feed keeps the sequence number of the last change it heard per table and per (table, organisation). Caches
 * key their entries by `current(tables, org)`: any later change of one of those tables in the organisation's tree makes
 * the entry unreachable, on every instance that shares the database (docs/decisions/027-read-cache-and-change-feed.md).
 *
 * While the feed is not live (starting, or its PostgreSQL connection lost) `current` answers null and nothing may be
 * served from a cache; when it comes back every table counts as changed, since notifications may have been missed.
 */
export class ChangeFeed {
  #seq = 0;
  /** Sequence number of the last (re)connection: every table counts as changed then. */
  #reset = 0;
  /** Per table: the last change of the whole table (a TRUNCATE, a row without organisation, a table without one). */
  readonly #last = new Map<string, number>();
  /** Per table: the last change of any kind, for a caller without an organisation. */
  readonly #any = new Map<string, number>();
  /** Per `table\norg`: the last change of that table's rows in the organisation, an ancestor or a descendant. */
  readonly #byOrg = new Map<string, number>();
  #live = false;
  #closed = false;
  /** One round trip on the listening connection (PostgreSQL). */
  #ping: (() => Promise<void>) | null = null;
  #pinging: Promise<void> | null = null;
  #next: Promise<void> | null = null;
  #stop: (() => Promise<void>) | null = null;
  readonly #listeners = new Set<(table: string | null) => void>();

  /** Starts listening on the database's driver; a transaction handle or an unknown driver leaves the feed off. */
  static async open(db: Db): Promise<ChangeFeed> {
    const feed = new ChangeFeed();
    const driver = driverOf(db);
    if (driver instanceof PGlite) await feed.#openPglite(driver);
    else if (isPgPool(driver)) await feed.#openPostgres(driver.options);
    return feed;
  }

  /**
   * The newest change among `tables` heard so far (a number that only grows), or null while the feed is not live. Equal
   * answers at two moments mean none of the tables changed in between. With `org`, only changes of rows in that
   * organisation, its ancestors or its descendants count (and whole-table ones): what an answer confined to the
   * organisation's tree can depend on (migration 0036_changes_by_org).
   */
  #version(tables: Iterable<string>, org?: string | null): number | null {
    if (!this.#live) return null;
    let v = this.#reset;
    for (const t of tables) {
      v = Math.max(v, org ? Math.max(this.#last.get(t) ?? 0, this.#byOrg.get(`${t}\n${org}`) ?? 0) : (this.#any.get(t) ?? 0));
    }
    return v;
  }

  /** Calls `listener` with each changed table (whichever organisations), and with null when every table must count as changed. */
  onChange(listener: (table: string | null) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * The newest change among `tables` once this process has heard every change committed before the call (null while
   * the feed is not live): a cache keyed by it never serves an answer older than a write that committed before the
   * request began, whichever instance wrote. PGlite delivers a commit's notifications before the committing statement
   * resolves; on PostgreSQL it costs one round trip on the listening connection, whose server sends the notifications
   * it holds before it answers, shared by every request that asks while the previous one is under way. With `org`, the
   * answer moves only with changes in that organisation's tree (ancestors and descendants): the caller promises its
   * answer reads no other organisation's rows. `synced` is a `synced()` the caller started earlier in the same request.
   */
  async current(tables: Iterable<string>, org?: string | null, synced: Promise<void> = this.synced()): Promise<number | null> {
    await synced;
    return this.#version(tables, org);
  }

  /**
   * Resolves once this process has heard every change committed before the call. One request passes the same promise
   * to each of its `current` calls (server/plugins/changes.ts, `changesSynced`): a round trip sent after the request
   * began proves every later check of that request fresh enough, so a request costs one round trip, not one per check.
   */
  synced(): Promise<void> {
    const ping = this.#ping;
    if (!ping) return Promise.resolve();
    if (!this.#pinging) {
      this.#pinging = ping()
        .catch(() => this.#down())
        .finally(() => (this.#pinging = null));
      return this.#pinging;
    }
    // A round trip already under way was sent before this call, so it proves nothing here: share the next one.
    this.#next ??= this.#pinging.then(() => {
      this.#next = null;
      return this.synced();
    });
    return this.#next;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#down();
    await this.#stop?.().catch(() => {});
  }

  /** A notification: `table`, or `table:org,org,…` (the organisations whose rows changed, with their ancestors and descendants). */
  #changed(payload: string): void {
    const seq = ++this.#seq;
    const colon = payload.indexOf(':');
    const table = colon < 0 ? payload : payload.slice(0, colon);
    this.#any.set(table, seq);
    if (colon < 0) this.#last.set(table, seq);
    else for (const org of payload.slice(colon + 1).split(',')) this.#byOrg.set(`${table}\n${org}`, seq);
    for (const l of this.#listeners) l(table);
  }

  #up(): void {
    this.#reset = ++this.#seq;
    this.#live = true;
    for (const l of this.#listeners) l(null);
  }

  #down(): void {
    if (!this.#live) return;
    this.#live = false;
    this.#reset = ++this.#seq;
    for (const l of this.#listeners) l(null);
  }

  async #openPglite(client: PGlite): Promise<void> {
    const unlisten = await client.listen(CHANGES_CHANNEL, (table) => this.#changed(table));
    this.#stop = async () => {
      if (!client.closed) await unlisten();
    };
    this.#up();
  }

  async #openPostgres(options: pg.PoolConfig): Promise<void> {
    // A database that cannot be reached now leaves the feed off and tries again; requests run uncached meanwhile.
    const retry = () => {
      if (!this.#closed) setTimeout(() => void attempt(), RECONNECT_MS).unref();
    };
    const attempt = async () => {
      if (this.#closed) return;
      await this.#listenPostgres(options, retry).catch(retry);
    };
    await attempt();
  }

  /** One listening connection; `onLost` runs once if it is lost after it was listening. */
  async #listenPostgres(options: pg.PoolConfig, onLost: () => void): Promise<void> {
    // Its own connection, outside the pool: LISTEN belongs to a session, and the pool's stay free for queries.
    const { Client } = await loadPg();
    const client = new Client({ ...options, application_name: 'tiyu change feed' });
    let listening = false;
    let lost = false;
    const lose = () => {
      if (lost) return;
      lost = true;
      client.end().catch(() => {});
      if (!listening) return;
      this.#down();
      this.#ping = null;
      onLost();
    };
    client.on('error', lose);
    client.on('end', lose);
    client.on('notification', (n) => n.channel === CHANGES_CHANNEL && n.payload && this.#changed(n.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      lose();
      throw err;
    }
    if (this.#closed) {
      lose();
      return;
    }
    listening = true;
    this.#ping = async () => {
      await client.query('select 1');
    };
    this.#stop = async () => {
      lost = true;
      await client.end();
    };
    this.#up();
  }
}

/** The change feed a kept value is keyed by, and the request's sync with it (server/plugins/changes.ts, `changesSynced`). */
export interface FeedSync {
  feed: ChangeFeed;
  synced: Promise<void>;
}

/**
 * Values computed once per version of the `tables` they read in an organisation's tree, reused by every request that
 * asks the same key until one of those tables changes there (at most `size` keys per feed, the least recently used
 * dropped first). Without a feed, or while it is not live, every call computes. A failed computation is not kept.
 * Only a read-cache miss computes on the replica, and it reads there only once the replica has replayed the primary's
 * position (docs/deploy.md), so a kept value is never older than its version.
 */
export function keptPerVersion<T>(tables: readonly string[], size: number) {
  const memos = new WeakMap<ChangeFeed, Map<string, { version: number; value: Promise<T> }>>();
  return async (changes: FeedSync | undefined, org: string | null, key: string, compute: () => Promise<T>): Promise<T> => {
    if (!changes) return compute();
    const { feed } = changes;
    const version = await feed.current(tables, org, changes.synced);
    if (version === null) return compute();
    let memo = memos.get(feed);
    if (!memo) memos.set(feed, (memo = new Map()));
    const kept = memo.get(key);
    memo.delete(key);
    if (kept && kept.version === version) {
      memo.set(key, kept);
      return kept.value;
    }
    const value = compute();
    const entry = { version, value };
    memo.set(key, entry);
    value.catch(() => memo.get(key) === entry && memo.delete(key));
    for (const old of memo.keys()) {
      if (memo.size <= size) break;
      memo.delete(old);
    }
    return value;
  };
}
