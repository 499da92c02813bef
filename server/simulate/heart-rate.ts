// Pure (no database, no HTTP): the seed writes what it generates directly, the fleet posts it through the device API,
// and the tests check its shape.
import { BPM_MAX } from '../../src/domain/lesson-load/samples';
import { COOL_DOWN_MINUTES, maxHeartRate, WARM_UP_MINUTES, zoneThresholds } from '../../src/domain/lesson-load/zones';
import { createRandom, type Random } from '../seed/people';

/**
 * A simulated PE lesson with heart-rate bands (docs/product-rules.md#lesson-load): per second and band, a heart rate
 * that follows the lesson's effort — resting while the class gathers, a warm-up ramp over the first WARM_UP_MINUTES,
 * a main part of drills (peaks about 150–175 bpm) with short recoveries, a cool-down over the last COOL_DOWN_MINUTES
 * falling toward 100 — with each student's own resting rate, age-predicted maximum, fitness and engagement, a heart
 * that lags the effort (seconds to rise, longer to fall), and noise. Optional: an intensity index (0–100) from the
 * movement, one band silent for a few minutes, one student above the danger threshold for about a minute, and a few
 * implausible values the ingest must drop. Deterministic for a seed.
 */

export interface HeartRateStudent {
  studentId: string;
  /** The band lent to the student: its serial number. */
  band: string;
  /** Age in years on the lesson's day (zones.ts zoneAge). */
  age: number;
  /** 1 is an average child; 0.7 an unfit one (runs higher, recovers slower), 1.3 a fit one. */
  fitness: number;
}

/**
 * How the lesson is taught: `good` meets the curriculum targets; `lowDensity` spends long stretches explaining and
 * queueing (density and mean fall short); `light` moves all the time but gently (the main part's mean under 140).
 */
export const LESSON_STYLES = ['good', 'lowDensity', 'light'] as const;
export type LessonStyle = (typeof LESSON_STYLES)[number];

export interface HeartRateLessonPlan {
  seed: number;
  /** Epoch ms, whole seconds. */
  startedAt: number;
  minutes: number;
  students: readonly HeartRateStudent[];
  style?: LessonStyle;
  /** The bands report an intensity index. */
  intensity?: boolean;
  /** One band (not the danger student's) stops sending for SILENT_S… seconds in the main part. */
  silentBand?: boolean;
  /** The least fit student stays above the danger threshold for about a minute in a drill of the main part. */
  danger?: boolean;
  /** One band sends a 250 (out of range) and a 70 bpm jump, both to be dropped. */
  artefacts?: boolean;
  /**
   * When the danger run and the silent band begin (s from the start, whole seconds), in place of the plan's choice
   * (a drill of the main part; a few minutes into it): a live lesson puts them where a watcher is about to look.
   */
  dangerAt?: number;
  silentAt?: number;
  /** Generate only samples before this instant (a lesson in progress). */
  until?: number;
  /**
   * A sample every this many seconds (default 1, what a band sends). The demo seed draws its closed lessons coarser and
   * counts each sample that many times in the minutes: the same curves for a fraction of the work.
   */
  every?: number;
}

export interface GeneratedSample {
  band: string;
  studentId: string;
  /** Epoch ms, whole seconds. */
  at: number;
  bpm: number;
  intensity?: number;
}

export interface GeneratedLesson {
  /** In time order, then by student. */
  samples: GeneratedSample[];
  /** What the plan put in, so tests and demos can find it. */
  silent: { band: string; studentId: string; from: number; to: number } | null;
  danger: { band: string; studentId: string; dangerBpm: number; from: number; to: number } | null;
  artefacts: { band: string; at: number; bpm: number; reason: 'range' | 'jump' }[];
}

/** How long the silent band stays silent (s): well past the alert's SILENT_AFTER_S. */
export const SILENT_S = 180;
/** How long the danger student is pushed above the threshold (s), rise included: the run above lasts ≥ 40 s. */
const DANGER_PUSH_S = 75;

interface Segment {
  to: number;
  /** Effort from → to over the segment, 0 (rest) … 1 (the student's drill peak). */
  from: number;
  until: number;
  /** Movement (intensity index) over the segment. */
  move: number;
}

