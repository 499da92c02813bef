import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Page } from '@/domain/api';
import {
  dictionaryCodeIssue,
  effectiveEntries,
  isExtendable,
  platformEntries,
  type DictionaryAnswer,
  type DictionaryCode,
  type DictionaryEntry,
  type DictionaryEntryCreate,
  type DictionaryEntryListQuery,
  type DictionaryEntryUpdate,
  type ExtendableDictionary,
} from '@/domain/dictionaries/dictionaries';
import type { DbOrTx, Tx } from '../../db/client';
import { dictionaryEntries } from '../../db/schema/dictionaries';
import { orgs } from '../../db/schema/orgs';
import { venues } from '../../db/schema/venue';
import { AppError, fieldError } from '../../lib/app-error';
import { assertUnused, lockVersion, nextVersion, notFound, type Change } from '../../lib/resource';
import { inOrgSubtree, orgSubtree } from '../../lib/tenancy';
import type { Actor } from '../../plugins/tenant';

/**
 * Dictionaries (docs/product-rules.md#dictionaries): the effective entries of an organisation (the platform's, then
 * its own and its ancestors'), and the writes of its own entries of an extendable dictionary.
 */

/** The organisation and those above it, nearest first, with their names. */
async function lineage(db: DbOrTx, orgId: string): Promise<{ id: string; name: string }[]> {
  const { rows } = await db.execute<{ id: string; name: string }>(sql`with recursive up(id, parent_id, name, depth) as (
      select id, parent_id, name, 0 from orgs where id = ${orgId}
      union all
      select o.id, o.parent_id, o.name, up.depth + 1 from orgs o join up on o.id = up.parent_id
    ) select id, name from up order by depth`);
  return rows;
}

const entryColumns = {
  id: dictionaryEntries.id,
  orgId: dictionaryEntries.orgId,
  code: dictionaryEntries.code,
  labelZhCn: dictionaryEntries.labelZhCn,
  labelZhTw: dictionaryEntries.labelZhTw,
  labelEnUs: dictionaryEntries.labelEnUs,
  sort: dictionaryEntries.sort,
  enabled: dictionaryEntries.enabled,
  version: dictionaryEntries.version,
};
type EntryRow = { [K in keyof typeof entryColumns]: (typeof entryColumns)[K]['_']['data'] };

const toEntry = (r: EntryRow, orgId: string, orgName: string | null): DictionaryEntry => ({
  id: r.id,
  code: r.code,
  labelKey: null,
  labels: { zh_cn: r.labelZhCn, zh_tw: r.labelZhTw, en_us: r.labelEnUs },
  sort: r.sort,
  enabled: r.enabled,
  origin: r.orgId === orgId ? 'own' : 'inherited',
  orgName,
  version: r.version,
});

/** A dictionary's entries for an organisation: the platform's, then its own and its ancestors' (disabled ones too). */
export async function dictionaryOf(db: DbOrTx, orgId: string, code: DictionaryCode): Promise<DictionaryAnswer> {
  if (!isExtendable(code)) return { code, extendable: false, entries: platformEntries(code) };
  const up = await lineage(db, orgId);
  const names = new Map(up.map((o) => [o.id, o.name]));
  const rows = await db
    .select(entryColumns)
    .from(dictionaryEntries)
    .where(and(eq(dictionaryEntries.dictionary, code), inArray(dictionaryEntries.orgId, [...names.keys()])));
  return { code, extendable: true, entries: effectiveEntries(code, rows.map((r) => toEntry(r, orgId, names.get(r.orgId) ?? null))) };
}

/** The signed-in organisation's dictionary (the selects' read). */
export const dictionaryFor = (db: DbOrTx, actor: Actor, code: DictionaryCode) => dictionaryOf(db, actor.tenantOrgId, code);

/**
 * The rule of a field that holds a dictionary code, on the server: the code is in the organisation's effective
 * dictionary (dictionaryCodeIssue), or the value the record already holds. 400 on `field` otherwise.
 */
export async function assertDictionaryCode(db: DbOrTx, actor: Actor, dictionary: DictionaryCode, code: string, field: string, current?: string | null): Promise<void> {
  const { entries } = await dictionaryFor(db, actor, dictionary);
  const issue = dictionaryCodeIssue(entries, code, current);
  if (issue) throw fieldError(field, issue as `${string}:${string}`);
}

/** The screen's list: one dictionary's effective entries, paged here (a dictionary is a few dozen entries). */
export async function dictionaryEntryPage(db: DbOrTx, actor: Actor, q: DictionaryEntryListQuery): Promise<Page<DictionaryEntry>> {
  const { entries } = await dictionaryFor(db, actor, q.dictionary);
  const from = (q.current - 1) * q.size;
  return { records: entries.slice(from, from + q.size), total: entries.length, current: q.current, size: q.size };
}

