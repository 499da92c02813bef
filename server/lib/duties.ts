import type { FastifyInstance } from 'fastify';

/** How long after the server starts listening a periodic duty first runs. */
export const FIRST_RUN_AFTER_LISTEN_MS = 5_000;

/**
 * A server-wide periodic duty (sweeps, partitions ahead, the retention schedule's look): first `firstAfterMs` after the
 * server starts listening, then every `everyMs`; on close, no further run and the one in progress is awaited. Not at
 * `onReady`: on PGlite's one thread a sweep run there went before a start's first answer
 * (docs/decisions/065-built-server.md). An app that never listens (the tests' `inject`) runs none; tests call the
 * duty's function themselves. `run` reports its own errors.
 */
export function scheduleDuty(app: FastifyInstance, everyMs: number, run: () => Promise<void>, firstAfterMs = FIRST_RUN_AFTER_LISTEN_MS): void {
  let first: NodeJS.Timeout | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const start = () => {
    running = run();
  };
  app.addHook('onListen', async () => {
    first = setTimeout(start, firstAfterMs);
    first.unref();
    timer = setInterval(start, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  });
}
