import type { FastifyPluginAsync } from 'fastify';
import { scheduleDuty } from '../../lib/duties';
import type { Storage } from '../../lib/storage/storage';
import { runRetention } from './retention.service';

/** How often an instance looks whether a run is due (a run starts when the last one is about a day old). */
const LOOK_EVERY_MS = 60 * 60_000;
const FIRST_LOOK_MS = 60_000;

/**
 * The retention schedule's scheduled run (docs/product-rules.md#retention): on every instance that works jobs, hourly
 * after it starts listening; the instances take turns through the run's claim (one run a day at most), as the audit sealer does.
 */
export const retentionLifecycle: FastifyPluginAsync<{ storage: Storage; heartRateRawDays?: number; enabled: boolean }> = async (app, opts) => {
  // A test's app (injected storage, its own clock) runs the schedule by hand.
  if (!opts.enabled) return;
  // Shortly after start-up (a restarted instance does not wait an hour), then hourly.
  scheduleDuty(
    app,
    LOOK_EVERY_MS,
    async () => {
      try {
        const id = await runRetention(app.db, app.now(), { storage: opts.storage, heartRateRawDays: opts.heartRateRawDays });
        if (id) app.log.info({ runId: id }, 'retention run');
      } catch (err) {
        app.log.error({ err }, 'retention run failed');
      }
    },
    FIRST_LOOK_MS,
  );
};