/** One of the organisation's own entries; an ancestor's answers 403 (it is seen, not owned), anything else 404. */
export async function dictionaryEntryById(db: DbOrTx, actor: Actor, id: string): Promise<DictionaryEntry & { dictionary: string }> {
  const [row] = await db
    .select({ ...entryColumns, dictionary: dictionaryEntries.dictionary, orgName: orgs.name })
    .from(dictionaryEntries)
    .innerJoin(orgs, eq(orgs.id, dictionaryEntries.orgId))
    .where(eq(dictionaryEntries.id, id));
  if (!row) throw notFound();
  if (row.orgId !== actor.tenantOrgId) {
    const up = await lineage(db, actor.tenantOrgId);
    if (up.some((o) => o.id === row.orgId)) throw new AppError(403, 'dictionaries:errors.inherited', { org: row.orgName });
    throw notFound();
  }
  return { ...toEntry(row, actor.tenantOrgId, row.orgName), dictionary: row.dictionary };
}

/**
 * A new code must not be taken in the dictionary anywhere the entry would be seen or would see: the platform's codes,
 * the organisation's own and its ancestors', and those of the organisations below it (which see the new entry).
 */
async function assertCodeFree(tx: Tx, actor: Actor, dictionary: ExtendableDictionary, code: string): Promise<void> {
  if (platformEntries(dictionary).some((e) => e.code === code)) throw fieldError('code', 'dictionaries:errors.platformCode');
  const up = (await lineage(tx, actor.tenantOrgId)).map((o) => o.id);
  const down = await orgSubtree(tx, actor.tenantOrgId);
  const [dup] = await tx
    .select({ id: dictionaryEntries.id })
    .from(dictionaryEntries)
    .where(and(eq(dictionaryEntries.dictionary, dictionary), eq(dictionaryEntries.code, code), inArray(dictionaryEntries.orgId, [...new Set([...up, ...down])])))
    .limit(1);
  if (dup) throw fieldError('code', 'dictionaries:errors.codeTaken');
}

export async function createDictionaryEntry(tx: Tx, actor: Actor, body: DictionaryEntryCreate): Promise<DictionaryEntry & { dictionary: string }> {
  if (!isExtendable(body.dictionary)) throw fieldError('dictionary', 'dictionaries:errors.platformDictionary');
  await assertCodeFree(tx, actor, body.dictionary, body.code);
  const [row] = await tx
    .insert(dictionaryEntries)
    .values({ orgId: actor.tenantOrgId, dictionary: body.dictionary, code: body.code, labelZhCn: body.labelZhCn, labelZhTw: body.labelZhTw, labelEnUs: body.labelEnUs, sort: body.sort, enabled: body.enabled })
    .returning({ id: dictionaryEntries.id });
  return dictionaryEntryById(tx, actor, row.id);
}

export async function updateDictionaryEntry(tx: Tx, actor: Actor, id: string, body: DictionaryEntryUpdate): Promise<Change<DictionaryEntry>> {
  const before = await dictionaryEntryById(tx, actor, id); // 403 for an ancestor's entry before the version check
  await lockVersion(tx, dictionaryEntries, id, eq(dictionaryEntries.orgId, actor.tenantOrgId), body.version);
  await tx
    .update(dictionaryEntries)
    .set({ labelZhCn: body.labelZhCn, labelZhTw: body.labelZhTw, labelEnUs: body.labelEnUs, sort: body.sort, enabled: body.enabled, version: nextVersion(dictionaryEntries.version) })
    .where(eq(dictionaryEntries.id, id));
  return { before, after: await dictionaryEntryById(tx, actor, id) };
}

/**
 * Where each extendable dictionary's codes are stored: the records an entry's organisation and those below it hold.
 * An entry in use is not deleted (it is disabled instead); a new extendable dictionary adds its line here.
 */
const USES: Record<ExtendableDictionary, { what: `${string}:${string}`; count(tx: Tx, orgId: string, code: string): Promise<number> }[]> = {
  venueType: [{ what: 'dictionaries:uses.venues', count: (tx, orgId, code) => tx.$count(venues, and(eq(venues.type, code), inOrgSubtree(venues.orgId, orgId))) }],
};

export async function deleteDictionaryEntry(tx: Tx, actor: Actor, id: string): Promise<DictionaryEntry> {
  const before = await dictionaryEntryById(tx, actor, id);
  if (isExtendable(before.dictionary)) {
    await assertUnused(
      USES[before.dictionary].map((use) => ({ what: use.what, count: () => use.count(tx, actor.tenantOrgId, before.code) })),
      'dictionaries:errors.inUse',
    );
  }
  await tx.delete(dictionaryEntries).where(eq(dictionaryEntries.id, id));
  return before;
}
