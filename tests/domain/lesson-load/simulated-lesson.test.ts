import { describe, expect, it } from 'vitest';
import { dangerRuns, DANGER_SUSTAIN_S, SILENT_AFTER_S } from '@/domain/lesson-load/alerts';
import { screenSamples } from '@/domain/lesson-load/samples';
import { lessonLoad, type MinuteRow } from '@/domain/lesson-load/summary';
import { isActive, zoneOf, zoneThresholds, ZONES, type Zone } from '@/domain/lesson-load/zones';
import { fitnessOf, generateLesson, type HeartRateLessonPlan } from '../../../server/simulate/heart-rate';

/**
 * The simulator's lessons (server/simulate/heart-rate.ts) have the shape of a PE lesson and carry the events the
 * monitor and the ingest must handle. Figures are read as the product reads them: the drop rules, then the summary
 * over per-minute rows (folded here independently of the store).
 */
const START = Date.UTC(2026, 10, 23, 2, 0);
const students = (n: number, age: number) => Array.from({ length: n }, (_, i) => ({ studentId: `student-${i}`, band: `HR${i}`, age, fitness: fitnessOf(`student-${i}`) }));

function read(plan: HeartRateLessonPlan) {
  const g = generateLesson(plan);
  const ageOf = new Map(plan.students.map((s) => [s.studentId, s.age]));
  const byStudent = new Map<string, { at: number; bpm: number; intensity: number | null }[]>();
  for (const s of g.samples) {
    let list = byStudent.get(s.studentId);
    if (!list) byStudent.set(s.studentId, (list = []));
    list.push({ at: s.at, bpm: s.bpm, intensity: s.intensity ?? null });
  }
  const kept = new Map<string, { at: number; bpm: number; intensity: number | null }[]>();
  const drops: Record<string, number> = {};
  for (const [id, list] of byStudent) {
    const r = screenSamples(list, null);
    kept.set(id, r.kept);
    for (const [reason, n] of Object.entries(r.drops)) drops[reason] = (drops[reason] ?? 0) + n;
  }
  const weight = plan.every ?? 1;
  const minutes = new Map<string, MinuteRow>();
  for (const [studentId, list] of kept) {
    for (const s of list) {
      const minute = Math.floor(s.at / 60_000) * 60_000;
      const key = `${studentId}|${minute}`;
      const zones = Object.fromEntries(ZONES.map((z) => [z, 0])) as Record<Zone, number>;
      const row = minutes.get(key) ?? { studentId, minute, samples: 0, bpmSum: 0, bpmMin: s.bpm, bpmMax: s.bpm, zones, active: 0 };
      row.samples += weight;
      row.bpmSum += s.bpm * weight;
      row.bpmMin = Math.min(row.bpmMin, s.bpm);
      row.bpmMax = Math.max(row.bpmMax, s.bpm);
      row.zones[zoneOf(s.bpm, ageOf.get(studentId)!)] += weight;
      if (isActive(s.bpm, s.intensity)) row.active += weight;
      minutes.set(key, row);
    }
  }
  const end = START + plan.minutes * 60_000;
  return { g, kept, drops, load: lessonLoad([...minutes.values()], START, end, end) };
}

const good = { seed: 11, startedAt: START, minutes: 40, students: students(40, 13), intensity: true, silentBand: true, danger: true, artefacts: true } satisfies HeartRateLessonPlan;

