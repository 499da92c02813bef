import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { lessons } from './lessons';

/**
 * The seconds the heart-rate ingest dropped (server/modules/lesson-load/heart-rate.service.ts), per lesson and band:
 * a resent batch's drops are counted into heart_rate_drops once, like its kept samples are stored once. Kept as long
 * as the raw samples (TIYU_HEART_RATE_RAW_DAYS), by the retention job.
 */
export const heartRateDropped = pgTable(
  'heart_rate_dropped',
  {
    lessonId: uuid('lesson_id').notNull().references(() => lessons.id, { onDelete: 'cascade' }),
    /** The band's serial number as sent (an unbound band has no student). */
    band: text('band').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [primaryKey({ columns: [t.lessonId, t.band, t.at] }), index('heart_rate_dropped_at_idx').on(t.at)],
);
