import { describe, expect, it } from 'vitest';
import { graduationOutcome, retestEligible, yearResult, type YearPlanResult } from '@/domain/physique-year/year-result';

const plan = (total: number | null, startDate = '2026-09-01', complete = total != null): YearPlanResult => ({ planId: `p${startDate}`, retestOfPlanId: null, startDate, complete, total });
const retest = (total: number | null, startDate = '2027-05-01'): YearPlanResult => ({ planId: `r${startDate}`, retestOfPlanId: 'p', startDate, complete: total != null, total });

describe('the year’s physique result', () => {
  it('is the latest complete regular plan of the year', () => {
    expect(yearResult([plan(70, '2026-09-01'), plan(82, '2027-03-01')], null)).toMatchObject({ source: 'plan', total: 82, level: 'good' });
    expect(yearResult([plan(70, '2026-09-01'), plan(null, '2027-03-01')], null)).toMatchObject({ source: 'plan', total: 70 });
  });

  it('counts a passing re-test as the pass mark and keeps a failing one failing with the better total', () => {
    expect(yearResult([plan(48), retest(75)], null)).toMatchObject({ source: 'retest', total: 60, level: 'pass', planTotal: 48, retestTotal: 75 });
    expect(yearResult([plan(48), retest(55)], null)).toMatchObject({ source: 'retest', total: 55, level: 'fail' });
    expect(yearResult([plan(52), retest(40)], null)).toMatchObject({ source: 'retest', total: 52, level: 'fail' });
  });

  it('ignores a re-test of a year that passed', () => {
    expect(yearResult([plan(66), retest(90)], null)).toMatchObject({ source: 'plan', total: 66 });
  });

  it('has no total for an exempt year, and none for a deferred one until tested', () => {
    expect(yearResult([plan(80)], 'exempt')).toMatchObject({ source: 'exempt', total: null, level: null });
    expect(yearResult([], 'deferred')).toMatchObject({ source: 'deferred', total: null });
    expect(yearResult([plan(77)], 'deferred')).toMatchObject({ source: 'plan', total: 77 });
  });

  it('allows one re-test of a failing year', () => {
    expect(retestEligible(yearResult([plan(50)], null))).toBe(true);
    expect(retestEligible(yearResult([plan(50), retest(52)], null))).toBe(false);
    expect(retestEligible(yearResult([plan(60)], null))).toBe(false);
    expect(retestEligible(yearResult([plan(50)], 'exempt'))).toBe(false);
  });
});

describe('the graduation score', () => {
  const y = (academicYear: string, total: number | null, exempt = false) => ({ academicYear, year: yearResult(total == null ? [] : [plan(total)], exempt ? 'exempt' : null) });

  it('is half the graduation year plus half the mean of the other years, leaving out exempt years', () => {
    const out = graduationOutcome([y('2024-2025', 70), y('2025-2026', 0, true), y('2026-2027', 80)]);
    expect(out).toMatchObject({ kind: 'scored', yearsCounted: 2, score: { score: 75, level: 'pass' }, belowFifty: false });
  });

  it('says 免测 when the graduation year is exempt and flags a score below 50', () => {
    expect(graduationOutcome([y('2025-2026', 70), y('2026-2027', 0, true)])).toEqual({ kind: 'exempt' });
    expect(graduationOutcome([y('2025-2026', 40), y('2026-2027', 45)])).toMatchObject({ kind: 'scored', belowFifty: true });
    expect(graduationOutcome([y('2026-2027', null)])).toEqual({ kind: 'missing' });
  });
});
