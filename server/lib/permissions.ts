import { getCatalogEntry } from '@/domain/menus/catalog';

/**
 * The view permission code of a catalogue page (spec §6), looked up by its key, e.g.
 * 'k12.org.class' → 'k12:org:class:view'. Throws at start-up for an unknown key so a renamed
 * catalogue entry cannot silently leave a route unguarded.
 */
export function viewPermission(key: string): string {
  const entry = getCatalogEntry(key);
  if (!entry || entry.kind !== 'page') throw new Error(`No catalogue page with key '${key}'`);
  return entry.permission;
}
