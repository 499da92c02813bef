import { COOL_DOWN_MINUTES, CURRICULUM_TARGETS, MAIN_PART_MIN_MINUTES, WARM_UP_MINUTES, ZONES, type Zone } from './zones';

/**
 * A lesson's load from its per-student per-minute aggregates (docs/product-rules.md#lesson-load). The reports, the
 * monitor's running figures and the stored lesson summaries all come from this function.
 */

/** One student's minute of a lesson (heart_rate_minutes). */
export interface MinuteRow {
  studentId: string;
  /** Start of the minute, epoch milliseconds. */
  minute: number;
  samples: number;
  bpmSum: number;
  bpmMin: number;
  bpmMax: number;
  /** Seconds in each zone (they add up to `samples`). */
  zones: Record<Zone, number>;
  /** Seconds counted as exercise (zones.ts isActive). */
  active: number;
}

export interface StudentLoad {
  studentId: string;
  /** Seconds with a kept sample. */
  measured: number;
  meanBpm: number | null;
  mainMeanBpm: number | null;
  peakBpm: number | null;
  zones: Record<Zone, number>;
  /** Individual exercise density: active seconds / measured seconds (0–1), null when nothing was measured. */
  density: number | null;
}

export interface LessonLoad {
  /** Minutes of the lesson from its start (0-based) with the class's mean bpm, in order. */
  curve: { minute: number; meanBpm: number; students: number }[];
  /** Main part, as minutes from the start: [from, to). */
  mainPart: { from: number; to: number };
  students: StudentLoad[];
  /** The class's mean bpm over the main part (mean of all kept samples in it). */
  mainMeanBpm: number | null;
  peakBpm: number | null;
  /** Main part's class mean minus the last measured minute's class mean (bpm): how far the class came down. */
  recoveryBpm: number | null;
  /** Group exercise density (群体练习密度): see groupDensity below. */
  groupDensity: number | null;
  /** The mean of the students' individual densities (个体练习密度). */
  individualDensity: number | null;
  /** Share of measured seconds in the target zone or above, over the class. */
  targetShare: number | null;
  targets: { groupDensity: boolean; individualDensity: boolean; meanBpm: boolean };
  meetsTargets: boolean;
}

const MINUTE = 60_000;
const emptyZones = (): Record<Zone, number> => ({ rest: 0, moderate: 0, target: 0, high: 0, danger: 0 });
const round1 = (n: number) => Math.round(n * 10) / 10;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The main part of a lesson of `minutes` minutes: [WARM_UP_MINUTES, minutes − COOL_DOWN_MINUTES), or all of it when short. */
export function mainPartOf(minutes: number): { from: number; to: number } {
  if (minutes < WARM_UP_MINUTES + MAIN_PART_MIN_MINUTES + COOL_DOWN_MINUTES) return { from: 0, to: minutes };
  return { from: WARM_UP_MINUTES, to: minutes - COOL_DOWN_MINUTES };
}

/**
 * Group density (our definition; the curriculum measures it by observation): a minute counts for the class when at
 * least half of the students measured in it were exercising for at least half of their measured seconds; the density
 * is the counted minutes over the measured minutes.
 */
const minuteCountsForGroup = (rows: readonly MinuteRow[]) => rows.filter((r) => r.samples > 0 && r.active * 2 >= r.samples).length * 2 >= rows.filter((r) => r.samples > 0).length;

/**
 * Which curriculum targets a lesson's figures meet (docs/product-rules.md#lesson-load): also read back from a stored
 * lesson's figures (lesson_loads), so a report can say which target a lesson missed.
 */
export function curriculumTargets(f: Pick<LessonLoad, 'groupDensity' | 'individualDensity' | 'mainMeanBpm'>): LessonLoad['targets'] {
  return {
    groupDensity: f.groupDensity !== null && f.groupDensity >= CURRICULUM_TARGETS.groupDensity,
    individualDensity: f.individualDensity !== null && f.individualDensity >= CURRICULUM_TARGETS.individualDensity,
    meanBpm: f.mainMeanBpm !== null && f.mainMeanBpm >= CURRICULUM_TARGETS.meanBpmMin && f.mainMeanBpm <= CURRICULUM_TARGETS.meanBpmMax,
  };
}

