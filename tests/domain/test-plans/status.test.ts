import { describe, expect, it } from 'vitest';
import { planStatus } from '@/domain/test-plans/status';
import { localDate } from '@/domain/dates';

const plan = { startDate: '2026-11-10', endDate: '2026-11-20', endedAt: null };

describe('planStatus (docs/product-rules.md#plan-states)', () => {
  it('reads the local date in Asia/Shanghai (UTC+8)', () => {
    expect(localDate(new Date('2026-11-09T15:59:59Z'))).toBe('2026-11-09');
    expect(localDate(new Date('2026-11-09T16:00:00Z'))).toBe('2026-11-10');
  });

  it('is not started before the first day, in progress through the last day inclusive, ended after', () => {
    expect(planStatus(plan, new Date('2026-11-09T15:59:59Z'))).toBe('notStarted');
    expect(planStatus(plan, new Date('2026-11-09T16:00:00Z'))).toBe('inProgress');
    expect(planStatus(plan, new Date('2026-11-20T15:59:59Z'))).toBe('inProgress');
    expect(planStatus(plan, new Date('2026-11-20T16:00:00Z'))).toBe('ended');
  });

  it('is ended at once after an early end, even before it started', () => {
    expect(planStatus({ ...plan, endedAt: new Date('2026-11-12T02:00:00Z') }, new Date('2026-11-12T02:00:00Z'))).toBe('ended');
    expect(planStatus({ ...plan, endedAt: '2026-11-01T00:00:00Z' }, new Date('2026-11-01T00:00:00Z'))).toBe('ended');
  });

  it('treats a one-day plan as in progress for that whole day', () => {
    const oneDay = { startDate: '2026-11-23', endDate: '2026-11-23', endedAt: null };
    expect(planStatus(oneDay, new Date('2026-11-22T16:00:00Z'))).toBe('inProgress');
    expect(planStatus(oneDay, new Date('2026-11-23T15:59:59Z'))).toBe('inProgress');
  });
});
