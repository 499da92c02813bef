import { describe, expect, it } from 'vitest';
import { dangerRuns, silentBands } from '@/domain/lesson-load/alerts';
import { screenSamples } from '@/domain/lesson-load/samples';
import { aboveAgeSteps, abovePeakBpm, abovePeakByAge } from '@/domain/lesson-load/reports';
import { lessonLoad, mainPartOf, type MinuteRow } from '@/domain/lesson-load/summary';
import { zoneAge, zoneOf, zoneThresholds } from '@/domain/lesson-load/zones';

describe('zones from age', () => {
  it('a 13-year-old: maximum 207, target from 145, danger from 197', () => {
    expect(zoneThresholds(13)).toEqual({ moderate: 114, target: 145, high: 176, danger: 197 });
    expect(zoneOf(144, 13)).toBe('moderate');
    expect(zoneOf(145, 13)).toBe('target');
    expect(zoneOf(197, 13)).toBe('danger');
    expect(zoneOf(80, 13)).toBe('rest');
  });
  it('age from the birth date on the day, else the grade, clamped', () => {
    expect(zoneAge('2013-06-01', 12, '2026-05-31')).toBe(12);
    expect(zoneAge('2013-06-01', 12, '2026-06-01')).toBe(13);
    expect(zoneAge(null, 14, '2026-06-01')).toBe(14);
    expect(zoneAge('2024-01-01', 12, '2026-06-01')).toBe(6);
  });
  it("the summary's age steps give abovePeakBpm for every birth date and grade (birthdays on the day, 29 February)", () => {
    const byAge = abovePeakByAge();
    for (const day of ['2025-09-01', '2026-02-20', '2028-02-29', '2027-03-01', '2025-08-01']) {
      const { from, byGrade } = aboveAgeSteps(day);
      expect([...from].sort()).toEqual(from);
      // width_bucket(birth, from): how many of the ascending dates are on or before the birth date.
      const stepped = (birth: string) => byAge[from.filter((f) => f <= birth).length];
      for (let t = Date.UTC(1995, 0, 1); t <= Date.UTC(2024, 11, 31); t += 86_400_000) {
        const birth = new Date(t).toISOString().slice(0, 10);
        if (stepped(birth) !== abovePeakBpm(birth, 5, day)) expect({ day, birth, bpm: stepped(birth) }).toEqual({ day, birth, bpm: abovePeakBpm(birth, 5, day) });
      }
      for (let g = 0; g <= 20; g++) expect(byAge[byGrade[Math.min(g, byGrade.length - 1)]]).toBe(abovePeakBpm(null, g, day));
    }
  });
});

describe('drop rules', () => {
  const s = (sec: number, bpm: number) => ({ at: sec * 1000, bpm, intensity: null });
  it('drops out-of-range values and jumps, keeps a resend once, sorts late samples', () => {
    const { kept, drops } = screenSamples([s(3, 120), s(1, 100), s(2, 231), s(2, 110), s(4, 200), s(1, 100)], null);
    expect(kept.map((k) => [k.at / 1000, k.bpm])).toEqual([
      [1, 100],
      [2, 110],
      [3, 120],
    ]);
    expect(drops).toEqual({ range: 1, jump: 1 });
  });
  it('a value out of range is counted even when the second was seen', () => {
    expect(screenSamples([s(1, 20), s(2, 250)], null).drops).toEqual({ range: 2 });
  });
  it('the previous kept sample before the batch counts for the jump rule', () => {
    expect(screenSamples([s(10, 190)], { at: 9000, bpm: 100 }).drops).toEqual({ jump: 1 });
    expect(screenSamples([s(20, 190)], { at: 9000, bpm: 100 }).kept).toHaveLength(1);
  });
});

describe('alerts', () => {
  it('a run above the threshold counts once it lasted 30 s; a gap of 5 s does not break it', () => {
    const run = Array.from({ length: 31 }, (_, i) => ({ at: i * 1000, bpm: i === 10 ? 0 : 200 })).filter((x) => x.bpm);
    expect(dangerRuns(run, 197)).toEqual([{ from: 0, to: 30_000, peak: 200 }]);
    expect(dangerRuns(run.slice(0, 29), 197)).toEqual([]);
  });
});

describe('lesson load', () => {
  const start = Date.UTC(2026, 10, 2, 1, 0);
  const minute = (studentId: string, m: number, bpm: number, active: number): MinuteRow => ({
    studentId,
    minute: start + m * 60_000,
    samples: 60,
    bpmSum: bpm * 60,
    bpmMin: bpm,
    bpmMax: bpm + 5,
    zones: { rest: 0, moderate: 60 - active, target: active, high: 0, danger: 0 },
    active,
  });
  it('a 40-minute lesson: main part 8–35, densities and the targets, hand-computed', () => {
    expect(mainPartOf(40)).toEqual({ from: 8, to: 35 });
    const rows: MinuteRow[] = [];
    for (let m = 0; m < 40; m++) {
      const main = m >= 8 && m < 35;
      rows.push(minute('a', m, main ? 150 : 100, main ? 60 : 0));
      rows.push(minute('b', m, main ? 140 : 100, main ? 30 : 0));
    }
    const load = lessonLoad(rows, start, start + 40 * 60_000, start + 40 * 60_000);
    expect(load.mainMeanBpm).toBe(145);
    // group: a minute counts when half the students exercised half of it: the 27 main minutes of 40.
    expect(load.groupDensity).toBe(0.675);
    // a: 27×60 of 2400 s = 0.675, b: 27×30 of 2400 = 0.3375 → mean 0.506 (rounded to 3 places each)
    expect(load.students.find((s) => s.studentId === 'a')!.density).toBe(0.675);
    expect(load.individualDensity).toBe(0.506);
    expect(load.recoveryBpm).toBe(45);
    expect(load.targets).toEqual({ groupDensity: false, individualDensity: true, meanBpm: true });
    expect(load.meetsTargets).toBe(false);
    expect(load.curve).toHaveLength(40);
  });
});

describe('silent bands', () => {
  it('alerts the bands silent for 60 s while another still reports; all silent at once is the hub, not the students', () => {
    const now = 1_000_000;
    const bands = [
      { id: 'a', lastAt: now - 61_000 },
      { id: 'b', lastAt: now - 2_000 },
      { id: 'c', lastAt: now - 59_000 },
    ];
    expect(silentBands(bands, now).map((b) => b.id)).toEqual(['a']);
    expect(silentBands([bands[0], { id: 'd', lastAt: now - 300_000 }], now)).toEqual([]);
  });
});
