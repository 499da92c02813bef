import { describe, expect, it } from 'vitest';
import { parseTestCardCode, testCardCode } from '@/domain/test-day/test-card';

describe('a test card code', () => {
  const plan = '0b9f3c2e-1d4a-4c5b-9e8f-7a6b5c4d3e2f';
  it('carries the plan and the 学籍号 and reads back', () => {
    expect(parseTestCardCode(testCardCode(plan, 'G110105201405010012'))).toEqual({ planId: plan, regNo: 'G110105201405010012' });
  });
  it('takes a bare 学籍号 without a plan and refuses anything else', () => {
    expect(parseTestCardCode(' G1101052014 ')).toEqual({ planId: null, regNo: 'G1101052014' });
    expect(parseTestCardCode('https://example.com/x')).toBeNull();
    expect(parseTestCardCode(`TIYU1|not-a-uuid|G1`)).toBeNull();
  });
});
