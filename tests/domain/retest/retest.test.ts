import { describe, expect, it } from 'vitest';
import { yearResult, type YearPlanResult } from '@/domain/physique-year/year-result';
import { defaultRetestName, retestCreateSchema, retestRefusal } from '@/domain/retest/retest';

const plan = (total: number, over: Partial<YearPlanResult> = {}): YearPlanResult => ({ planId: 'p', retestOfPlanId: null, startDate: '2026-10-08', complete: true, total, ...over });

describe('re-test admission (docs/product-rules.md#physique-year, "Re-test")', () => {
  it('admits a failing year and says why it refuses the others', () => {
    expect(retestRefusal(true, yearResult([plan(52)], null))).toBeNull();
    expect(retestRefusal(true, yearResult([plan(75)], null))).toBe('passed');
    expect(retestRefusal(true, yearResult([plan(40)], 'exempt'))).toBe('exempt');
    expect(retestRefusal(true, yearResult([plan(50), plan(55, { planId: 'r', retestOfPlanId: 'p', startDate: '2027-03-01' })], null))).toBe('retested');
    expect(retestRefusal(false, yearResult([plan(40)], null))).toBe('notTested');
    // No complete result: nothing to re-test.
    expect(retestRefusal(true, yearResult([plan(40, { complete: false })], null))).toBe('notTested');
  });

  it('names a re-test after its plan within the name limit, and checks its days', () => {
    expect(defaultRetestName('秋季体测')).toBe('秋季体测补测');
    expect([...defaultRetestName('2025-2026学年第一学期体质健康测试')]).toHaveLength(20);
    expect(defaultRetestName('2025-2026学年第一学期体质健康测试').endsWith('补测')).toBe(true);
    const bad = retestCreateSchema.safeParse({ planId: '00000000-0000-4000-8000-000000000000', startDate: '2026-03-10', endDate: '2026-03-01' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe('testPlans:validation.endBeforeStart');
  });
});
