import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestGatePlugin } from '../../server/plugins/request-gate';

/** A handler whose database work resolves only in microtasks, as PGlite's statements do. */
async function microtaskWork(): Promise<void> {
  for (let i = 0; i < 1000; i++) await Promise.resolve();
}

describe('PGlite request gate', () => {
  it('lets the event loop run between queued requests instead of working the whole queue off in one go', async () => {
    const app = Fastify();
    await app.register(requestGatePlugin, { slots: 1 });
    app.get('/api/work', async () => {
      await microtaskWork();
      return { ok: true };
    });
    await app.ready();
    let answered = 0;
    const requests = Array.from({ length: 6 }, () => app.inject({ method: 'GET', url: '/api/work' }).then((r) => (answered++, r)));
    // What the event loop would do next (read a socket, accept a connection): it must get a turn before the last
    // queued request is answered, or a request arriving now waits for the whole queue.
    let answeredWhenLoopRan = -1;
    await new Promise<void>((turn) => setTimeout(() => ((answeredWhenLoopRan = answered), turn()), 0));
    const answers = await Promise.all(requests);
    expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    expect(answeredWhenLoopRan).toBeLessThan(6);
    await app.close();
  });
});

describe('PGlite request gate and clients that leave', () => {
  /** One slot; counts the handlers running at once. */
  async function gatedApp() {
    const app = Fastify();
    await app.register(requestGatePlugin, { slots: 1 });
    const state = { running: 0, most: 0 };
    const work = async (fail: boolean) => {
      state.most = Math.max(state.most, ++state.running);
      await new Promise((done) => setTimeout(done, 200));
      state.running--;
      if (fail) throw new Error('failed');
      return { ok: true };
    };
    app.get('/api/work', () => work(false));
    app.get('/api/fail', () => work(true));
    app.get('/api/v1/app/videos/:id', () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    /** Status of a GET, or -1 when the client gave up after `leaveAfterMs`. */
    const get = (path: string, leaveAfterMs?: number) =>
      new Promise<number>((answered) => {
        const req = request({ port, host: '127.0.0.1', path }, (res) => {
          res.resume();
          res.on('end', () => answered(res.statusCode ?? 0));
        });
        req.on('error', () => answered(-1));
        if (leaveAfterMs !== undefined) setTimeout(() => req.destroy(), leaveAfterMs);
        req.end();
      });
    return { app, state, get };
  }

  it('keeps the slot of a request whose client left until its work is done, and then serves the others', async () => {
    const { app, state, get } = await gatedApp();
    try {
      // The client of the first request leaves while its handler still runs (a list whose filter changed cancels
      // the superseded request); the second leaves while its failing handler runs.
      const left = [get('/api/work', 50), get('/api/fail', 300)];
      await new Promise((done) => setTimeout(done, 100));
      const served = await Promise.all([get('/api/work'), get('/api/fail'), get('/api/work')]);
      expect(await Promise.all(left)).toEqual([-1, -1]);
      expect(served).toEqual([200, 500, 200]);
      expect(state.most).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('never holds a video upload in the queue: its handler waits on the phone, not the database', async () => {
    const { app, get } = await gatedApp();
    try {
      let busyDone = false;
      const busy = get('/api/work').then(() => (busyDone = true));
      await new Promise((done) => setTimeout(done, 20));
      expect(await get('/api/v1/app/videos/0123')).toBe(200);
      // Answered while the only slot is still taken.
      expect(busyDone).toBe(false);
      await busy;
    } finally {
      await app.close();
    }
  });
});
