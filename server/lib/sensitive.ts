import { pageAccess } from '@/domain/menus/access';
import { MASKS, type MaskKind } from '@/domain/people/mask';
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

/**
 * The rows as a list may show them to the actor: unchanged with page `key`'s `sensitive` button, else with the named
 * fields masked (138****5678; ID and certificate numbers but their first and last character).
 */
export function maskSensitive<T extends object>(actor: Actor, key: string, rows: T[], fields: SensitiveFields): T[] {
  if (seesSensitive(actor, key)) return rows;
  return rows.map((row) => maskRow(row, fields));
}

/** A page of rows with `maskSensitive` applied to its records. */
export function maskPage<P extends { records: object[] }>(actor: Actor, key: string, page: P, fields: SensitiveFields): P {
  return { ...page, records: maskSensitive(actor, key, page.records, fields) };
}
