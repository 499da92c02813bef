// HTTP only (no database): the fleet drives the app in-process with it, the live mode and end-to-end tests drive a
// running server with it.
import type { Random } from '../seed/people';
import { generateLesson, type GeneratedLesson, type GeneratedSample, type HeartRateStudent, type LessonStyle } from './heart-rate';
import { deviceAuth, type DeviceCredentials, type Send } from './traffic';

/**
 * A hub relaying a class's heart-rate bands through the device API (docs/product-rules.md#lesson-load): it opens a
 * lesson (POST /lessons), lends its bands to the students (PUT /lessons/:id/bands), posts the bands' samples in
 * batches (POST /lessons/:id/heart-rate, answered `{ accepted, duplicates, dropped: { reason: n } }`) and closes the
 * lesson. Like the other simulated devices it loses an answer now and then (the batch goes again), goes offline for
 * a while (the batches wait and go as one, shuffled) and sends a batch before the one it took earlier.
 */

/** A class as the hub knows it: its students (id, 学籍号, age) in roster order; the i-th wears the i-th band. */
export interface HeartRateClass {
  classId: string;
  students: readonly { id: string; regNo?: string; age: number; fitness: number }[];
  bands: readonly string[];
}

export interface HeartRateTally {
  lessons: number;
  batches: number;
  accepted: number;
  duplicates: number;
  dropped: Record<string, number>;
}

export const emptyTally = (): HeartRateTally => ({ lessons: 0, batches: 0, accepted: 0, duplicates: 0, dropped: {} });

/** Bands per demo school (server/seed/lesson-load-demo.ts): enough for its largest class; bands are shared across classes. */
export const DEMO_BANDS = 48;
/** Serial numbers of a demo school's hub and bands (its organisation type: 21 K12, 22 university). */
export const hubSerial = (orgType: number) => `TY${orgType}HUB1`;
export const bandSerial = (orgType: number, n: number) => `TY${orgType}HR${String(n).padStart(2, '0')}`;

/** The hub sends what its bands measured every this many seconds. */
export const HUB_INTERVAL_S = 5;
/** A batch holds at most this many samples (the API's SAMPLE_BATCH_MAX). */
const BATCH_MAX = 2400;

const must = (what: string, res: { status: number; json: unknown }) => {
  if (res.status !== 200) throw new Error(`${what} refused: ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`);
  return (res.json as { data: unknown }).data;
};

/** The students who came (a few absent), each with the band of their place in the roster. */
export function wearers(cls: HeartRateClass, rnd: Random, absent = 0.04): HeartRateStudent[] {
  return cls.students.slice(0, cls.bands.length).flatMap((s, i) => (rnd.chance(absent) ? [] : [{ studentId: s.id, band: cls.bands[i], age: s.age, fitness: s.fitness }]));
}

/** Opens a lesson for the class and lends the bands (half by student id, half by 学籍号 as a hub scanning cards would). */
export async function openHeartRateLesson(
  send: Send,
  hub: DeviceCredentials,
  cls: HeartRateClass,
  worn: readonly HeartRateStudent[],
  opts: { clientId: string; startedAt: number; items?: string[] },
): Promise<string> {
  const auth = deviceAuth(hub);
  const opened = must('lesson', await send('POST', '/api/v1/device/lessons', auth, { clientId: opts.clientId, type: 'practise', classId: cls.classId, items: opts.items ?? ['running'], startedAt: new Date(opts.startedAt).toISOString() })) as { id: string };
  const regNo = new Map(cls.students.map((s) => [s.id, s.regNo]));
  const bindings = worn.map((w, i) => (i % 2 === 1 && regNo.get(w.studentId) ? { band: w.band, regNo: regNo.get(w.studentId) } : { band: w.band, studentId: w.studentId }));
  must('bands', await send('PUT', `/api/v1/device/lessons/${opened.id}/bands`, auth, { bindings }));
  return opened.id;
}

/** Posts one batch of samples (the band, time and bpm as the band measured them) and counts the answer. */
export async function postSamples(send: Send, hub: DeviceCredentials, lessonId: string, samples: readonly GeneratedSample[], tally: HeartRateTally): Promise<void> {
  for (let i = 0; i < samples.length; i += BATCH_MAX) {
    const body = { samples: samples.slice(i, i + BATCH_MAX).map((s) => ({ band: s.band, at: new Date(s.at).toISOString(), bpm: s.bpm, ...(s.intensity === undefined ? {} : { intensity: s.intensity }) })) };
    const answer = must('heart-rate batch', await send('POST', `/api/v1/device/lessons/${lessonId}/heart-rate`, deviceAuth(hub), body)) as { accepted: number; duplicates: number; dropped: Record<string, number> };
    tally.batches++;
    tally.accepted += answer.accepted;
    tally.duplicates += answer.duplicates;
    for (const [reason, n] of Object.entries(answer.dropped ?? {})) tally.dropped[reason] = (tally.dropped[reason] ?? 0) + n;
  }
}

/** Splits time-ordered samples into the hub's batches of HUB_INTERVAL_S seconds. */
export function hubBatches(samples: readonly GeneratedSample[], startedAt: number): GeneratedSample[][] {
  const batches: GeneratedSample[][] = [];
  for (const s of samples) {
    const k = Math.floor((s.at - startedAt) / (HUB_INTERVAL_S * 1000));
    (batches[k] ??= []).push(s);
  }
  return batches.filter(Boolean);
}

