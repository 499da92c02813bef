import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';

export interface RequestGateOptions {
  /** Requests served at once; the rest wait in arrival order. */
  slots: number;
}

/**
 * Routes whose handlers wait on the client never take a slot: the file store's uploads and the app's resumable video
 * uploads stream their body in the handler (tus), so a phone on a slow network would hold a slot for minutes.
 */
const UNGATED = /^\/api\/(uc\/oss\/|v1\/app\/videos(\/|\?|$))/;

declare module 'fastify' {
  interface FastifyRequest {
    /** Gives the request's slot back; set while it holds one. */
    releaseSlot: (() => void) | null;
  }
}

/**
 * First come, first served for API requests on an embedded database. PGlite runs one statement at a time in arrival
 * order, so with hundreds of requests in flight each request's every statement queued behind every other request's
 * and all of them finished late together (a school view: nothing answered in 20 s, then everything). With a few
 * slots, a request runs its statements back to back once admitted and the others wait their turn in order
 * (tests/bench/load.ts; docs/architecture.md, Performance).
 */
export const requestGatePlugin = fp<RequestGateOptions>(
  async (app, { slots }) => {
    let free = slots;
    const waiting: (() => void)[] = [];
    // The next request is admitted from the check phase, never in the releasing request's microtasks. PGlite runs
    // each statement synchronously and resolves it as a microtask, so a hand-over in place chained every queued
    // request into one microtask run: the event loop did not read a socket, accept a connection or flush a write
    // until the whole queue was done, and requests that arrived meanwhile waited for all of it (a school view under
    // 200 sessions: p95 of the whole run, some answered only when the run ended).
    const release = () =>
      setImmediate(() => {
        const next = waiting.shift();
        if (next) next();
        else free++;
      });
    app.decorateRequest('releaseSlot', null);
    app.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith('/api/') || UNGATED.test(request.url)) return;
      if (free > 0) free--;
      else await new Promise<void>((admit) => waiting.push(admit));
      // The client left while it waited (closed the tab, gave up): its turn goes to the next one at once.
      if (request.raw.destroyed) {
        release();
        return reply.code(499).send();
      }
      let held = true;
      request.releaseSlot = () => {
        if (!held) return;
        held = false;
        release();
      };
    });
    // The slot is held until the request's work is done, which is when it sends its answer (or the answer is
    // written), not when its client leaves: a handler goes on with its statements after the client aborted (a list
    // whose filter changed cancels the request it superseded), and giving its slot away then let more requests than
    // the slots run on the database at once (tests/server/request-gate.test.ts).
    const done = async (request: FastifyRequest) => request.releaseSlot?.();
    app.addHook('onSend', done);
    app.addHook('onResponse', done);
  },
  { name: 'tiyu-request-gate' },
);
