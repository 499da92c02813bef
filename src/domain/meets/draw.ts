import { compareMarks, type ResultKind } from './marks';
import { seededRandom, shuffled } from './random';

/**
 * The draw (docs/product-rules.md#meets): athletes of one event and round into heats (track) or flights (field), with
 * lanes (or starting order). Deterministic given the seed.
 *
 * - random: the athletes are shuffled and dealt to the heats in turn;
 * - seeded: the athletes are ordered by their best known mark and dealt in a snake (1→n, n→1 …) so every heat gets
 *   a fair share of the strong ones; within a heat the best take the preferred lanes (middle lanes first).
 * In both, class spread: an athlete goes to the heat that has fewest athletes of their class among those with room
 * (ties: the heat the deal would have chosen), so two athletes of one class meet in a heat only when it cannot be
 * avoided.
 */
export const DRAW_MODES = ['random', 'seeded'] as const;
export type DrawMode = (typeof DRAW_MODES)[number];

export interface DrawAthlete {
  id: string;
  classId: string;
  /** Best known mark in the event's unit, or null. */
  mark: number | null;
}

export interface DrawOptions {
  mode: DrawMode;
  seed: number;
  kind: ResultKind;
  /** Most athletes in a heat (the lanes of a track, the size of a field flight). */
  heatSize: number;
  /** Lanes of the track (track events); lane numbers are 1..lanes. Field events: 0 (starting order instead). */
  lanes: number;
  /** Lane preference, best athlete first; defaults to middle-out (`lanePreference`). */
  laneOrder?: readonly number[];
}

export interface DrawnHeat {
  /** 1-based heat number. */
  no: number;
  /** Athletes with their lane (track) or starting order (field), by lane. */
  athletes: { id: string; lane: number }[];
}

/** Middle-out lane preference: 8 lanes → 4, 5, 3, 6, 2, 7, 1, 8. */
export function lanePreference(lanes: number): number[] {
  const mid = Math.ceil(lanes / 2);
  const out = [mid];
  for (let d = 1; out.length < lanes; d++) {
    if (mid + d <= lanes) out.push(mid + d);
    if (mid - d >= 1) out.push(mid - d);
  }
  return out;
}

/** Heat sizes differing by at most one, for n athletes in heats of at most `heatSize`. */
export function heatSizes(n: number, heatSize: number): number[] {
  if (n <= 0) return [];
  const heats = Math.ceil(n / heatSize);
  const base = Math.floor(n / heats);
  const extra = n % heats;
  return Array.from({ length: heats }, (_, i) => base + (i < extra ? 1 : 0));
}

export function drawHeats(athletes: readonly DrawAthlete[], o: DrawOptions): DrawnHeat[] {
  const random = seededRandom(o.seed);
  // A random order first, also the tie-break between equal marks in a seeded draw.
  const order = shuffled([...athletes].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)), random);
  if (o.mode === 'seeded') order.sort((a, b) => compareMarks(o.kind, a.mark, b.mark));
  const sizes = heatSizes(order.length, Math.max(1, o.heatSize));
  const heats: DrawAthlete[][] = sizes.map(() => []);
  const perClass: Map<string, number>[] = sizes.map(() => new Map());
  const h = sizes.length;
  order.forEach((a, i) => {
    const round = Math.floor(i / h);
    const pos = i % h;
    const dealt = o.mode === 'seeded' && round % 2 === 1 ? h - 1 - pos : pos;
    let best = -1;
    let bestKey = Infinity;
    for (let k = 0; k < h; k++) {
      if (heats[k].length >= sizes[k]) continue;
      const same = perClass[k].get(a.classId) ?? 0;
      // Class spread first, then the dealt heat, then nearness to it.
      const key = same * 1000 + (k === dealt ? 0 : 1 + Math.abs(k - dealt));
      if (key < bestKey) {
        bestKey = key;
        best = k;
      }
    }
    heats[best].push(a);
    perClass[best].set(a.classId, (perClass[best].get(a.classId) ?? 0) + 1);
  });
  return heats.map((members, i) => ({ no: i + 1, athletes: assignLanes(members, o, random) }));
}

function assignLanes(members: DrawAthlete[], o: DrawOptions, random: () => number): { id: string; lane: number }[] {
  if (o.lanes > 0) {
    const pref = (o.laneOrder?.length ? o.laneOrder : lanePreference(o.lanes)).filter((l) => l >= 1 && l <= o.lanes);
    const ranked = o.mode === 'seeded' ? members : shuffled(members, random);
    // Seeded: members are already best first (dealt in mark order).
    return ranked.map((m, i) => ({ id: m.id, lane: pref[i] })).sort((a, b) => a.lane - b.lane);
  }
  // Field flights: the starting order is drawn; seeded flights start weakest first so the best compete last.
  const ordered = o.mode === 'seeded' ? [...members].reverse() : shuffled(members, random);
  return ordered.map((m, i) => ({ id: m.id, lane: i + 1 }));
}

/** How many pairs of athletes of the same class share a heat (0 when spread perfectly). */
export function classClashes(heats: readonly DrawnHeat[], classOf: (id: string) => string): number {
  let clashes = 0;
  for (const heat of heats) {
    const count = new Map<string, number>();
    for (const a of heat.athletes) count.set(classOf(a.id), (count.get(classOf(a.id)) ?? 0) + 1);
    for (const c of count.values()) clashes += (c * (c - 1)) / 2;
  }
  return clashes;
}
