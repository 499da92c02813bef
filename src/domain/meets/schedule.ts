/**
 * The schedule (docs/product-rules.md#meets): every heat gets a venue, a day and a start within one of the meet's
 * sessions. Times are minutes from midnight of the day. Generation is greedy and deterministic: heats in event order
 * (heats before finals), each at the earliest time its venue is free, none of its athletes is busy (plus the change
 * time), and a later round starts at least `minRest` after the earlier round of its event ended.
 */
export interface Session {
  day: number;
  /** Minutes from midnight. */
  start: number;
  end: number;
}

export interface ScheduleHeat {
  id: string;
  eventId: string;
  /** 0 = heats, 1 = final (a later round waits for the earlier one). */
  round: number;
  venueId: string;
  duration: number;
  athleteIds: readonly string[];
}

export interface Slot {
  heatId: string;
  day: number;
  start: number;
  end: number;
  venueId: string;
}

export interface ScheduleOptions {
  sessions: readonly Session[];
  /** Minutes an athlete needs between two of their heats. */
  changeover: number;
  /** Minutes between the end of a round and the start of the next round of the same event. */
  minRest: number;
}

type Interval = [number, number];
const abs = (day: number, min: number) => day * 1440 + min;

/** Places every heat, or answers the ids of those that did not fit in the sessions. */
export function generateSchedule(heats: readonly ScheduleHeat[], o: ScheduleOptions): { slots: Slot[]; unplaced: string[] } {
  const sessions = [...o.sessions].sort((a, b) => abs(a.day, a.start) - abs(b.day, b.start));
  const venueBusy = new Map<string, Interval[]>();
  const athleteBusy = new Map<string, Interval[]>();
  const roundEnd = new Map<string, number>();
  const slots: Slot[] = [];
  const unplaced: string[] = [];
  for (const h of heats) {
    const earliest = h.round > 0 ? (roundEnd.get(`${h.eventId}:${h.round - 1}`) ?? -Infinity) + o.minRest : -Infinity;
    const vb = venueBusy.get(h.venueId) ?? [];
    let placed: Slot | null = null;
    for (const s of sessions) {
      let t = Math.max(abs(s.day, s.start), earliest);
      const limit = abs(s.day, s.end);
      while (t + h.duration <= limit) {
        const clash = [...vb.filter(([a, b]) => t < b && a < t + h.duration)];
        for (const id of h.athleteIds) for (const iv of athleteBusy.get(id) ?? []) if (t < iv[1] + o.changeover && iv[0] < t + h.duration + o.changeover) clash.push([iv[0], iv[1] + o.changeover]);
        if (clash.length === 0) break;
        t = Math.max(...clash.map((c) => c[1]));
      }
      if (t + h.duration <= limit) {
        placed = { heatId: h.id, day: s.day, start: t - s.day * 1440, end: t - s.day * 1440 + h.duration, venueId: h.venueId };
        break;
      }
    }
    if (!placed) {
      unplaced.push(h.id);
      continue;
    }
    const s = abs(placed.day, placed.start);
    const e = abs(placed.day, placed.end);
    vb.push([s, e]);
    venueBusy.set(h.venueId, vb);
    for (const id of h.athleteIds) athleteBusy.set(id, [...(athleteBusy.get(id) ?? []), [s, e]]);
    const key = `${h.eventId}:${h.round}`;
    roundEnd.set(key, Math.max(roundEnd.get(key) ?? -Infinity, e));
    slots.push(placed);
  }
  return { slots, unplaced };
}

export type Conflict =
  | { kind: 'venue'; venueId: string; heatIds: [string, string] }
  | { kind: 'athlete'; athleteId: string; heatIds: [string, string] }
  | { kind: 'rest'; eventId: string; heatIds: [string, string] };

/** Conflicts of a schedule (after a manual change): a venue double-booked, an athlete in two overlapping heats, too little rest between rounds. */
export function findConflicts(heats: readonly ScheduleHeat[], slots: readonly Slot[], o: Pick<ScheduleOptions, 'changeover' | 'minRest'>): Conflict[] {
  const slotOf = new Map(slots.map((s) => [s.heatId, s]));
  const placed = heats.filter((h) => slotOf.has(h.id)).map((h) => {
    const s = slotOf.get(h.id)!;
    return { h, s: abs(s.day, s.start), e: abs(s.day, s.end), venueId: s.venueId };
  });
  placed.sort((a, b) => a.s - b.s || (a.h.id < b.h.id ? -1 : 1));
  const out: Conflict[] = [];
  for (let i = 0; i < placed.length; i++) {
    for (let j = i + 1; j < placed.length; j++) {
      const a = placed[i];
      const b = placed[j];
      if (b.s >= a.e + Math.max(o.changeover, o.minRest)) break;
      const ids: [string, string] = [a.h.id, b.h.id];
      if (a.venueId === b.venueId && b.s < a.e) out.push({ kind: 'venue', venueId: a.venueId, heatIds: ids });
      if (b.s < a.e + o.changeover) {
        const inA = new Set(a.h.athleteIds);
        for (const id of b.h.athleteIds) if (inA.has(id)) out.push({ kind: 'athlete', athleteId: id, heatIds: ids });
      }
      if (a.h.eventId === b.h.eventId && a.h.round !== b.h.round && b.s < a.e + o.minRest) out.push({ kind: 'rest', eventId: a.h.eventId, heatIds: ids });
    }
  }
  return out;
}

/** 'HH:MM' → minutes from midnight. */
export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
/** Minutes from midnight → 'HH:MM'. */
export const clockOf = (min: number): string => `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;
