import { compareMarks, type ResultKind } from './marks';

/**
 * Places in an event (docs/product-rules.md#meets). Only results with a mark and status 'ok' are placed; DNS, DNF, DQ
 * and invalid results get no place. Ties are broken by the event's rule:
 * - field (distance): the next best attempt, then the next (`attempts`);
 * - height: fewer failures at the winning height, then fewer failures in all;
 * - otherwise (or when still equal) the athletes share the place (1, 2, 2, 4).
 */
export const RESULT_STATUSES = ['ok', 'dns', 'dnf', 'dq'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

export interface Rankable {
  id: string;
  mark: number | null;
  status: ResultStatus;
  invalid?: boolean;
  /** Field attempts (null = foul / pass), for the tie-break by the next best attempt. */
  attempts?: readonly (number | null)[] | null;
  /** High jump: failures at the best height and in all. */
  failuresAtBest?: number | null;
  failures?: number | null;
}

/** The best valid attempt of a field event (null when every attempt was a foul). */
export function bestAttempt(kind: ResultKind, attempts: readonly (number | null)[]): number | null {
  let best: number | null = null;
  for (const a of attempts) if (a != null && a > 0 && (best == null || compareMarks(kind, a, best) < 0)) best = a;
  return best;
}

function tieBreak(kind: ResultKind, a: Rankable, b: Rankable): number {
  if (kind === 'height') {
    const d = (a.failuresAtBest ?? 0) - (b.failuresAtBest ?? 0);
    return d !== 0 ? d : (a.failures ?? 0) - (b.failures ?? 0);
  }
  if (kind === 'distance' && a.attempts && b.attempts) {
    const sa = a.attempts.filter((x): x is number => x != null).sort((x, y) => compareMarks(kind, x, y));
    const sb = b.attempts.filter((x): x is number => x != null).sort((x, y) => compareMarks(kind, x, y));
    for (let i = 1; i < Math.max(sa.length, sb.length); i++) {
      const d = compareMarks(kind, sa[i], sb[i]);
      if (d !== 0) return d;
    }
  }
  return 0;
}

export const isPlaced = (r: Rankable) => r.status === 'ok' && !r.invalid && r.mark != null;

/** Places by id (ties share a place, the next place skips); unplaced results are absent. */
export function rankResults(kind: ResultKind, results: readonly Rankable[]): Map<string, number> {
  const placed = results.filter(isPlaced);
  const cmp = (a: Rankable, b: Rankable) => compareMarks(kind, a.mark, b.mark) || tieBreak(kind, a, b);
  placed.sort((a, b) => cmp(a, b) || (a.id < b.id ? -1 : 1));
  const places = new Map<string, number>();
  placed.forEach((r, i) => {
    const prev = placed[i - 1];
    places.set(r.id, prev && cmp(prev, r) === 0 ? places.get(prev.id)! : i + 1);
  });
  return places;
}

export interface HeatResult extends Rankable {
  heatNo: number;
}

/**
 * Who advances from the heats to the final: the first `byPlace` of each heat, then the fastest (best) of the rest up
 * to `finalSize` (ties at the cut all advance only when there is room). Answers ids, best first.
 */
export function advancers(kind: ResultKind, results: readonly HeatResult[], byPlace: number, finalSize: number): string[] {
  const heats = new Map<number, HeatResult[]>();
  for (const r of results) heats.set(r.heatNo, [...(heats.get(r.heatNo) ?? []), r]);
  const chosen = new Set<string>();
  for (const list of heats.values()) {
    const places = rankResults(kind, list);
    for (const r of list) if ((places.get(r.id) ?? Infinity) <= byPlace) chosen.add(r.id);
  }
  const rest = results.filter((r) => isPlaced(r) && !chosen.has(r.id));
  const restPlaces = rankResults(kind, rest);
  const byRest = [...rest].sort((a, b) => restPlaces.get(a.id)! - restPlaces.get(b.id)! || (a.id < b.id ? -1 : 1));
  for (let i = 0; i < byRest.length && chosen.size < finalSize; i++) {
    const place = restPlaces.get(byRest[i].id)!;
    const tied = byRest.filter((r) => restPlaces.get(r.id) === place);
    if (chosen.size + tied.length > finalSize) break;
    for (const r of tied) chosen.add(r.id);
    i += tied.length - 1;
  }
  const all = rankResults(kind, results.filter((r) => chosen.has(r.id)));
  return [...chosen].sort((a, b) => (all.get(a) ?? 0) - (all.get(b) ?? 0) || (a < b ? -1 : 1));
}
