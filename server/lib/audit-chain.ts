import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../db/client';

/**
 * The audit log's hash chains (docs/decisions/050-audit-hash-chain.md): one chain per organisation (rows without one
 * chain under ZERO_CHAIN). The sealer gives each new row its place, the previous row's hash and its own; verification
 * walks a chain and names the first row that was altered or is missing.
 */
export const ZERO_CHAIN = '00000000-0000-0000-0000-000000000000';
/** How often an instance that works jobs seals new rows (server/app.ts). */
export const AUDIT_SEAL_EVERY_MS = 5_000;
/** Rows sealed per statement set. */
const SEAL_BATCH = 5_000;
/** Rows read per step while verifying. */
const VERIFY_BATCH = 5_000;
/** The sealers of every instance take turns through this lock (pg_advisory_xact_lock). */
const SEAL_LOCK = 7_302_114;

/**
 * A row's content as the database prints it: a JSON array of every column the log shows (jsonb prints its keys in one
 * fixed order, so the same row always prints the same text on PGlite and PostgreSQL).
 */
const CONTENT = sql.raw(
  `jsonb_build_array(id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), user_id, account_id, org_id, action, entity, entity_id, entity_name, before, after)::text`,
);

export const chainHash = (prevHash: string, content: string) => createHash('sha256').update(prevHash).update('\n').update(content).digest('hex');

