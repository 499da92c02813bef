/**
 * An instant as the ISO timestamp (UTC, `Z`) the API answers with. Drizzle's typed selects give timestamptz as a Date;
 * raw SQL gives a Date on node-postgres and a string on PGlite, so both are read. A calendar day is not an instant:
 * it is the China day (`localDate` in src/domain/dates.ts), never this value's first ten characters.
 */
export function isoInstant(v: Date | string): string;
export function isoInstant(v: Date | string | null | undefined): string | null;
export function isoInstant(v: Date | string | null | undefined): string | null {
  if (v == null) return null;
  return (v instanceof Date ? v : new Date(v)).toISOString();
}
