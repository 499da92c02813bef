// HTTP only (no database): drives a running server as a hub would.
import { createRandom } from '../seed/people';
import { fitnessOf, type GeneratedLesson } from './heart-rate';
import { bandSerial, DEMO_BANDS, emptyTally, runLiveLessons, type HeartRateClass, type HeartRateTally } from './heart-rate-traffic';
import { deviceAuth, type DeviceCredentials, type Send } from './traffic';

/** `fetch` against a server's base URL. */
export const fetchSend =
  (base: string): Send =>
  async (method, url, headers, body) => {
    const res = await fetch(new URL(url, base), { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON (an error page)
    }
    return { status: res.status, json };
  };

/** What a live lesson scripted: the band that crosses the danger threshold and the one that goes silent, and when. */
export type LiveScript = Pick<GeneratedLesson, 'danger' | 'silent'>;

export interface LiveOptions {
  url: string;
  credentials: DeviceCredentials;
  className?: string;
  minutes: number;
  backfillMinutes: number;
  /** Every student is taken to be this old (the device API tells no birth dates): the danger run aims above its threshold. */
  age: number;
  /** The first lesson's danger run and silent band begin this many seconds after the hub joins (default: where its plan puts them). */
  alertsIn?: number;
  seed?: number;
  /** Stops the hub (default: Ctrl-C or SIGTERM). */
  stop?: Promise<unknown>;
  /** Waits between the hub's batches (default: HUB_INTERVAL_S of real time); a test may hold the hub with it. */
  sleep?: (ms: number) => Promise<void>;
  onLesson?: (lessonId: string, script: LiveScript) => void;
  /** Progress lines (default: stdout with the time). */
  say?: (line: string) => void;
}

/**
 * The live lesson of `npm run simulate -- --live-lesson` (server/simulate/main.ts) and of the monitor's end-to-end test
 * (tests/e2e/lesson-monitor.spec.ts): a demo school's hub (its serial and the secret issued on the device screen)
 * keeps one heart-rate lesson of a class (by name, else the roster's first) in progress on the server at `url`,
 * saying each lesson's id and which bands it scripted, until stopped.
 */
export async function runLive(opts: LiveOptions): Promise<HeartRateTally> {
  const send = fetchSend(opts.url);
  const type = /^TY(\d\d)HUB/.exec(opts.credentials.serialNo)?.[1];
  if (!type) throw new Error(`${opts.credentials.serialNo} is not a demo hub (TY21HUB1, TY22HUB1): its bands are not known`);
  const res = await send('GET', '/api/v1/device/students', deviceAuth(opts.credentials));
  if (res.status !== 200) throw new Error(`the hub could not sign in: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
  const roster = (res.json as { data: { id: string; regNo: string; classId: string; className: string }[] }).data;
  const classId = (opts.className ? roster.find((s) => s.className === opts.className) : roster[0])?.classId;
  if (!classId) throw new Error(`no class ${opts.className ?? ''} at the hub's school`);
  const kids = roster.filter((s) => s.classId === classId).sort((a, b) => a.regNo.localeCompare(b.regNo));
  const cls: HeartRateClass = {
    classId,
    students: kids.map((s) => ({ id: s.id, regNo: s.regNo, age: opts.age, fitness: fitnessOf(s.id) })),
    bands: Array.from({ length: DEMO_BANDS }, (_, i) => bandSerial(Number(type), i + 1)),
  };
  let stop = opts.stop;
  if (!stop) {
    let stopNow!: () => void;
    stop = new Promise<void>((resolve) => (stopNow = resolve));
    process.once('SIGINT', () => stopNow());
    process.once('SIGTERM', () => stopNow());
  }
  const tally = emptyTally();
  const say = opts.say ?? ((line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`));
  const regNo = new Map(kids.map((k) => [k.id, k.regNo]));
  const when = (at: number) => new Date(at).toISOString();
  await runLiveLessons(
    send,
    opts.credentials,
    cls,
    createRandom(opts.seed ?? Date.now() % 2 ** 31),
    {
      minutes: opts.minutes,
      backfillMinutes: opts.backfillMinutes,
      alertsIn: opts.alertsIn,
      stop,
      ...(opts.sleep ? { sleep: opts.sleep } : {}),
      onLesson: (id, script) => {
        say(`lesson in progress: ${id} (${kids[0]?.className ?? classId}, ${Math.min(kids.length, DEMO_BANDS)} bands; Ctrl-C stops)`);
        if (script.danger) say(`  ${script.danger.band} (${regNo.get(script.danger.studentId)}) above ${script.danger.dangerBpm} bpm from ${when(script.danger.from)}`);
        if (script.silent) say(`  ${script.silent.band} (${regNo.get(script.silent.studentId)}) silent from ${when(script.silent.from)} to ${when(script.silent.to)}`);
        opts.onLesson?.(id, script);
      },
    },
    tally,
  );
  say(`stopped: ${tally.lessons} lessons, ${tally.batches} batches, ${tally.accepted} samples accepted, ${tally.duplicates} duplicates, dropped ${JSON.stringify(tally.dropped)}`);
  return tally;
}