/** Seals the rows written since the last seal, in the order they are found (time, id). Answers how many it sealed. */
export async function sealAuditChains(db: Db): Promise<number> {
  let sealed = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SEAL_LOCK})`);
      const { rows } = await tx.execute<{ id: string; chain: string; content: string }>(sql`
        select id, coalesce(org_id, ${ZERO_CHAIN}::uuid)::text as chain, ${CONTENT} as content
          from audit_logs where seq is null order by at, id limit ${SEAL_BATCH}`);
      if (rows.length === 0) return 0;
      const chains = [...new Set(rows.map((r) => r.chain))];
      const { rows: heads } = await tx.execute<{ chain_id: string; seq: string; hash: string }>(
        sql`select chain_id::text, seq::text, hash from audit_chains where chain_id = any(${sql.param(chains)}::uuid[]) for update`,
      );
      const head = new Map(heads.map((h) => [h.chain_id, { seq: Number(h.seq), hash: h.hash }]));
      const ids: string[] = [];
      const seqs: number[] = [];
      const prevs: string[] = [];
      const hashes: string[] = [];
      for (const r of rows) {
        const h = head.get(r.chain) ?? { seq: 0, hash: '' };
        const hash = chainHash(h.hash, r.content);
        ids.push(r.id);
        seqs.push(h.seq + 1);
        prevs.push(h.hash);
        hashes.push(hash);
        head.set(r.chain, { seq: h.seq + 1, hash });
      }
      await tx.execute(sql`
        update audit_logs a set seq = u.seq, prev_hash = u.prev, hash = u.hash
          from unnest(${sql.param(ids)}::uuid[], ${sql.param(seqs)}::bigint[], ${sql.param(prevs)}::text[], ${sql.param(hashes)}::text[]) as u(id, seq, prev, hash)
         where a.id = u.id`);
      const touched = chains.map((c) => ({ chain: c, ...head.get(c)! }));
      await tx.execute(sql`
        insert into audit_chains (chain_id, seq, hash, sealed_at)
        select c, s, h, now() from unnest(${sql.param(touched.map((t) => t.chain))}::uuid[], ${sql.param(touched.map((t) => t.seq))}::bigint[], ${sql.param(touched.map((t) => t.hash))}::text[]) as u(c, s, h)
        on conflict (chain_id) do update set seq = excluded.seq, hash = excluded.hash, sealed_at = excluded.sealed_at`);
      return rows.length;
    });
    sealed += n;
    if (n < SEAL_BATCH) return sealed;
  }
}

export type ChainBreak = 'altered' | 'missing' | 'tail';

export interface ChainReport {
  /** Chains and sealed rows checked. */
  chains: number;
  rows: number;
  /** Rows written but not yet sealed (checked once the sealer has run). */
  unsealed: number;
  /** The first broken place of each broken chain, in chain order: the row (when it still exists), its place and what is wrong. */
  breaks: { chainId: string; seq: number; id: string | null; at: string | null; kind: ChainBreak }[];
}

/**
 * Walks the chains of `chainIds` (null: every chain) from their start: a row whose hash is not what its content and the
 * previous hash give was altered ('altered'); a gap in the places, or a previous hash that is not the previous row's,
 * means rows are missing ('missing'); a chain ending before its head means its newest rows are gone ('tail').
 */
export async function verifyAuditChains(db: DbOrTx, chainIds: readonly string[] | null): Promise<ChainReport> {
  const { rows: heads } = await db.execute<{ chain_id: string; seq: string; hash: string; start_seq: string; start_hash: string }>(
    chainIds === null
      ? sql`select chain_id::text, seq::text, hash, start_seq::text, start_hash from audit_chains order by chain_id`
      : sql`select chain_id::text, seq::text, hash, start_seq::text, start_hash from audit_chains where chain_id = any(${sql.param([...chainIds])}::uuid[]) order by chain_id`,
  );
  const report: ChainReport = { chains: heads.length, rows: 0, unsealed: 0, breaks: [] };
  for (const head of heads) {
    let seq = Number(head.start_seq);
    let hash = head.start_hash;
    let last: { id: string; at: string } | null = null;
    let broken = false;
    for (;;) {
      // `audit_logs.seq`: a bare `seq` would order by the selected `seq::text`, putting place 10 before place 9.
      const { rows } = await db.execute<{ id: string; seq: string; prev_hash: string; hash: string; at: string; content: string }>(sql`
        select id, seq::text, prev_hash, hash, at::text, ${CONTENT} as content from audit_logs
         where coalesce(org_id, ${ZERO_CHAIN}::uuid) = ${head.chain_id}::uuid and seq > ${seq}
         order by audit_logs.seq limit ${VERIFY_BATCH}`);
      for (const r of rows) {
        report.rows += 1;
        const place = Number(r.seq);
        if (place !== seq + 1) {
          report.breaks.push({ chainId: head.chain_id, seq: seq + 1, id: null, at: null, kind: 'missing' });
          broken = true;
          break;
        }
        // The previous row's stored hash was rewritten along with its content: that row was altered.
        if (r.prev_hash !== hash) {
          report.breaks.push({ chainId: head.chain_id, seq, id: last?.id ?? null, at: last?.at ?? null, kind: 'altered' });
          broken = true;
          break;
        }
        if (chainHash(hash, r.content) !== r.hash) {
          report.breaks.push({ chainId: head.chain_id, seq: place, id: r.id, at: r.at, kind: 'altered' });
          broken = true;
          break;
        }
        seq = place;
        hash = r.hash;
        last = { id: r.id, at: r.at };
      }
      if (broken || rows.length < VERIFY_BATCH) break;
    }
    if (!broken && (seq !== Number(head.seq) || hash !== head.hash)) report.breaks.push({ chainId: head.chain_id, seq: seq + 1, id: null, at: null, kind: 'tail' });
  }
  const { rows: unsealed } = await db.execute<{ n: string }>(
    chainIds === null
      ? sql`select count(*)::text as n from audit_logs where seq is null`
      : sql`select count(*)::text as n from audit_logs where seq is null and coalesce(org_id, ${ZERO_CHAIN}::uuid) = any(${sql.param([...chainIds])}::uuid[])`,
  );
  report.unsealed = Number(unsealed[0].n);
  return report;
}

/** One archived row: its place, links and the exact content text its hash was computed from (and the row, parsed). */
export interface ArchivedAuditRow {
  chainId: string;
  seq: number;
  prevHash: string;
  hash: string;
  content: string;
}

/**
 * Removes a chain's oldest sealed rows written before `cutoff` (at most `limit`, in chain order, never past the first
 * row that is not due), handing them to `archive` first (it must store them durably; it runs inside the transaction,
 * so a failed store removes nothing). Deleting passes the guard trigger only through this transaction's
 * `tiyu.audit_purge` setting (migration audit_log_guard); the chain's start moves to the last removed row, so
 * verification starts there and does not report the archived rows as missing. Answers the rows removed.
 */
export async function purgeAuditChain(
  db: Db,
  chainId: string,
  cutoff: Date,
  limit: number,
  archive: (rows: readonly ArchivedAuditRow[], tx: Tx) => Promise<void>,
): Promise<ArchivedAuditRow[]> {
  return db.transaction(async (tx) => {
    // The sealer moves the same head row: take turns with it.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEAL_LOCK})`);
    const { rows: heads } = await tx.execute<{ start_seq: string }>(sql`select start_seq::text from audit_chains where chain_id = ${chainId}::uuid for update`);
    if (heads.length === 0) return [];
    // In place order (`audit_logs.seq`, not the selected text).
    const { rows } = await tx.execute<{ id: string; seq: string; prev_hash: string; hash: string; due: boolean; content: string }>(sql`
      select id, seq::text, prev_hash, hash, at < ${cutoff.toISOString()}::timestamptz as due, ${CONTENT} as content from audit_logs
       where coalesce(org_id, ${ZERO_CHAIN}::uuid) = ${chainId}::uuid and seq > ${Number(heads[0].start_seq)}
       order by audit_logs.seq limit ${limit}`);
    const firstKept = rows.findIndex((r) => !r.due);
    const due = firstKept === -1 ? rows : rows.slice(0, firstKept);
    if (due.length === 0) return [];
    const archived = due.map((r) => ({ chainId, seq: Number(r.seq), prevHash: r.prev_hash, hash: r.hash, content: r.content }));
    await archive(archived, tx);
    await tx.execute(sql`select set_config('tiyu.audit_purge', 'on', true)`);
    // Every removed row is before the cutoff: saying so lets the delete touch only those school years' partitions.
    await tx.execute(sql`delete from audit_logs where id = any(${sql.param(due.map((r) => r.id))}::uuid[]) and at < ${cutoff.toISOString()}::timestamptz`);
    await tx.execute(sql`select set_config('tiyu.audit_purge', 'off', true)`);
    const last = archived[archived.length - 1];
    await tx.execute(sql`update audit_chains set start_seq = ${last.seq}, start_hash = ${last.hash} where chain_id = ${chainId}::uuid`);
    return archived;
  });
}

