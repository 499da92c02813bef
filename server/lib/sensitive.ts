import { eq } from 'drizzle-orm';
import { pageAccess } from '@/domain/menus/access';
import { MASKS, type MaskKind } from '@/domain/people/mask';
import type { DbOrTx } from '../db/client';
import { users } from '../db/schema/auth';
import { sensitiveViews, type ShownPerson } from '../db/schema/data-access';
import type { Actor } from '../plugins/tenant';

/**
 * Which fields of a row hold what kind of sensitive number, e.g. `{ mobile: 'mobile', idCard: 'idNumber' }`; a field
 * holding a list of objects names their fields the same way (`{ parents: { mobile: 'mobile' } }`).
 */
export interface SensitiveFields {
  [field: string]: MaskKind | SensitiveFields;
}

/** Whether the actor's role holds the "view sensitive fields" button of page `key` (docs/product-rules.md#data-scopes). */
export function seesSensitive(actor: Actor, key: string): boolean {
  const code = pageAccess(key).buttons.sensitive;
  return code !== undefined && actor.permissions.has(code);
}

function maskRow<T>(row: T, fields: SensitiveFields): T {
  if (row === null || typeof row !== 'object') return row;
  const out = { ...row } as Record<string, unknown>;
  for (const [field, kind] of Object.entries(fields)) {
    const v = out[field];
    if (typeof kind === 'string') {
      if (typeof v === 'string') out[field] = MASKS[kind](v);
    } else if (Array.isArray(v)) {
      out[field] = v.map((item: unknown) => maskRow(item, kind));
    } else if (v && typeof v === 'object') {
      out[field] = maskRow(v, kind);
    }
  }
  return out as T;
}

function holdsValue(row: unknown, fields: SensitiveFields): boolean {
  if (row === null || typeof row !== 'object') return false;
  const r = row as Record<string, unknown>;
  return Object.entries(fields).some(([field, kind]) => {
    const v = r[field];
    if (typeof kind === 'string') return typeof v === 'string' && v !== '';
    return Array.isArray(v) ? v.some((item) => holdsValue(item, kind)) : holdsValue(v, kind);
  });
}

/** How a reveal happened: a list page, a form's record, an export's file. */
export type RevealVia = 'list' | 'form' | 'export';

/** People a log row names at most (the count keeps the whole number; an export may show thousands). */
export const REVEAL_PEOPLE_MAX = 1000;

/**
 * Logs one view of unmasked mobiles or ID numbers (docs/product-rules.md#personal-data-access): who, the people whose
 * values were shown (rows holding a value of `fields`; a row names itself by `id` and `name`), when and on which page.
 * Nothing is logged when no shown row holds such a value. `db` must be the primary (a write).
 */
export async function logReveal(db: DbOrTx, actor: Actor, key: string, rows: readonly object[], fields: SensitiveFields, via: RevealVia, now: Date): Promise<void> {
  const people: ShownPerson[] = rows
    .filter((row) => holdsValue(row, fields))
    .map((row) => {
      const r = row as { id?: unknown; name?: unknown };
      return { id: String(r.id ?? ''), name: String(r.name ?? '') };
    });
  await logPeople(db, actor, key, people, via, now);
}

/**
 * Writes one log row naming `people` (the first REVEAL_PEOPLE_MAX; the count keeps them all), or nothing when none.
 * One row per reveal, as the auditor reads it: one list page, one form, one exported file.
 */
async function logPeople(db: DbOrTx, actor: Actor, key: string, people: ShownPerson[], via: RevealVia, now: Date): Promise<void> {
  if (people.length === 0) return;
  const [viewer] = await db.select({ name: users.name, accountNum: users.accountNum }).from(users).where(eq(users.id, actor.userId)).limit(1);
  const named = people.slice(0, REVEAL_PEOPLE_MAX);
  await db.insert(sensitiveViews).values({
    at: now,
    orgId: actor.tenantOrgId,
    userId: actor.userId,
    userName: viewer?.name ?? '',
    accountNum: viewer?.accountNum ?? '',
    screen: key,
    via,
    people: named,
    peopleText: named.map((p) => p.name).join(' '),
    peopleCount: people.length,
  });
}

/**
 * The unmasked numbers an export writes (docs/product-rules.md#personal-data-access): a streamed export adds each
 * person whose mobile or ID number it wrote as it writes them, and logs them as one view (`via: 'export'`) when the file
 * ends, whether it was read to the end or not; an actor without page `key`'s `sensitive` button gets masked values and
 * no log.
 */
export function exportReveals(db: DbOrTx, actor: Actor, key: string, now: Date) {
  const seen = seesSensitive(actor, key);
  const people = new Map<string, string>();
  return {
    seen,
    /** The value as the file writes it: unmasked (and its holder noted) for a role that may see it, else masked. */
    shown(kind: MaskKind, value: string | null, person: ShownPerson): string | null {
      if (!seen) return value === null ? null : MASKS[kind](value);
      if (value) people.set(person.id, person.name);
      return value;
    },
    /** Writes the log row of what was shown (none when nothing was). */
    log: () => logPeople(db, actor, key, [...people].map(([id, name]) => ({ id, name })), 'export', now),
  };
}

/**
 * The one place a list decides what the actor sees (docs/product-rules.md#data-scopes): with page `key`'s `sensitive`
 * button the rows unchanged, and that view logged; else the named fields masked (138****5678; ID and certificate
 * numbers but their first and last character). `db` must be the primary (the log is a write).
 */
export async function shownRows<T extends object>(db: DbOrTx, actor: Actor, key: string, rows: T[], fields: SensitiveFields, now: Date): Promise<T[]> {
  if (!seesSensitive(actor, key)) return rows.map((row) => maskRow(row, fields));
  await logReveal(db, actor, key, rows, fields, 'list', now);
  return rows;
}

/** A page of rows with `shownRows` applied to its records. */
export async function shownPage<P extends { records: object[] }>(db: DbOrTx, actor: Actor, key: string, page: P, fields: SensitiveFields, now: Date): Promise<P> {
  return { ...page, records: await shownRows(db, actor, key, page.records, fields, now) };
}
