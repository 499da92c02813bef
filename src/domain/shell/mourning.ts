import { z } from 'zod';
import { isIsoDate, localDate } from '../dates';
import { versionField } from '../list-query';

/**
 * Mourning mode (哀悼模式, docs/product-rules.md#mourning-mode): a platform operator's switch with a date range; between
 * its dates (calendar days in China, both included) the console and the login page render grey.
 */

/** The longest range an operator may set: national mourning lasts days, not months. */
export const MOURNING_MAX_DAYS = 31;

const day = (required: string) => z.string({ error: required }).min(1, required).refine(isIsoDate, 'layout:mourning.dateInvalid');

/** The operator's form and the request body. `version`: a stale form never overwrites a newer save. */
export const mourningSaveSchema = z
  .object({
    enabled: z.boolean(),
    startDate: day('layout:mourning.startRequired'),
    endDate: day('layout:mourning.endRequired'),
    version: versionField,
  })
  .superRefine((v, ctx) => {
    if (!isIsoDate(v.startDate) || !isIsoDate(v.endDate)) return;
    if (v.endDate < v.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'layout:mourning.endBeforeStart' });
    else if ((Date.parse(v.endDate) - Date.parse(v.startDate)) / 86_400_000 + 1 > MOURNING_MAX_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'layout:mourning.tooLong' });
    }
  });
export type MourningSave = z.output<typeof mourningSaveSchema>;
export type MourningForm = z.input<typeof mourningSaveSchema>;

/** What the operator's screen reads: the stored setting (none yet: off, no dates, version 0). */
export const mourningSettingSchema = z.object({
  enabled: z.boolean(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  version: z.number().int(),
});
export type MourningSetting = z.output<typeof mourningSettingSchema>;

/** The public answer the console and the login page read: only whether today is grey. */
export const mourningStateSchema = z.object({ active: z.boolean() });
export type MourningState = z.output<typeof mourningStateSchema>;

export const MOURNING_OFF: MourningSetting = { enabled: false, startDate: null, endDate: null, version: 0 };

/** Whether the setting greys the console at `now` (its calendar day in China, both ends included). */
export function isMourningActive(s: MourningSetting, now: Date): boolean {
  if (!s.enabled || !s.startDate || !s.endDate) return false;
  const today = localDate(now);
  return s.startDate <= today && today <= s.endDate;
}
