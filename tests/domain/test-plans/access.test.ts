import { describe, expect, it } from 'vitest';
import { binPurgeAt, canCorrectDates, canUndoEnd, planDatesWarning, restorable } from '@/domain/test-plans/access';
import { planDatesSchema, planReopenSchema } from '@/domain/test-plans/schemas';

// 2026-11-23 10:00 in Asia/Shanghai.
const now = new Date('2026-11-23T02:00:00Z');

describe('plan administrators’ rules', () => {
  it('warns in the form only when the end date is before today', () => {
    expect(planDatesWarning({ startDate: '2026-11-01', endDate: '2026-11-22' }, '2026-11-23')).toBe('endPassed');
    expect(planDatesWarning({ startDate: '2026-11-01', endDate: '2026-11-23' }, '2026-11-23')).toBeNull();
    expect(planDatesWarning({ startDate: '2026-11-01', endDate: '' }, '2026-11-23')).toBeNull();
  });

  it('undoes an early end while the last day is today or later; corrects the dates of any ended plan', () => {
    const endedEarly = { startDate: '2026-11-01', endDate: '2026-11-23', endedAt: '2026-11-20T00:00:00Z' };
    expect(canUndoEnd(endedEarly, now)).toBe(true);
    expect(canUndoEnd({ ...endedEarly, endDate: '2026-11-22' }, now)).toBe(false);
    expect(canUndoEnd({ ...endedEarly, endedAt: null }, now)).toBe(false);
    expect(canCorrectDates({ startDate: '2026-10-01', endDate: '2026-11-22', endedAt: null }, now)).toBe(true);
    expect(canCorrectDates({ startDate: '2026-10-01', endDate: '2026-11-23', endedAt: null }, now)).toBe(false);
  });

  it('keeps a deleted plan restorable for 30 days', () => {
    const deletedAt = new Date('2026-11-01T00:00:00Z');
    expect(binPurgeAt(deletedAt).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(restorable(deletedAt, new Date('2026-11-30T23:59:59Z'))).toBe(true);
    expect(restorable(deletedAt, new Date('2026-12-01T00:00:00Z'))).toBe(false);
  });

  it('checks corrected dates like the form, and reopening takes both dates or neither', () => {
    expect(planDatesSchema.safeParse({ startDate: '2026-11-05', endDate: '2026-11-01' }).error?.issues[0]).toMatchObject({
      path: ['endDate'],
      message: 'testPlans:validation.endBeforeStart',
    });
    expect(planReopenSchema.parse({})).toEqual({});
    expect(planReopenSchema.safeParse({ endDate: '2026-12-01' }).error?.issues[0]).toMatchObject({ path: ['startDate'] });
  });
});
