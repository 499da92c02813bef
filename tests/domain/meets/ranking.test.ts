import { describe, expect, it } from 'vitest';
import { formatMark, parseMark } from '@/domain/meets/marks';
import { eventPoints, isNewRecord, placePoints, standings } from '@/domain/meets/points';
import { advancers, bestAttempt, rankResults, type Rankable } from '@/domain/meets/ranking';

const r = (id: string, mark: number | null, extra: Partial<Rankable> = {}): Rankable => ({ id, mark, status: 'ok', ...extra });

describe('ranking', () => {
  it('times: lower is better, ties share a place and the next place is skipped; DNS/DNF/DQ and invalid get none', () => {
    const places = rankResults('time', [r('a', 12.5), r('b', 12.1), r('c', 12.5), r('d', 13), r('e', null, { status: 'dns' }), r('f', 11, { status: 'dq' }), r('g', 10, { invalid: true })]);
    expect(Object.fromEntries(places)).toEqual({ b: 1, a: 2, c: 2, d: 4 });
  });

  it('distance: the best attempt counts, a tie goes to the better second attempt', () => {
    expect(bestAttempt('distance', [5.1, null, 5.3])).toBe(5.3);
    const places = rankResults('distance', [r('a', 5.3, { attempts: [5.3, 4.0, null] }), r('b', 5.3, { attempts: [5.3, 5.0, 4.9] })]);
    expect(places.get('b')).toBe(1);
    expect(places.get('a')).toBe(2);
  });

  it('height: fewer failures at the best height, then fewer failures, else shared', () => {
    const places = rankResults('height', [
      r('a', 1.5, { failuresAtBest: 1, failures: 2 }),
      r('b', 1.5, { failuresAtBest: 0, failures: 3 }),
      r('c', 1.5, { failuresAtBest: 1, failures: 1 }),
      r('d', 1.5, { failuresAtBest: 1, failures: 1 }),
    ]);
    expect(Object.fromEntries(places)).toEqual({ b: 1, c: 2, d: 2, a: 4 });
  });

  it('advancement: the first of each heat, then the fastest of the rest', () => {
    const list = [
      { ...r('h1a', 12.0), heatNo: 1 },
      { ...r('h1b', 12.1), heatNo: 1 },
      { ...r('h1c', 12.2), heatNo: 1 },
      { ...r('h2a', 12.9), heatNo: 2 },
      { ...r('h2b', 13.0), heatNo: 2 },
    ];
    expect(advancers('time', list, 1, 3)).toEqual(['h1a', 'h1b', 'h2a']);
  });

  it('marks are read and shown in the kind’s unit', () => {
    expect(parseMark('time', '1:05.30')).toBe(65.3);
    expect(parseMark('time', 'abc')).toBeNull();
    expect(formatMark('time', 65.3)).toBe('1:05.30');
    expect(formatMark('distance', 5.3)).toBe('5.30');
  });
});

describe('points and records', () => {
  const rules = { table: [9, 7, 6, 5, 4, 3, 2, 1], relayFactor: 2, recordBonus: 3 };
  it('gives the table’s points, shares tied places, doubles relays and adds the record bonus', () => {
    expect(placePoints(rules.table, 2, 2)).toBe(6.5);
    const lines = eventPoints(rules, [
      { athleteId: 'a', classId: 'c1', gradeId: 'g', place: 1, relay: false, newRecord: true },
      { athleteId: 'b', classId: 'c2', gradeId: 'g', place: 2, relay: false, newRecord: false },
      { athleteId: 'c', classId: 'c1', gradeId: 'g', place: 2, relay: false, newRecord: false },
      { athleteId: 'd', classId: 'c3', gradeId: 'g', place: 9, relay: false, newRecord: false },
    ]);
    expect(lines.map((l) => l.points)).toEqual([12, 6.5, 6.5, 0]);
    expect(eventPoints(rules, [{ athleteId: 'r', classId: 'c1', gradeId: 'g', place: 1, relay: true, newRecord: false }])[0].points).toBe(18);
    expect(standings(lines, (l) => l.classId)).toEqual([
      { id: 'c1', points: 18.5, rank: 1 },
      { id: 'c2', points: 6.5, rank: 2 },
      { id: 'c3', points: 0, rank: 3 },
    ]);
  });

  it('a record falls to a better mark only', () => {
    expect(isNewRecord('time', 12.0, 12.1)).toBe(true);
    expect(isNewRecord('time', 12.1, 12.1)).toBe(false);
    expect(isNewRecord('distance', 5.5, 5.4)).toBe(true);
    expect(isNewRecord('distance', 5.5, null)).toBe(true);
  });
});
