import type { FastifyPluginAsync } from 'fastify';
import { scheduleDuty } from '../../lib/duties';
import { heartRateRawDays } from '../retention/schedule';
import { pruneHeartRateSamples } from './heart-rate-partitions';

/** How often raw heart-rate samples past their days are removed and the next days' partitions made (also shortly after start-up). */
const RETENTION_EVERY_MS = 60 * 60_000;

/**
 * The raw heart-rate retention job (docs/product-rules.md#lesson-load, "Storage"): shortly after listening, then hourly, on
 * every instance (the work takes one advisory lock). What it removed goes to the log.
 */
export const heartRateLifecycle: FastifyPluginAsync<{ rawDays?: number }> = async (app, opts) => {
  scheduleDuty(app, RETENTION_EVERY_MS, async () => {
    try {
      // The retention schedule's days, unless the installation sets TIYU_HEART_RATE_RAW_DAYS.
      const rawDays = await heartRateRawDays(app.db, opts.rawDays);
      const removed = await pruneHeartRateSamples(app.db, app.now(), rawDays);
      if (removed.partitions.length > 0 || removed.defaultRows > 0 || removed.droppedKeys > 0) app.log.info({ ...removed, rawDays }, 'heart-rate raw samples removed');
    } catch (error) {
      app.log.error({ err: error }, 'heart-rate retention failed');
    }
  });
};
