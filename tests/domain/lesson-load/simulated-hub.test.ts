import { describe, expect, it } from 'vitest';
import { DANGER_SUSTAIN_S } from '@/domain/lesson-load/alerts';
import { bandBindingsSchema, heartRateBatchSchema, SAMPLE_BATCH_MAX } from '@/domain/lesson-load/samples';
import { lessonCloseSchema, lessonOpenSchema } from '@/domain/lessons/lessons';
import { createRandom } from '../../../server/seed/people';
import { fitnessOf, type GeneratedLesson } from '../../../server/simulate/heart-rate';
import { emptyTally, HUB_INTERVAL_S, runLiveLessons, sendPastLesson, type HeartRateClass } from '../../../server/simulate/heart-rate-traffic';
import type { Send } from '../../../server/simulate/traffic';

/**
 * What the simulated hub sends (server/simulate/heart-rate-traffic.ts), checked against the device API's request
 * schemas. The heart-rate routes themselves are built on another branch: the simulator's posting against them is
 * tested once they meet (tests/server/ingest/simulate.test.ts at integration); here the transport only records.
 */
const LESSON = '00000000-0000-4000-8000-000000000001';
const cls: HeartRateClass = {
  classId: '00000000-0000-4000-8000-0000000000c1',
  students: Array.from({ length: 36 }, (_, i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, regNo: `G${i}`, age: 13, fitness: fitnessOf(String(i)) })),
  bands: Array.from({ length: 40 }, (_, i) => `TY21HR${String(i + 1).padStart(2, '0')}`),
};

function recorder() {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const seen = new Set<string>();
  const send: Send = async (method, url, _headers, body) => {
    calls.push({ method, url, body });
    if (url.endsWith('/lessons')) return { status: 200, json: { data: { id: LESSON } } };
    if (url.endsWith('/heart-rate')) {
      let accepted = 0;
      let duplicates = 0;
      for (const s of heartRateBatchSchema.parse(body).samples) {
        const key = `${s.band}|${s.at}`;
        if (seen.has(key)) duplicates++;
        else accepted++;
        seen.add(key);
      }
      return { status: 200, json: { data: { accepted, duplicates, dropped: {} } } };
    }
    return { status: 200, json: { data: null } };
  };
  return { calls, send };
}

