import type { FastifyPluginAsync } from 'fastify';
import { scheduleDuty } from '../../lib/duties';
import { releaseHolderLock } from './plan-job-holder';
import { purgeRecycleBin } from './test-plans-manage.service';

/** How often the recycle bin is swept for plans past their days (also shortly after start-up). */
const PURGE_EVERY_MS = 60 * 60_000;

/**
 * Server-wide duties of test plans: purge the recycle bin shortly after start-up and every hour, and on
 * shutdown let go of this process's job-holder lock (plan-job-holder.ts).
 */
export const testPlanLifecycle: FastifyPluginAsync = async (app) => {
  scheduleDuty(app, PURGE_EVERY_MS, async () => {
    try {
      const purged = await purgeRecycleBin(app.db, app.now());
      if (purged > 0) app.log.info({ purged }, 'test plans purged from the recycle bin');
    } catch (error) {
      app.log.error({ err: error }, 'recycle bin purge failed');
    }
  });
  app.addHook('onClose', async () => {
    await releaseHolderLock(app.db);
  });
};
