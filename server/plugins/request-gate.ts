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
    /** Let through without a slot (`RequestGate.skip`): it takes one with `admit` before any work of its own. */
    slotDeferred: boolean;
  }
  interface FastifyInstance {
    /** Set when the gate is on. */
    requestGate?: RequestGate;
  }
}

export interface RequestGate {
  /**
   * Requests this answers true for pass without waiting for a slot: an answer the read cache most likely holds
   * (server/plugins/read-cache.ts) costs no database work, so it is not queued behind answers being computed. Whoever
   * sets it must `admit` such a request before it does work of its own.
   */
  skip: ((request: FastifyRequest) => boolean) | null;
  /** Takes a slot for a request let through without one; false (slot given back) when its client left meanwhile. */
  admit(request: FastifyRequest): Promise<boolean>;
}

/**
 * First come, first served for API requests on an embedded database. PGlite runs one statement at a time in arrival
 * order, so with hundreds of requests in flight each request's every statement queued behind every other request's
 * and all of them finished late together (a school view: nothing answered in 20 s, then everything). With a few
 * slots, a request runs its statements back to back once admitted and the others wait their turn in order
 * (tests/bench/load.ts; docs/decisions/029-pglite-statements-and-request-gate.md).
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
    const admit = async (request: FastifyRequest): Promise<boolean> => {
      request.slotDeferred = false;
      if (free > 0) free--;
      else await new Promise<void>((ok) => waiting.push(ok));
      // The client left while it waited (closed the tab, gave up): its turn goes to the next one at once.
      if (request.raw.destroyed) {
        release();
        return false;
      }
      let held = true;
      request.releaseSlot = () => {
        if (!held) return;
        held = false;
        release();
      };
      return true;
    };
    const gate: RequestGate = { skip: null, admit };
    app.decorate('requestGate', gate);
    app.decorateRequest('releaseSlot', null);
    app.decorateRequest('slotDeferred', false);
    app.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith('/api/') || UNGATED.test(request.url)) return;
      if (gate.skip?.(request)) {
        request.slotDeferred = true;
        return;
      }
      if (!(await admit(request))) return reply.code(499).send();
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
