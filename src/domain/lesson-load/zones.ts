/**
 * Heart-rate zones and the curriculum's lesson targets (docs/product-rules.md#lesson-load). Every screen, report, alert
 * and the ingest read zones through these functions, so the thresholds live once.
 */

/** Zones in order of effort. */
export const ZONES = ['rest', 'moderate', 'target', 'high', 'danger'] as const;
export type Zone = (typeof ZONES)[number];

/**
 * Lower bound of each zone above `rest`, as a share of the age-predicted maximum (220 − age; ACSM's Guidelines for
 * Exercise Testing and Prescription, %HRmax bands). `danger` is the band a child should not stay in: an alert is raised
 * when a student stays there (alerts.ts).
 */
export const ZONE_FLOORS: Readonly<Record<Exclude<Zone, 'rest'>, number>> = { moderate: 0.55, target: 0.7, high: 0.85, danger: 0.95 };

/** Age-predicted maximum heart rate (bpm): 220 − age. */
export const maxHeartRate = (age: number) => 220 - age;

/** The bpm at which each zone above `rest` starts for a student of `age` (rounded up: 144.9 → 145). */
export function zoneThresholds(age: number): Record<Exclude<Zone, 'rest'>, number> {
  const max = maxHeartRate(age);
  return {
    moderate: Math.ceil(max * ZONE_FLOORS.moderate),
    target: Math.ceil(max * ZONE_FLOORS.target),
    high: Math.ceil(max * ZONE_FLOORS.high),
    danger: Math.ceil(max * ZONE_FLOORS.danger),
  };
}

export function zoneOf(bpm: number, age: number): Zone {
  const t = zoneThresholds(age);
  if (bpm >= t.danger) return 'danger';
  if (bpm >= t.high) return 'high';
  if (bpm >= t.target) return 'target';
  if (bpm >= t.moderate) return 'moderate';
  return 'rest';
}

/** Ages outside this range are clamped: a band on a 4- or 60-year-old still gets sensible zones. */
export const ZONE_AGE_MIN = 6;
export const ZONE_AGE_MAX = 25;

/**
 * A student's age for the zones on `day` (ISO date): from the birth date when the roster has it, else the typical age
 * of the student's grade (the server passes it: K12 grade N → 5 + N, university → 19), clamped to 6–25.
 */
export function zoneAge(birthDate: string | null, typicalAge: number, day: string): number {
  let age = typicalAge;
  if (birthDate) {
    const [by, bm, bd] = birthDate.slice(0, 10).split('-').map(Number);
    const [y, m, d] = day.slice(0, 10).split('-').map(Number);
    age = y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
  }
  return Math.min(ZONE_AGE_MAX, Math.max(ZONE_AGE_MIN, age));
}

/** The typical age of a grade's students, when the roster has no birth date: K12 grade N → 5 + N, university 19. */
export const gradeTypicalAge = (stage: string, gradeNo: number) => (stage === 'university' ? 19 : 5 + gradeNo);

/**
 * A second counts as exercise (练习) when the heart rate is at least this (bpm) or, where the band reports it, the
 * movement intensity is at least ACTIVE_INTENSITY. 120 bpm is the threshold Chinese PE-lesson studies use for
 * 有效运动 (the curriculum standard's 运动密度 is measured by observation; with bands it is read from heart rate).
 */
export const ACTIVE_BPM = 120;
/** Intensity is 0–100 (the band's own activity index, normalised by the device API). */
export const ACTIVE_INTENSITY = 40;

export const isActive = (bpm: number, intensity: number | null) => bpm >= ACTIVE_BPM || (intensity !== null && intensity >= ACTIVE_INTENSITY);

/**
 * 义务教育体育与健康课程标准（2022年版）: group exercise density ≥ 75 %, individual ≥ 50 %, the class's mean heart rate in
 * the main part about 140–160 bpm.
 */
export const CURRICULUM_TARGETS = { groupDensity: 0.75, individualDensity: 0.5, meanBpmMin: 140, meanBpmMax: 160 } as const;

/**
 * The lesson's parts (准备部分, 基本部分, 结束部分): the main part is the lesson without its first WARM_UP_MINUTES and
 * its last COOL_DOWN_MINUTES (a 40–45 minute lesson: about 8 minutes of warm-up, 5 of cool-down). A lesson shorter
 * than MAIN_PART_MIN_MINUTES + the two has the whole lesson as its main part.
 */
export const WARM_UP_MINUTES = 8;
export const COOL_DOWN_MINUTES = 5;
export const MAIN_PART_MIN_MINUTES = 10;
