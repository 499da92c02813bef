// HTTP only (no database): drives a running server as a hub would.
import { createRandom } from '../seed/people';
import { fitnessOf } from './heart-rate';
import { bandSerial, DEMO_BANDS, emptyTally, runLiveLessons, type HeartRateClass } from './heart-rate-traffic';
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

/**
 * The live lesson of `npm run simulate -- --live-lesson` (server/simulate/main.ts): a demo school's hub (its serial and
 * the secret issued on the device screen) keeps one heart-rate lesson of a class (by name, else the roster's first)
 * in progress on the server at `url`, printing each lesson's id, until Ctrl-C. The device API tells no birth dates:
 * every student is taken to be `age`.
 */
export async function runLive(opts: { url: string; credentials: DeviceCredentials; className?: string; minutes: number; backfillMinutes: number; age: number; seed?: number }): Promise<void> {
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
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.once('SIGINT', () => stop());
  process.once('SIGTERM', () => stop());
  const tally = emptyTally();
  const say = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  await runLiveLessons(
    send,
    opts.credentials,
    cls,
    createRandom(opts.seed ?? Date.now() % 2 ** 31),
    {
      minutes: opts.minutes,
      backfillMinutes: opts.backfillMinutes,
      stop: stopped,
      onLesson: (id) => say(`lesson in progress: ${id} (${kids[0]?.className ?? classId}, ${Math.min(kids.length, DEMO_BANDS)} bands; Ctrl-C stops)`),
    },
    tally,
  );
  say(`stopped: ${tally.lessons} lessons, ${tally.batches} batches, ${tally.accepted} samples accepted, ${tally.duplicates} duplicates, dropped ${JSON.stringify(tally.dropped)}`);
}
