import Fastify from 'fastify';
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
