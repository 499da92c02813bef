import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Lets other requests run during a long synchronous-looking job (reading a large upload, validating its rows):
 * `await pacer.pace()` between small steps gives the event loop a turn once every `sliceMs` of work, so a waiting
 * request is answered within a slice. Chosen over a worker thread because the rows must come back to the request's
 * thread anyway (validation, student matching, the database transaction) and copying them across would cost more
 * than the pauses (docs/decisions/011-own-xlsx-reader.md).
 */
export class EventLoopPacer {
  private last = performance.now();

  constructor(private readonly sliceMs = 20) {}

  async pace(): Promise<void> {
    if (performance.now() - this.last < this.sliceMs) return;
    await nextTurn();
    this.last = performance.now();
  }
}
