import type { FastifyPluginAsync } from 'fastify';
import { releaseHolderLock } from './plan-job-holder';
import { purgeRecycleBin } from './test-plans-manage.service';

/** How often the recycle bin is swept for plans past their days (also once at start-up). */
const PURGE_EVERY_MS = 60 * 60_000;

/**
 * Server-wide duties of test plans: purge the recycle bin at start-up and every hour, and on
 * shutdown let go of this process's job-holder lock (plan-job-holder.ts).
 */
export const testPlanLifecycle: FastifyPluginAsync = async (app) => {
  let timer: NodeJS.Timeout | undefined;
  let first: Promise<void> | undefined;
  const purge = async () => {
    try {
      const purged = await purgeRecycleBin(app.db, app.now());
      if (purged > 0) app.log.info({ purged }, 'test plans purged from the recycle bin');
    } catch (error) {
      app.log.error({ err: error }, 'recycle bin purge failed');
    }
  };
  // The start-up sweep runs beside the first requests, not before listening: nothing a request reads waits for it.
  app.addHook('onReady', async () => {
    first = purge();
    timer = setInterval(() => void purge(), PURGE_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await first;
    await releaseHolderLock(app.db);
  });
};