describe('the simulated hub', { timeout: 30_000 }, () => {
  it('opens a lesson, lends bands by id and 学籍号, posts 5 s batches with resends, a burst and an overtaking batch, then closes', async () => {
    const { calls, send } = recorder();
    const tally = emptyTally();
    const startedAt = Date.UTC(2026, 10, 23, 7, 0);
    const id = await sendPastLesson(send, { serialNo: 'TY21HUB1', secret: 's' }, cls, createRandom(3), { clientId: 'sim-1', startedAt, minutes: 40, artefacts: true }, tally);
    expect(id).toBe(LESSON);
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/v1/device/lessons' });
    expect(lessonOpenSchema.safeParse(calls[0].body).success).toBe(true);
    const bands = bandBindingsSchema.parse(calls[1].body);
    expect(calls[1]).toMatchObject({ method: 'PUT', url: `/api/v1/device/lessons/${LESSON}/bands` });
    expect(bands.bindings.some((b) => b.regNo) && bands.bindings.some((b) => b.studentId)).toBe(true);
    const batches = calls.filter((c) => c.url.endsWith('/heart-rate')).map((c) => heartRateBatchSchema.parse(c.body).samples);
    for (const b of batches) expect(b.length).toBeLessThanOrEqual(SAMPLE_BATCH_MAX);
    // Mostly one hub interval per batch; some resent, some bigger (offline), some earlier than the batch before.
    const spans = batches.map((b) => (Date.parse(b.at(-1)!.at) - Date.parse(b[0].at)) / 1000);
    expect(spans.filter((s) => s < HUB_INTERVAL_S).length).toBeGreaterThan(batches.length * 0.8);
    expect(tally.duplicates).toBeGreaterThan(0);
    expect(tally.accepted).toBeGreaterThan(30 * 40 * 60);
    const firsts = batches.map((b) => Math.min(...b.map((s) => Date.parse(s.at))));
    expect(firsts.some((t, i) => i > 0 && t < firsts[i - 1])).toBe(true);
    expect(batches.some((b) => b.some((s) => s.bpm === 250))).toBe(true);
    const close = calls.at(-1)!;
    expect(close.url).toBe(`/api/v1/device/lessons/${LESSON}/close`);
    expect(lessonCloseSchema.parse(close.body).endedAt).toBe(new Date(startedAt + 40 * 60_000).toISOString());
  });

  it('live: opens a lesson `backfill` minutes ago, sends what the bands stored at once, then every 5 s until stopped', async () => {
    const { calls, send } = recorder();
    let clock = Date.UTC(2026, 10, 23, 7, 0, 0, 300);
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    let ticks = 0;
    const ids: string[] = [];
    await runLiveLessons(
      send,
      { serialNo: 'TY21HUB1', secret: 's' },
      cls,
      createRandom(5),
      {
        minutes: 40,
        backfillMinutes: 12,
        stop: stopped,
        onLesson: (id) => ids.push(id),
        now: () => clock,
        sleep: async (ms) => {
          clock += ms;
          if (++ticks === 6) stop();
        },
      },
      emptyTally(),
    );
    expect(ids).toEqual([LESSON]);
    const opened = lessonOpenSchema.parse(calls[0].body);
    expect(Date.parse(opened.startedAt)).toBe(Date.UTC(2026, 10, 23, 6, 48));
    const posts = calls.filter((c) => c.url.endsWith('/heart-rate')).map((c) => heartRateBatchSchema.parse(c.body).samples);
    // The 12 minutes the hub stored (in batches of at most SAMPLE_BATCH_MAX), then one batch per 5 s tick.
    const backfill = posts.filter((b) => Date.parse(b[0].at) < Date.UTC(2026, 10, 23, 7, 0));
    expect(backfill.flat().length).toBeGreaterThan(30 * 12 * 60);
    const live = posts.slice(backfill.length);
    expect(live.length).toBeGreaterThanOrEqual(5);
    for (const b of live) expect(new Set(b.map((s) => s.at.slice(0, 19))).size).toBeLessThanOrEqual(HUB_INTERVAL_S);
    // Stopped mid-lesson: not closed.
    expect(calls.some((c) => c.url.endsWith('/close'))).toBe(false);
  });
});

describe('the simulated hub, live with alertsIn', { timeout: 30_000 }, () => {
  it('starts the danger run and the silent band that many seconds after it joins, and says which bands and when', async () => {
    const { calls, send } = recorder();
    const joined = Date.UTC(2026, 10, 23, 7, 0, 0);
    let clock = joined;
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const scripts: Pick<GeneratedLesson, 'danger' | 'silent'>[] = [];
    let ticks = 0;
    await runLiveLessons(
      send,
      { serialNo: 'TY21HUB1', secret: 's' },
      cls,
      createRandom(5),
      {
        minutes: 40,
        backfillMinutes: 3,
        alertsIn: 20,
        stop: stopped,
        onLesson: (_id, script) => scripts.push(script),
        now: () => clock,
        sleep: async (ms) => {
          clock += ms;
          if (++ticks === 36) stop();
        },
      },
      emptyTally(),
    );
    const [{ danger, silent }] = scripts;
    expect(danger?.from).toBe(joined + 20_000);
    expect(silent?.from).toBe(joined + 20_000);
    expect(silent?.band).not.toBe(danger?.band);
    const samples = calls.filter((c) => c.url.endsWith('/heart-rate')).flatMap((c) => heartRateBatchSchema.parse(c.body).samples);
    // Posted by the hub after it joined: the danger student above the threshold for DANGER_SUSTAIN_S, the silent band not at all.
    const above = samples.filter((s) => s.band === danger!.band && s.bpm >= danger!.dangerBpm && Date.parse(s.at) >= joined);
    expect(above.length).toBeGreaterThanOrEqual(DANGER_SUSTAIN_S);
    const silentBand = samples.filter((s) => s.band === silent!.band).map((s) => Date.parse(s.at));
    expect(Math.max(...silentBand.filter((at) => at < silent!.to))).toBe(joined + 19_000);
  });
});
