import { describe, expect, it } from 'vitest';
import { findConflicts, generateSchedule, type ScheduleHeat } from '@/domain/meets/schedule';

const sessions = [
  { day: 0, start: 480, end: 690 },
  { day: 0, start: 840, end: 1050 },
  { day: 1, start: 480, end: 690 },
];
const o = { sessions, changeover: 10, minRest: 30 };

describe('schedule', () => {
  it('puts heats of one venue one after another, in session time', () => {
    const heats: ScheduleHeat[] = [1, 2, 3].map((n) => ({ id: `h${n}`, eventId: 'e', round: 0, venueId: 'track', duration: 10, athleteIds: [`a${n}`] }));
    const { slots, unplaced } = generateSchedule(heats, o);
    expect(unplaced).toEqual([]);
    expect(slots.map((s) => s.start)).toEqual([480, 490, 500]);
    expect(findConflicts(heats, slots, o)).toEqual([]);
  });

  it('keeps an athlete out of two overlapping heats (with the changeover) and rests a final after its heats', () => {
    const heats: ScheduleHeat[] = [
      { id: 'run', eventId: 'e1', round: 0, venueId: 'track', duration: 10, athleteIds: ['x'] },
      { id: 'jump', eventId: 'e2', round: 0, venueId: 'pit', duration: 30, athleteIds: ['x', 'y'] },
      { id: 'final', eventId: 'e1', round: 1, venueId: 'track', duration: 10, athleteIds: [] },
    ];
    const { slots } = generateSchedule(heats, o);
    const at = Object.fromEntries(slots.map((s) => [s.heatId, s.start]));
    expect(at.run).toBe(480);
    expect(at.jump).toBe(500);
    expect(at.final).toBe(520);
    expect(findConflicts(heats, slots, o)).toEqual([]);
  });

  it('moves to the next session when one is full, and reports heats that fit nowhere', () => {
    const heats: ScheduleHeat[] = [
      { id: 'long1', eventId: 'e', round: 0, venueId: 'v', duration: 200, athleteIds: [] },
      { id: 'long2', eventId: 'e', round: 0, venueId: 'v', duration: 200, athleteIds: [] },
      { id: 'long3', eventId: 'e', round: 0, venueId: 'v', duration: 200, athleteIds: [] },
      { id: 'huge', eventId: 'f', round: 0, venueId: 'w', duration: 300, athleteIds: [] },
    ];
    const { slots, unplaced } = generateSchedule(heats, o);
    expect(slots.map((s) => [s.heatId, s.day, s.start])).toEqual([
      ['long1', 0, 480],
      ['long2', 0, 840],
      ['long3', 1, 480],
    ]);
    expect(unplaced).toEqual(['huge']);
  });

  it('finds a double-booked venue, an athlete in two places and too little rest', () => {
    const heats: ScheduleHeat[] = [
      { id: 'a', eventId: 'e1', round: 0, venueId: 'track', duration: 10, athleteIds: ['x'] },
      { id: 'b', eventId: 'e2', round: 0, venueId: 'track', duration: 10, athleteIds: ['x'] },
      { id: 'c', eventId: 'e1', round: 1, venueId: 'field', duration: 10, athleteIds: [] },
    ];
    const slots = [
      { heatId: 'a', day: 0, start: 480, end: 490, venueId: 'track' },
      { heatId: 'b', day: 0, start: 485, end: 495, venueId: 'track' },
      { heatId: 'c', day: 0, start: 500, end: 510, venueId: 'field' },
    ];
    const kinds = findConflicts(heats, slots, o).map((c) => c.kind).sort();
    expect(kinds).toEqual(['athlete', 'rest', 'venue']);
  });
});
