import type { FastifyPluginAsync } from 'fastify';
import { scheduleDuty } from '../../lib/duties';
import { ensureDaysAhead } from '../../db/day-partitions';
import { ensureSchoolYearPartitions } from '../../db/school-year-partitions';

/** How often the next school year's partitions are made sure of (also shortly after start-up). */
const EVERY_MS = 60 * 60_000;

/**
 * Makes the school-year partitions ahead (docs/decisions/064-partitions-by-school-year.md): hourly, after start-up, on
 * every instance (one advisory lock); and today's and tomorrow's day partitions of the tables partitioned by day
 * (the access log, raw heart-rate samples: server/db/day-partitions.ts), so midnight never writes into a default
 * partition. A year that could not get its partition (its rows already in the default partition) goes to the log.
 */
export const schoolYearPartitionsLifecycle: FastifyPluginAsync = async (app) => {
  scheduleDuty(app, EVERY_MS, async () => {
    try {
      const made = await ensureSchoolYearPartitions(app.db, app.now());
      const crowded = made.filter((m) => m.partition === null);
      if (crowded.length > 0) app.log.warn({ crowded }, 'school-year partitions not made: rows of those years are in the default partition');
    } catch (error) {
      app.log.error({ err: error }, 'school-year partitions');
    }
    try {
      await ensureDaysAhead(app.db, app.now());
    } catch (error) {
      app.log.error({ err: error }, 'day partitions');
    }
  });
};