/**
 * `startedAt` and `endedAt` (epoch ms; endedAt null for a lesson in progress: `now` is used) bound the lesson; rows
 * outside it are ignored.
 */
export function lessonLoad(rows: readonly MinuteRow[], startedAt: number, endedAt: number | null, now: number): LessonLoad {
  const end = endedAt ?? now;
  const lengthMinutes = Math.max(1, Math.ceil((end - startedAt) / MINUTE));
  const mainPart = mainPartOf(lengthMinutes);
  const byMinute = new Map<number, MinuteRow[]>();
  const byStudent = new Map<string, MinuteRow[]>();
  for (const r of rows) {
    const m = Math.floor((r.minute - startedAt) / MINUTE);
    if (m < 0 || m >= lengthMinutes || r.samples <= 0) continue;
    byMinute.set(m, [...(byMinute.get(m) ?? []), r]);
    byStudent.set(r.studentId, [...(byStudent.get(r.studentId) ?? []), r]);
  }
  const minutes = [...byMinute.keys()].sort((a, b) => a - b);
  const curve = minutes.map((m) => {
    const list = byMinute.get(m)!;
    const samples = list.reduce((s, r) => s + r.samples, 0);
    return { minute: m, meanBpm: round1(list.reduce((s, r) => s + r.bpmSum, 0) / samples), students: list.length };
  });
  const inMain = (r: MinuteRow) => {
    const m = Math.floor((r.minute - startedAt) / MINUTE);
    return m >= mainPart.from && m < mainPart.to;
  };
  const students: StudentLoad[] = [...byStudent].map(([studentId, list]) => {
    const zones = emptyZones();
    for (const r of list) for (const z of ZONES) zones[z] += r.zones[z];
    const measured = list.reduce((s, r) => s + r.samples, 0);
    const main = list.filter(inMain);
    const mainSamples = main.reduce((s, r) => s + r.samples, 0);
    return {
      studentId,
      measured,
      meanBpm: measured ? round1(list.reduce((s, r) => s + r.bpmSum, 0) / measured) : null,
      mainMeanBpm: mainSamples ? round1(main.reduce((s, r) => s + r.bpmSum, 0) / mainSamples) : null,
      peakBpm: list.length ? Math.max(...list.map((r) => r.bpmMax)) : null,
      zones,
      density: measured ? round3(list.reduce((s, r) => s + r.active, 0) / measured) : null,
    };
  });
  const mainRows = rows.filter((r) => r.samples > 0 && inMain(r));
  const mainSamples = mainRows.reduce((s, r) => s + r.samples, 0);
  const mainMeanBpm = mainSamples ? round1(mainRows.reduce((s, r) => s + r.bpmSum, 0) / mainSamples) : null;
  const peakBpm = students.length ? Math.max(...students.map((s) => s.peakBpm ?? 0)) : null;
  const last = curve.at(-1);
  const recoveryBpm = mainMeanBpm !== null && last && last.minute >= mainPart.to ? round1(mainMeanBpm - last.meanBpm) : null;
  const groupDensity = minutes.length ? round3(minutes.filter((m) => minuteCountsForGroup(byMinute.get(m)!)).length / minutes.length) : null;
  const densities = [...byStudent.values()].map((list) => list.reduce((s, r) => s + r.active, 0) / list.reduce((s, r) => s + r.samples, 0));
  const individualDensity = densities.length ? round3(densities.reduce((a, b) => a + b, 0) / densities.length) : null;
  const measuredAll = students.reduce((s, st) => s + st.measured, 0);
  const targetShare = measuredAll ? round3(students.reduce((s, st) => s + st.zones.target + st.zones.high + st.zones.danger, 0) / measuredAll) : null;
  const targets = curriculumTargets({ groupDensity, individualDensity, mainMeanBpm });
  return {
    curve,
    mainPart,
    students,
    mainMeanBpm,
    peakBpm,
    recoveryBpm,
    groupDensity,
    individualDensity,
    targetShare,
    targets,
    meetsTargets: targets.groupDensity && targets.individualDensity && targets.meanBpm,
  };
}