// Each case draws whole lessons (≈100,000 samples): seconds on a loaded machine.
describe('a simulated heart-rate lesson', { timeout: 30_000 }, () => {
  const { g, kept, drops, load } = read(good);

  it('a good lesson: the main part’s class mean in 140–160, density above the curriculum targets', () => {
    expect(load.mainMeanBpm).toBeGreaterThanOrEqual(140);
    expect(load.mainMeanBpm).toBeLessThanOrEqual(160);
    expect(load.groupDensity).toBeGreaterThanOrEqual(0.75);
    expect(load.individualDensity).toBeGreaterThanOrEqual(0.5);
    expect(load.meetsTargets).toBe(true);
  });

  it('rests, warms up over the first minutes, peaks in drills and cools down toward 100', () => {
    const curve = new Map(load.curve.map((c) => [c.minute, c.meanBpm]));
    expect(curve.get(0)).toBeGreaterThanOrEqual(80);
    expect(curve.get(0)).toBeLessThanOrEqual(100);
    expect(curve.get(7)).toBeGreaterThanOrEqual(120);
    expect(curve.get(7)).toBeLessThanOrEqual(140);
    const main = load.curve.filter((c) => c.minute >= 8 && c.minute < 35).map((c) => c.meanBpm);
    // Drills peak at 150–175, recoveries dip between them.
    expect(Math.max(...main)).toBeGreaterThanOrEqual(150);
    expect(Math.max(...main)).toBeLessThanOrEqual(175);
    expect(Math.min(...main)).toBeLessThan(Math.max(...main) - 10);
    expect(curve.get(39)).toBeLessThanOrEqual(115);
    expect(load.recoveryBpm).toBeGreaterThan(30);
  });

  it('students differ: resting rates 78–100, peaks by age and fitness', () => {
    const firstMinute = [...kept.values()].map((list) => list.filter((s) => s.at < START + 60_000).reduce((a, s) => a + s.bpm, 0) / 60);
    for (const m of firstMinute) {
      expect(m).toBeGreaterThanOrEqual(75);
      expect(m).toBeLessThanOrEqual(103);
    }
    const peaks = load.students.map((s) => s.peakBpm!);
    expect(Math.max(...peaks) - Math.min(...peaks)).toBeGreaterThan(10);
  });

  it('one student stays above the danger threshold for at least 30 s, nobody else reaches it for that long', () => {
    expect(g.danger).not.toBeNull();
    const danger = zoneThresholds(13).danger;
    expect(g.danger!.dangerBpm).toBe(danger);
    for (const [id, list] of kept) {
      const runs = dangerRuns(list, danger);
      if (id === g.danger!.studentId) {
        expect(runs).toHaveLength(1);
        expect((runs[0].to - runs[0].from) / 1000).toBeGreaterThanOrEqual(DANGER_SUSTAIN_S);
      } else expect(runs).toEqual([]);
    }
  });

  it('one band goes silent mid-lesson for at least a minute, then reports again', () => {
    expect(g.silent).not.toBeNull();
    const list = kept.get(g.silent!.studentId)!;
    const gaps = list.slice(1).map((s, i) => (s.at - list[i].at) / 1000);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(Math.max(60, SILENT_AFTER_S));
    expect(list.at(-1)!.at).toBeGreaterThan(g.silent!.to);
    expect(g.silent!.from).toBeGreaterThanOrEqual(START + 8 * 60_000);
    // Every other band sends one sample a second (the artefacts' band loses the two it spoiled).
    for (const [id, l] of kept) if (id !== g.silent!.studentId) expect(l.length).toBeGreaterThanOrEqual(40 * 60 - 2);
  });

  it('sends a 250 and a jump, which the drop rules drop', () => {
    expect(g.artefacts.map((a) => a.reason).sort()).toEqual(['jump', 'range']);
    expect(g.artefacts.find((a) => a.reason === 'range')!.bpm).toBe(250);
    expect(drops).toEqual({ range: 1, jump: 1 });
  });

  it('is the same lesson for the same seed', () => {
    expect(generateLesson(good).samples.slice(0, 500)).toEqual(g.samples.slice(0, 500));
    expect(generateLesson({ ...good, seed: 12 }).samples.slice(0, 500)).not.toEqual(g.samples.slice(0, 500));
  });

  it('stops at `until` for a lesson in progress', () => {
    const until = START + 12 * 60_000;
    const part = generateLesson({ ...good, until });
    expect(Math.max(...part.samples.map((s) => s.at))).toBe(until - 1000);
  });
});

describe('styles and strides', { timeout: 30_000 }, () => {
  it('a light lesson stays under 140 in the main part; a lesson of explaining and queueing misses the group density', () => {
    const light = read({ ...good, style: 'light', seed: 5 });
    expect(light.load.mainMeanBpm).toBeLessThan(140);
    expect(light.load.meetsTargets).toBe(false);
    const queueing = read({ ...good, style: 'lowDensity', seed: 5 });
    expect(queueing.load.groupDensity).toBeLessThan(0.75);
    expect(queueing.load.meetsTargets).toBe(false);
  });

  it('university students (19) in a 90-minute lesson land in the targets too', () => {
    const { load } = read({ ...good, minutes: 90, students: students(42, 19), seed: 3 });
    expect(load.mainMeanBpm).toBeGreaterThanOrEqual(140);
    expect(load.mainMeanBpm).toBeLessThanOrEqual(160);
    expect(load.meetsTargets).toBe(true);
  });

  it('a sample every 10 s, each counted ten times, gives the figures of the per-second lesson within a few bpm', () => {
    const coarse = read({ ...good, every: 10 });
    const { load } = read(good);
    expect(Math.abs(coarse.load.mainMeanBpm! - load.mainMeanBpm!)).toBeLessThanOrEqual(2);
    expect(Math.abs(coarse.load.groupDensity! - load.groupDensity!)).toBeLessThanOrEqual(0.05);
    expect(coarse.drops).toEqual({ range: 1, jump: 1 });
    const danger = coarse.g.danger!;
    const above = coarse.kept.get(danger.studentId)!.filter((s) => s.bpm >= danger.dangerBpm);
    expect(above.length * 10).toBeGreaterThanOrEqual(DANGER_SUSTAIN_S);
  });
});