/**
 * Before a school year's partition of the operation log is detached for archive (server/db/school-year-partitions.ts):
 * its rows must be sealed and be the oldest kept rows of each of their chains (places start+1 … n, none elsewhere);
 * each chain's start then moves to the partition's last row, as a retention purge does, so verification stays intact
 * without them. Throws, changing nothing, when a row is unsealed or the rows are not a chain's oldest.
 */
export async function releaseAuditPartition(tx: Tx, partition: string): Promise<void> {
  // The sealer and the purge move the same heads: take turns with them.
  await tx.execute(sql`select pg_advisory_xact_lock(${SEAL_LOCK})`);
  const { rows } = await tx.execute<{ chain: string; lo: string | null; hi: string | null; n: string; unsealed: string; start_seq: string | null; hi_hash: string | null }>(sql`
    with p as (
      select coalesce(org_id, ${ZERO_CHAIN}::uuid) as chain, min(seq) as lo, max(seq) as hi, count(*) as n, count(*) filter (where seq is null) as unsealed
        from ${sql.identifier(partition)} group by 1)
    select p.chain::text, p.lo::text, p.hi::text, p.n::text, p.unsealed::text, c.start_seq::text,
           (select x.hash from ${sql.identifier(partition)} x where coalesce(x.org_id, ${ZERO_CHAIN}::uuid) = p.chain and x.seq = p.hi) as hi_hash
      from p left join audit_chains c on c.chain_id = p.chain`);
  for (const r of rows) {
    if (Number(r.unsealed) > 0) throw new Error(`${partition}: chain ${r.chain} has ${r.unsealed} unsealed rows`);
    // Consecutive places right after the chain's start: the partition holds exactly the chain's oldest rows.
    if (r.start_seq === null || Number(r.lo) !== Number(r.start_seq) + 1 || Number(r.hi) - Number(r.lo) + 1 !== Number(r.n)) {
      throw new Error(`${partition}: chain ${r.chain} rows ${r.lo}…${r.hi} are not its oldest kept rows (start ${r.start_seq ?? 'none'})`);
    }
  }
  for (const r of rows) await tx.execute(sql`update audit_chains set start_seq = ${Number(r.hi)}, start_hash = ${r.hi_hash} where chain_id = ${r.chain}::uuid`);
}

/**
 * Checks an archive on its own: consecutive places, each row's previous hash is the one before's hash, and each hash is
 * what the previous hash and the content give. Answers the first bad place, or null when the archive holds up.
 */
export function verifyArchivedRows(rows: readonly ArchivedAuditRow[]): number | null {
  for (let i = 0; i < rows.length; i += 1) {
    const r = rows[i];
    if (i > 0 && (r.seq !== rows[i - 1].seq + 1 || r.prevHash !== rows[i - 1].hash)) return r.seq;
    if (chainHash(r.prevHash, r.content) !== r.hash) return r.seq;
  }
  return null;
}