/**
 * Sends a whole lesson that is over (a day of the fleet's past): batch by batch, with a lost answer (the batch again),
 * an offline stretch (several batches at once, shuffled) and a batch overtaking the one before; then closes it.
 */
export async function sendPastLesson(
  send: Send,
  hub: DeviceCredentials,
  cls: HeartRateClass,
  rnd: Random,
  opts: { clientId: string; startedAt: number; minutes: number; style?: LessonStyle; danger?: boolean; silentBand?: boolean; artefacts?: boolean },
  tally: HeartRateTally,
): Promise<string> {
  const worn = wearers(cls, rnd);
  const lessonId = await openHeartRateLesson(send, hub, cls, worn, opts);
  const lesson = generateLesson({ seed: rnd.int(1, 2 ** 31), startedAt: opts.startedAt, minutes: opts.minutes, students: worn, style: opts.style, intensity: true, danger: opts.danger, silentBand: opts.silentBand, artefacts: opts.artefacts });
  const batches = hubBatches(lesson.samples, opts.startedAt);
  let offline: GeneratedSample[] = [];
  for (let i = 0; i < batches.length; i++) {
    let batch = batches[i];
    if (offline.length || rnd.chance(0.01)) {
      // Offline: keep collecting for up to a minute, then send it all at once in any order.
      offline.push(...batch);
      if (offline.length < 12 * batch.length && i < batches.length - 1) continue;
      batch = offline.sort(() => rnd.next() - 0.5);
      offline = [];
    } else if (i + 1 < batches.length && rnd.chance(0.03)) {
      // The next batch overtakes this one.
      await postSamples(send, hub, lessonId, batches[i + 1], tally);
      await postSamples(send, hub, lessonId, batch, tally);
      i++;
      continue;
    }
    await postSamples(send, hub, lessonId, batch, tally);
    if (rnd.chance(0.05)) await postSamples(send, hub, lessonId, batch, tally);
  }
  must('close', await send('POST', `/api/v1/device/lessons/${lessonId}/close`, deviceAuth(hub), { endedAt: new Date(opts.startedAt + opts.minutes * 60_000).toISOString() }));
  tally.lessons++;
  return lessonId;
}

/**
 * Keeps one lesson in progress in real time: opens it `backfillMinutes` ago (the hub joins late and sends what its
 * bands stored in one go, so the danger run of the main part comes within minutes), then posts the bands' samples
 * every HUB_INTERVAL_S seconds (the danger run, silent band and artefacts included) and, when its `minutes` are over,
 * closes it and opens the next. With `alertsIn`, the first lesson's danger run and silent band begin that many seconds
 * after the hub joined (so both alerts come within about a minute of it: DANGER_SUSTAIN_S above the threshold, and
 * SILENT_AFTER_S without a sample). Runs until `stop` resolves; calls `onLesson` with each lesson's id and what it
 * scripted (which band crosses the danger threshold and which goes silent, and when).
 */
export async function runLiveLessons(
  send: Send,
  hub: DeviceCredentials,
  cls: HeartRateClass,
  rnd: Random,
  opts: {
    minutes: number;
    backfillMinutes?: number;
    alertsIn?: number;
    stop: Promise<unknown>;
    onLesson?: (lessonId: string, script: Pick<GeneratedLesson, 'danger' | 'silent'>) => void;
    now?: () => number;
    sleep?: (ms: number) => Promise<void>;
  },
  tally: HeartRateTally,
): Promise<void> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let stopped = false;
  void opts.stop.then(() => (stopped = true));
  let backfill = opts.backfillMinutes ?? 0;
  let alertsAt = opts.alertsIn === undefined ? undefined : backfill * 60 + Math.round(opts.alertsIn);
  while (!stopped) {
    const startedAt = Math.floor(now() / 1000) * 1000 - backfill * 60_000;
    backfill = 0;
    const worn = wearers(cls, rnd);
    const lessonId = await openHeartRateLesson(send, hub, cls, worn, { clientId: `live-${startedAt}`, startedAt });
    tally.lessons++;
    const lesson = generateLesson({ seed: rnd.int(1, 2 ** 31), startedAt, minutes: opts.minutes, students: worn, intensity: true, danger: true, silentBand: true, artefacts: true, dangerAt: alertsAt, silentAt: alertsAt });
    alertsAt = undefined;
    opts.onLesson?.(lessonId, { danger: lesson.danger, silent: lesson.silent });
    const end = startedAt + opts.minutes * 60_000;
    let sent = 0;
    while (!stopped) {
      const upTo = Math.min(now(), end);
      let to = sent;
      while (to < lesson.samples.length && lesson.samples[to].at < upTo) to++;
      if (to > sent) await postSamples(send, hub, lessonId, lesson.samples.slice(sent, to), tally);
      sent = to;
      if (upTo >= end) break;
      await Promise.race([sleep(HUB_INTERVAL_S * 1000), opts.stop]);
    }
    if (now() >= end) must('close', await send('POST', `/api/v1/device/lessons/${lessonId}/close`, deviceAuth(hub), { endedAt: new Date(end).toISOString() }));
  }
}
