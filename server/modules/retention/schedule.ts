import { eq } from 'drizzle-orm';
import { RETENTION_CATEGORIES, RETENTION_DEFAULTS, RETENTION_KEYS, type RetentionDurations } from '@/domain/retention/retention';
import type { DbOrTx } from '../../db/client';
import { platformSettings } from '../../db/schema/shell';

/**
 * The retention schedule as stored (docs/product-rules.md#retention): the one source of every category's duration,
 * read by the retention run and by the features whose data it ends (homework videos, raw heart-rate samples).
 */

/** The platform_settings key of the retention schedule. */
export const RETENTION_KEY = 'retention';

/** The stored durations over the defaults (a key not stored keeps its default). */
export async function readRetention(db: DbOrTx): Promise<{ durations: RetentionDurations; version: number }> {
  const [row] = await db.select().from(platformSettings).where(eq(platformSettings.key, RETENTION_KEY)).limit(1);
  if (!row) return { durations: { ...RETENTION_DEFAULTS }, version: 0 };
  const durations = { ...RETENTION_DEFAULTS };
  for (const key of RETENTION_KEYS) {
    const v = row.value[key];
    const c = RETENTION_CATEGORIES[key];
    // A stored value outside today's bounds (bounds tightened since) is held to them: the log minimum is a rule.
    if (typeof v === 'number' && Number.isInteger(v)) durations[key] = Math.min(c.max, Math.max(c.min, v));
  }
  return { durations, version: row.version };
}

/** How many months homework videos are kept. */
export const homeworkVideoMonths = async (db: DbOrTx) => (await readRetention(db)).durations.homeworkVideos;

/** When raw heart-rate samples go: TIYU_HEART_RATE_RAW_DAYS when the installation sets it, else the schedule. */
export async function heartRateRawDays(db: DbOrTx, envDays: number | undefined): Promise<number> {
  return envDays ?? (await readRetention(db)).durations.heartRateRaw;
}
