import { describe, expect, it } from 'vitest';
import { classClashes, drawHeats, heatSizes, lanePreference, type DrawAthlete } from '@/domain/meets/draw';

const athletes = (n: number, classes: number): DrawAthlete[] =>
  Array.from({ length: n }, (_, i) => ({ id: `a${String(i).padStart(3, '0')}`, classId: `c${i % classes}`, mark: 12 + i * 0.1 }));

describe('draw', () => {
  it('prefers the middle lanes: 8 lanes → 4 5 3 6 2 7 1 8', () => {
    expect(lanePreference(8)).toEqual([4, 5, 3, 6, 2, 7, 1, 8]);
    expect(lanePreference(6)).toEqual([3, 4, 2, 5, 1, 6]);
  });

  it('splits athletes into heats no larger than the lanes, sizes differing by at most one', () => {
    expect(heatSizes(17, 8)).toEqual([6, 6, 5]);
    const heats = drawHeats(athletes(17, 17), { mode: 'random', seed: 7, kind: 'time', heatSize: 8, lanes: 8 });
    expect(heats.map((h) => h.athletes.length)).toEqual([6, 6, 5]);
    expect(heats.flatMap((h) => h.athletes.map((a) => a.id)).sort()).toEqual(athletes(17, 17).map((a) => a.id));
    for (const h of heats) expect(new Set(h.athletes.map((a) => a.lane)).size).toBe(h.athletes.length);
  });

  it('is deterministic by seed: the same seed replays the draw, another seed differs', () => {
    const o = { mode: 'random' as const, kind: 'time' as const, heatSize: 8, lanes: 8 };
    const a = drawHeats(athletes(30, 6), { ...o, seed: 42 });
    expect(drawHeats(athletes(30, 6), { ...o, seed: 42 })).toEqual(a);
    expect(drawHeats(athletes(30, 6), { ...o, seed: 43 })).not.toEqual(a);
  });

  it('seeded: the fastest get the preferred lanes, and the best are snaked over the heats', () => {
    const list = athletes(16, 16); // a000 fastest
    const heats = drawHeats(list, { mode: 'seeded', seed: 1, kind: 'time', heatSize: 8, lanes: 8 });
    const laneOf = (id: string) => heats.flatMap((h) => h.athletes).find((a) => a.id === id)!.lane;
    const heatOf = (id: string) => heats.find((h) => h.athletes.some((a) => a.id === id))!.no;
    expect(heatOf('a000')).not.toBe(heatOf('a001'));
    expect(laneOf('a000')).toBe(4);
    expect(laneOf('a001')).toBe(4);
    expect(laneOf('a002')).toBe(5);
    // Distance events: higher is better.
    const field = drawHeats(list, { mode: 'seeded', seed: 1, kind: 'distance', heatSize: 8, lanes: 8 });
    expect(field.flatMap((h) => h.athletes).find((a) => a.id === 'a015')!.lane).toBe(4);
  });

  it('spreads a class over the heats when it can be avoided', () => {
    // 4 classes × 4 athletes in 4 heats of 4: a perfect spread exists.
    for (const mode of ['random', 'seeded'] as const) {
      for (let seed = 1; seed < 20; seed++) {
        const list = athletes(16, 4);
        const heats = drawHeats(list, { mode, seed, kind: 'time', heatSize: 4, lanes: 8 });
        expect(classClashes(heats, (id) => list.find((a) => a.id === id)!.classId)).toBe(0);
      }
    }
  });

  it('field flights get a starting order 1..n instead of lanes', () => {
    const heats = drawHeats(athletes(5, 5), { mode: 'random', seed: 3, kind: 'distance', heatSize: 12, lanes: 0 });
    expect(heats).toHaveLength(1);
    expect(heats[0].athletes.map((a) => a.lane)).toEqual([1, 2, 3, 4, 5]);
  });
});