/** The class's effort plan: second boundaries (from the start) with an effort ramp and a movement level each. */
function effortPlan(rnd: Random, seconds: number, style: LessonStyle): { segments: Segment[]; drills: { from: number; to: number }[] } {
  const warm = Math.min(WARM_UP_MINUTES * 60, Math.floor(seconds / 4));
  const cool = Math.min(COOL_DOWN_MINUTES * 60, Math.floor(seconds / 6));
  const segments: Segment[] = [];
  const drills: { from: number; to: number }[] = [];
  const gather = Math.min(90, Math.floor(warm / 4));
  const scale = style === 'light' ? 0.66 : 1;
  segments.push({ to: gather, from: 0.08, until: 0.1, move: 12 });
  segments.push({ to: warm, from: 0.38 * scale, until: 0.62 * scale, move: 55 });
  let at = warm;
  const mainEnd = seconds - cool;
  while (at < mainEnd) {
    const drill = style === 'lowDensity' ? rnd.int(90, 150) : rnd.int(120, 240);
    const drillEnd = Math.min(mainEnd, at + drill);
    const peak = (0.86 + rnd.next() * 0.12) * scale;
    segments.push({ to: drillEnd, from: peak, until: peak, move: 75 });
    drills.push({ from: at, to: drillEnd });
    at = drillEnd;
    if (at >= mainEnd) break;
    const rest = style === 'lowDensity' ? rnd.int(120, 200) : rnd.int(40, 80);
    const restEnd = Math.min(mainEnd, at + rest);
    const level = (style === 'lowDensity' ? 0.12 : 0.45) * scale;
    segments.push({ to: restEnd, from: level, until: level, move: style === 'lowDensity' ? 8 : 30 });
    at = restEnd;
  }
  segments.push({ to: seconds, from: 0.45 * scale, until: 0.12, move: 30 });
  return { segments, drills };
}

/** A value of about N(0, 1) from the stream (sum of uniforms: cheap, bounded). */
const gauss = (rnd: Random) => (rnd.next() + rnd.next() + rnd.next() + rnd.next() - 2) * 1.73;
/** Uniform noise of variance 1: per second and band, where the sum above would cost four draws. */
const jitter = (rnd: Random) => (rnd.next() - 0.5) * 3.46;

