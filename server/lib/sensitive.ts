import { pageAccess } from '@/domain/menus/access';
import { MASKS, type MaskKind } from '@/domain/people/mask';
import type { Actor } from '../plugins/tenant';

/** Which fields of a row hold what kind of sensitive number, e.g. `{ mobile: 'mobile', idCard: 'idNumber' }`. */
export type SensitiveFields<T> = Partial<Record<keyof T & string, MaskKind>>;

/** Whether the actor's role holds the "view sensitive fields" button of page `key` (docs/product-rules.md#data-scopes). */
export function seesSensitive(actor: Actor, key: string): boolean {
  const code = pageAccess(key).buttons.sensitive;
  return code !== undefined && actor.permissions.has(code);
}

/**
 * The rows as a list may show them to the actor: unchanged with page `key`'s `sensitive` button, else with the named
 * fields masked (138****5678; ID and certificate numbers but their first and last character).
 */
export function maskSensitive<T extends object>(actor: Actor, key: string, rows: T[], fields: SensitiveFields<T>): T[] {
  if (seesSensitive(actor, key)) return rows;
  const entries = Object.entries(fields) as [keyof T & string, MaskKind][];
  return rows.map((row) => {
    const out = { ...row } as Record<string, unknown>;
    for (const [field, kind] of entries) {
      const v = out[field];
      if (typeof v === 'string') out[field] = MASKS[kind](v);
    }
    return out as T;
  });
}

/** A page of rows with `maskSensitive` applied to its records. */
export function maskPage<P extends { records: object[] }>(actor: Actor, key: string, page: P, fields: SensitiveFields<P['records'][number]>): P {
  return { ...page, records: maskSensitive(actor, key, page.records, fields) };
}
