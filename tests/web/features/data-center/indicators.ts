import type { Indicators } from '@/domain/data-center/types';

/** A K12 school's indicators as the data centre's views answer them (200 students, 180 tested), with overrides. */
export function indicators(over: Partial<Indicators> = {}): Indicators {
  return {
    students: 200,
    tested: 180,
    assessed: 170,
    participationRate: 0.9,
    levels: { excellent: 30, good: 60, pass: 60, fail: 20 },
    levelRates: { excellent: 0.1765, good: 0.3529, pass: 0.3529, fail: 0.1176 },
    excellentRate: 0.1765,
    goodRate: 0.5294,
    passRate: 0.8824,
    meanTotal: 78.4,
    bmi: { normal: 120, lowWeight: 10, overweight: 30, obese: 20 },
    ...over,
  };
}