export function generateLesson(plan: HeartRateLessonPlan): GeneratedLesson {
  const rnd = createRandom(plan.seed);
  const style = plan.style ?? 'good';
  const seconds = plan.minutes * 60;
  const { segments, drills } = effortPlan(rnd, seconds, style);
  const effortAt = new Float32Array(seconds);
  const moveAt = new Float32Array(seconds);
  let from = 0;
  for (const seg of segments) {
    for (let s = from; s < seg.to; s++) {
      const k = seg.to > from + 1 ? (s - from) / (seg.to - from - 1) : 0;
      effortAt[s] = seg.from + (seg.until - seg.from) * k;
      moveAt[s] = seg.move;
    }
    from = seg.to;
  }
  const students = plan.students.map((st) => {
    const max = maxHeartRate(st.age);
    const fit = Math.min(1.4, Math.max(0.6, st.fitness));
    const rest = Math.round(Math.min(100, Math.max(78, 88 + (st.age < 12 ? 5 : 0) - (fit - 1) * 20 + gauss(rnd) * 4)));
    // Less fit students run closer to their maximum for the same drill.
    const peak = Math.min(max - 8, max * (0.78 + rnd.next() * 0.05) + (1 - fit) * 14);
    return {
      ...st,
      rest,
      peak,
      engagement: 0.92 + rnd.next() * 0.16,
      lag: rnd.int(0, 8),
      up: 1 - Math.exp(-1 / (12 + rnd.next() * 6)),
      down: 1 - Math.exp(-fit / (26 + rnd.next() * 10)),
      hr: rest + gauss(rnd) * 3,
      noise: 0,
    };
  });

  // The danger student: the least fit, pushed in the first drill at least five minutes into the main part.
  let danger: GeneratedLesson['danger'] = null;
  if (plan.danger && students.length > 0) {
    const who = students.reduce((a, b) => (b.fitness < a.fitness ? b : a));
    const drill = drills.find((d) => d.from >= WARM_UP_MINUTES * 60 + 300 && d.to - d.from >= 60) ?? drills.find((d) => d.to - d.from >= 60) ?? drills[0];
    const at = plan.dangerAt ?? drill?.from;
    if (at !== undefined) {
      const dangerBpm = zoneThresholds(who.age).danger;
      danger = { band: who.band, studentId: who.studentId, dangerBpm, from: plan.startedAt + at * 1000, to: plan.startedAt + (at + DANGER_PUSH_S) * 1000 };
    }
  }
  let silent: GeneratedLesson['silent'] = null;
  const others = students.filter((s) => s.studentId !== danger?.studentId);
  if (plan.silentBand && others.length > 0) {
    const who = others[rnd.int(0, others.length - 1)];
    const mainFrom = Math.min(seconds, WARM_UP_MINUTES * 60);
    const planned = Math.min(Math.max(0, seconds - SILENT_S - 60), mainFrom + rnd.int(120, 480));
    const start = plan.silentAt ?? planned;
    silent = { band: who.band, studentId: who.studentId, from: plan.startedAt + start * 1000, to: plan.startedAt + (start + SILENT_S) * 1000 };
  }
  // Artefacts on a band of neither, in the main part: a 250 in place of a sample, and a jump one second after another.
  const every = Math.max(1, Math.floor(plan.every ?? 1));
  const onStride = (s: number) => Math.floor(s / every) * every;
  const artefactBand = plan.artefacts ? others.find((s) => s.studentId !== silent?.studentId) : undefined;
  const rangeAt = artefactBand ? onStride(Math.min(seconds - 2, WARM_UP_MINUTES * 60 + rnd.int(60, 300))) : -1;
  const jumpAfter = artefactBand ? onStride(Math.min(seconds - 2, rangeAt + rnd.int(30, 90))) : -1;
  const artefacts: GeneratedLesson['artefacts'] = [];

  const samples: GeneratedSample[] = [];
  const until = plan.until ?? Infinity;
  // The heart moves toward its target by the same share each second; over a stride, by that share compounded.
  const over = (rate: number) => (every === 1 ? rate : 1 - (1 - rate) ** every);
  for (const st of students) {
    st.up = over(st.up);
    st.down = over(st.down);
  }
  const dangerRate = over(0.18);
  const noiseKeep = 0.85 ** every;
  const noiseAdd = 0.6 * Math.sqrt(Math.min(every, 6));
  for (let s = 0; s < seconds; s += every) {
    const at = plan.startedAt + s * 1000;
    if (at >= until) break;
    for (const st of students) {
      const e = effortAt[Math.max(0, s - st.lag)] * st.engagement;
      let target = st.rest + e * (st.peak - st.rest);
      let rate = target > st.hr ? st.up : st.down;
      if (danger && st.studentId === danger.studentId && at >= danger.from && at < danger.to) {
        target = danger.dangerBpm + 7;
        rate = dangerRate;
      }
      st.hr += (target - st.hr) * rate;
      st.noise = st.noise * noiseKeep + jitter(rnd) * noiseAdd;
      if (silent && st.studentId === silent.studentId && at >= silent.from && at < silent.to) continue;
      let bpm = Math.round(st.hr + st.noise);
      const intensity = plan.intensity ? Math.round(Math.min(100, Math.max(0, moveAt[Math.max(0, s - st.lag)] * st.engagement + jitter(rnd) * 6))) : undefined;
      if (st === artefactBand && s === rangeAt) {
        bpm = 250;
        artefacts.push({ band: st.band, at, bpm, reason: 'range' });
      } else if (st === artefactBand && every === 1 && s === jumpAfter + 1) {
        bpm = bpm >= 130 ? bpm - 70 : Math.min(BPM_MAX - 1, bpm + 70);
        artefacts.push({ band: st.band, at, bpm, reason: 'jump' });
      }
      samples.push(intensity === undefined ? { band: st.band, studentId: st.studentId, at, bpm } : { band: st.band, studentId: st.studentId, at, bpm, intensity });
      // Between two strided samples: one second after this one.
      if (st === artefactBand && every > 1 && s === jumpAfter && at + 1000 < until) {
        const jump = bpm >= 130 ? bpm - 70 : Math.min(BPM_MAX - 1, bpm + 70);
        artefacts.push({ band: st.band, at: at + 1000, bpm: jump, reason: 'jump' });
        samples.push({ band: st.band, studentId: st.studentId, at: at + 1000, bpm: jump, ...(intensity === undefined ? {} : { intensity }) });
      }
    }
  }
  return { samples, silent, danger, artefacts };
}

/**
 * A student's fitness for the simulation, stable per student (from the id) so their lessons agree: most near 1, a
 * few unfit, a few fit.
 */
export function fitnessOf(studentId: string): number {
  let h = 2166136261;
  for (let i = 0; i < studentId.length; i++) h = Math.imul(h ^ studentId.charCodeAt(i), 16777619);
  const r = createRandom(h >>> 0);
  return Math.round((1 + gauss(r) * 0.15) * 100) / 100;
}
