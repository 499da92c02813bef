import { describe, expect, it } from 'vitest';
import { adviceKey, itemBands } from '@/domain/parent-reports/parent-reports';
import { scoreItem } from '@/domain/physique/score';
import { GRADES, itemsForGrade, type Gender } from '@/domain/physique/standard';
import zhAdvice from '../../../locales/zh_cn/physiqueAdvice.json';

describe('the standard bands a parent report draws (docs/product-rules.md#physique-year, "Reports parents read")', () => {
  it('each band is the least value that still scores pass (60), good (80) and excellent (90) for every grade, gender and item', () => {
    for (const grade of GRADES) {
      for (const gender of ['male', 'female'] as Gender[]) {
        for (const spec of itemsForGrade(grade, gender)) {
          const bands = itemBands(grade, gender, spec.item);
          if (spec.item === 'bmi') {
            expect(bands?.kind).toBe('bmi');
            continue;
          }
          if (bands?.kind !== 'table') throw new Error(`no bands for ${spec.item}`);
          const step = spec.resolution * (bands.lowerIsBetter ? 1 : -1); // one step worse
          for (const [band, min] of [['pass', 60], ['good', 80], ['excellent', 90]] as const) {
            expect(scoreItem({ grade, gender, item: spec.item, raw: bands[band] }).score, `${grade} ${gender} ${spec.item} ${band}`).toBeGreaterThanOrEqual(min);
            expect(scoreItem({ grade, gender, item: spec.item, raw: bands[band] + step }).score, `${grade} ${gender} ${spec.item} ${band}`).toBeLessThan(min);
          }
        }
      }
    }
  });

  it('bands follow the grade and the gender: grade 6 boys run 50 m faster than grade 1 boys, and girls have their own', () => {
    const g1 = itemBands(1, 'male', 'run50m');
    const g6 = itemBands(6, 'male', 'run50m');
    const g6f = itemBands(6, 'female', 'run50m');
    if (g1?.kind !== 'table' || g6?.kind !== 'table' || g6f?.kind !== 'table') throw new Error('table bands expected');
    expect(g6.pass).toBeLessThan(g1.pass);
    expect(g6f.pass).not.toBe(g6.pass);
    expect(itemBands(3, 'male', 'pullUp')).toBeNull(); // not tested in grade 3
  });

  it('every item and level has curated advice (BMI by its band)', () => {
    for (const grade of GRADES) {
      for (const gender of ['male', 'female'] as Gender[]) {
        for (const spec of itemsForGrade(grade, gender)) {
          const levels = spec.item === 'bmi' ? ['normal', 'lowWeight', 'overweight', 'obese'] : ['excellent', 'good', 'pass', 'fail'];
          for (const level of levels) {
            const key = adviceKey(spec.item, level as 'pass')!.replace('physiqueAdvice:', '');
            const [item, l] = key.split('.');
            expect((zhAdvice as Record<string, Record<string, string>>)[item]?.[l], key).toBeTruthy();
          }
        }
      }
    }
    expect(adviceKey('run50m', null)).toBeNull();
  });
});
