import { z } from 'zod';
// Installs the error map before this module builds its answer schemas (tests/domain/schemas/messages.test.ts).
import '../fields';
import { beats, type ResultKind } from './marks';

/**
 * Team points (docs/product-rules.md#meets): the points table gives the first places their points (default 9, 7, 6,
 * 5, 4, 3, 2, 1), relays count `relayFactor` times, athletes tied for a place share the points of the places they
 * cover, and a result that set a new record earns `recordBonus`. Class, grade and individual totals add them up.
 */
export const DEFAULT_POINTS_TABLE = [9, 7, 6, 5, 4, 3, 2, 1] as const;
export const DEFAULT_RELAY_FACTOR = 2;
export const DEFAULT_RECORD_BONUS = 0;

export interface PointsRules {
  table: readonly number[];
  relayFactor: number;
  recordBonus: number;
}

/** Points for a place shared by `tied` athletes (the mean of the places they cover), before the relay factor. */
export function placePoints(table: readonly number[], place: number, tied: number): number {
  let sum = 0;
  for (let p = place; p < place + tied; p++) sum += table[p - 1] ?? 0;
  return Math.round((sum / tied) * 100) / 100;
}

export interface PlacedResult {
  athleteId: string;
  classId: string;
  gradeId: string;
  place: number;
  relay: boolean;
  newRecord: boolean;
}

export interface PointsLine extends PlacedResult {
  points: number;
}

/** Points of each placed result of one event. */
export function eventPoints(rules: PointsRules, placed: readonly PlacedResult[]): PointsLine[] {
  const tiedAt = new Map<number, number>();
  for (const r of placed) tiedAt.set(r.place, (tiedAt.get(r.place) ?? 0) + 1);
  return placed.map((r) => {
    const base = placePoints(rules.table, r.place, tiedAt.get(r.place)!) * (r.relay ? rules.relayFactor : 1);
    return { ...r, points: Math.round((base + (r.newRecord ? rules.recordBonus : 0)) * 100) / 100 };
  });
}

export interface Standing {
  id: string;
  points: number;
  /** 1-based, shared on equal points. */
  rank: number;
}

/** Totals by a key (class, grade or athlete), best first, with shared ranks. */
export function standings(lines: readonly PointsLine[], keyOf: (l: PointsLine) => string): Standing[] {
  const totals = new Map<string, number>();
  for (const l of lines) totals.set(keyOf(l), Math.round(((totals.get(keyOf(l)) ?? 0) + l.points) * 100) / 100);
  const sorted = [...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const out: Standing[] = [];
  sorted.forEach(([id, points], i) => out.push({ id, points, rank: i > 0 && sorted[i - 1][1] === points ? out[i - 1].rank : i + 1 }));
  return out;
}

/** Whether a mark sets a new record over the current one (none yet → any mark does). */
export function isNewRecord(kind: ResultKind, mark: number, record: number | null | undefined): boolean {
  return record == null || beats(kind, mark, record);
}

const standing = { id: z.string(), points: z.number(), rank: z.number().int() };

/** GET …/:id/points: the standings of classes, grades and athletes, and every scoring place (PointsView). */
export const pointsViewSchema = z.object({
  classes: z.array(z.object({ ...standing, name: z.string() })),
  grades: z.array(z.object({ ...standing, grade: z.object({ id: z.string(), stage: z.string(), gradeNo: z.number().int() }).nullable() })),
  athletes: z.array(z.object({ ...standing, name: z.string().describe('Name (class)') })).describe('The first 20, relays not counted'),
  lines: z.array(
    z.object({ eventName: z.string(), groupName: z.string(), name: z.string(), classId: z.string(), className: z.string(), place: z.number().int(), mark: z.string().describe('Formatted'), points: z.number(), newRecord: z.boolean() }),
  ),
});
