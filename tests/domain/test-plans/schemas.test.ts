import { describe, expect, it } from 'vitest';
import { DEFAULT_STANDARD_VERSION, GRADES, itemsForGrade } from '@/domain/physique/standard';
import { defaultPlanItems, planItemsForGrade, studentPlanItems } from '@/domain/test-plans/items';
import { planPageQuerySchema, planRequestSchema, signUpQuerySchema, type PlanRequestInput } from '@/domain/test-plans/schemas';

const ID = '0b0e9c34-6a52-4b8a-9a57-1c2d3e4f5a6b';
const valid: PlanRequestInput = {
  name: '2026秋季体测',
  schoolYearId: ID,
  semesterCode: 13,
  startDate: '2026-11-01',
  endDate: '2026-11-30',
  scopeType: 'grade',
  scopeIds: [ID],
};
/** The first message of a failed parse (what the server answers). */
const firstMessage = (input: unknown) => {
  const r = planRequestSchema.safeParse(input);
  return r.success ? null : r.error.issues[0].message;
};

describe('planRequestSchema (docs/product-rules.md#test-plans)', () => {
  it('fills the defaults: standard 2014, no fee, precision 2, round', () => {
    const r = planRequestSchema.parse(valid);
    expect(r).toMatchObject({ standardVersion: DEFAULT_STANDARD_VERSION, feeAmount: null, feePrecision: 2, feeRounding: 'round' });
    expect(r.items).toBeUndefined();
  });

  it('accepts form strings: semester "11", fee "0.01", precision "3", empty fee', () => {
    const r = planRequestSchema.parse({ ...valid, semesterCode: '11', feeAmount: '0.01', feePrecision: '3', feeRounding: 'down' });
    expect(r).toMatchObject({ semesterCode: 11, feeAmount: 0.01, feePrecision: 3, feeRounding: 'down' });
    expect(planRequestSchema.parse({ ...valid, feeAmount: '' }).feeAmount).toBeNull();
  });

  it('counts name length in characters, 1–20 (docs/product-rules.md#limits), trimmed', () => {
    expect(firstMessage({ ...valid, name: '一'.repeat(20) })).toBeNull();
    expect(firstMessage({ ...valid, name: '一'.repeat(21) })).toBe('testPlans:validation.nameLength');
    expect(firstMessage({ ...valid, name: '😀'.repeat(20) })).toBeNull();
    expect(firstMessage({ ...valid, name: '   ' })).toBe('testPlans:validation.nameRequired');
    expect(firstMessage({ ...valid, name: undefined })).toBe('testPlans:validation.nameRequired');
    expect(planRequestSchema.parse({ ...valid, name: '  体测  ' }).name).toBe('体测');
  });

  it('checks dates: real days, end not before start', () => {
    expect(firstMessage({ ...valid, endDate: '2026-10-31' })).toBe('testPlans:validation.endBeforeStart');
    expect(firstMessage({ ...valid, endDate: valid.startDate })).toBeNull();
    expect(firstMessage({ ...valid, startDate: '2026-02-30' })).toBe('testPlans:validation.startDateInvalid');
    expect(firstMessage({ ...valid, startDate: '0000-01-01' })).toBe('testPlans:validation.startDateInvalid');
    expect(firstMessage({ ...valid, endDate: '2026-13-45' })).toBe('testPlans:validation.endDateInvalid');
    expect(firstMessage({ ...valid, startDate: '' })).toBe('testPlans:validation.startDateRequired');
  });

  it('checks semester 11/13, scope and standard', () => {
    expect(firstMessage({ ...valid, semesterCode: 12 })).toBe('testPlans:validation.semesterRequired');
    expect(firstMessage({ ...valid, scopeIds: [] })).toBe('testPlans:validation.scopeRequired');
    expect(firstMessage({ ...valid, scopeIds: ['x'] })).toBe('testPlans:validation.scopeRequired');
    expect(firstMessage({ ...valid, scopeType: 'school' })).toBe('testPlans:validation.scopeTypeRequired');
    expect(firstMessage({ ...valid, standardVersion: '2030' })).toBe('testPlans:validation.standardVersion');
    expect(planRequestSchema.parse({ ...valid, scopeIds: [ID, ID.toUpperCase()] }).scopeIds).toEqual([ID]);
  });

  it('checks the fee: ≥ 0.01, at most three decimals, still ≥ 0.01 after rounding', () => {
    expect(firstMessage({ ...valid, feeAmount: 0.01 })).toBeNull();
    expect(firstMessage({ ...valid, feeAmount: 0.001 })).toBe('testPlans:validation.feeMin');
    expect(firstMessage({ ...valid, feeAmount: 0 })).toBe('testPlans:validation.feeMin');
    expect(firstMessage({ ...valid, feeAmount: -5 })).toBe('testPlans:validation.feeMin');
    expect(firstMessage({ ...valid, feeAmount: 1.2345 })).toBe('testPlans:validation.feeDecimals');
    expect(firstMessage({ ...valid, feeAmount: 'abc' })).toBe('testPlans:validation.feeInvalid');
    expect(firstMessage({ ...valid, feeAmount: 1e9 })).toBe('testPlans:validation.feeMax');
    expect(firstMessage({ ...valid, feeAmount: 0.4, feePrecision: 0, feeRounding: 'round' })).toBe('testPlans:validation.feeRoundsBelowMin');
    expect(firstMessage({ ...valid, feeAmount: 0.4, feePrecision: 0, feeRounding: 'up' })).toBeNull();
    expect(firstMessage({ ...valid, feeAmount: 1, feePrecision: 4 })).toBe('testPlans:validation.feePrecision');
    expect(firstMessage({ ...valid, feeAmount: 1, feeRounding: 'bankers' })).toBe('testPlans:validation.feeRounding');
  });

  it('checks items per grade: a non-empty subset of the standard, each grade once', () => {
    expect(firstMessage({ ...valid, items: [{ gradeNo: 1, items: ['bmi', 'rope1min'] }] })).toBeNull();
    expect(firstMessage({ ...valid, items: [{ gradeNo: 1, items: ['pullUp'] }] })).toBe('testPlans:validation.itemNotInStandard');
    expect(firstMessage({ ...valid, items: [{ gradeNo: 1, items: [] }] })).toBe('testPlans:validation.itemsRequired');
    expect(firstMessage({ ...valid, items: [{ gradeNo: 1, items: ['swim'] }] })).toBe('testPlans:validation.itemInvalid');
    expect(firstMessage({ ...valid, items: [{ gradeNo: 17, items: ['bmi'] }] })).toBe('testPlans:validation.gradeInvalid');
    expect(firstMessage({ ...valid, items: [{ gradeNo: 1, items: ['bmi', 'bmi'] }] })).toBe('testPlans:validation.itemDuplicate');
    expect(
      firstMessage({
        ...valid,
        items: [
          { gradeNo: 3, items: ['bmi'] },
          { gradeNo: 3, items: ['run50m'] },
        ],
      }),
    ).toBe('testPlans:validation.gradeDuplicate');
  });

  it('list and sign-up filters: blanks mean no filter, statuses checked', () => {
    expect(planPageQuerySchema.parse({ name: '', status: '', semesterCode: '' })).toEqual({ current: 1, size: 10, bin: false });
    expect(planPageQuerySchema.parse({ bin: '1' })).toMatchObject({ bin: true });
    expect(planPageQuerySchema.parse({ status: 'ended', semesterCode: '13' })).toMatchObject({ status: 'ended', semesterCode: 13 });
    expect(planPageQuerySchema.safeParse({ status: 'done' }).success).toBe(false);
    expect(signUpQuerySchema.parse({ status: 'incomplete', keyword: ' 张 ' })).toMatchObject({ status: 'incomplete', keyword: '张' });
  });
});

describe('plan items', () => {
  it('offers both genders’ items of a grade, in table order', () => {
    for (const grade of GRADES) {
      const both = new Set([...itemsForGrade(grade, 'male'), ...itemsForGrade(grade, 'female')].map((s) => s.item));
      expect(new Set(planItemsForGrade(grade, '2014'))).toEqual(both);
    }
    expect(planItemsForGrade(1, '2014')).toEqual(['bmi', 'vitalCapacity', 'run50m', 'sitAndReach', 'rope1min']);
    expect(planItemsForGrade(13, '2014')).toEqual(expect.arrayContaining(['pullUp', 'sitUp1min', 'run1000m', 'run800m']));
    expect(defaultPlanItems('2014')).toHaveLength(16);
  });

  it('gives a student the plan items of their gender', () => {
    const all = planItemsForGrade(8, '2014');
    expect(studentPlanItems(all, 8, 'male', '2014')).toEqual(itemsForGrade(8, 'male').map((s) => s.item));
    expect(studentPlanItems(all, 8, 'female', '2014')).not.toContain('pullUp');
    expect(studentPlanItems(['bmi', 'pullUp'], 8, 'female', '2014')).toEqual(['bmi']);
  });
});
