import { describe, expect, it } from 'vitest';
import { PHYSIQUE_BONUS_MAX, PHYSIQUE_STANDARD_MAX, PHYSIQUE_TOTAL_MAX } from '@/domain/constants';
import data2014 from '@/domain/physique/standards/2014.json';
import {
  compileStandard,
  DEFAULT_STANDARD_VERSION,
  getStandard,
  gradeTable,
  GRADES,
  isGender,
  isGrade,
  isStandardVersion,
  ITEM_KEYS,
  itemMeta,
  itemsForGrade,
  STANDARD_VERSIONS,
  stageOf,
  type Grade,
  type StandardData,
} from '@/domain/physique/standard';
import { SOURCE, sourceTables } from './fixture';

const clone = (): StandardData => JSON.parse(JSON.stringify(data2014)) as StandardData;

describe('standard registry', () => {
  it('registers 2014 as the default version', () => {
    expect(STANDARD_VERSIONS).toEqual(['2014']);
    expect(DEFAULT_STANDARD_VERSION).toBe('2014');
    expect(getStandard().version).toBe('2014');
    expect(getStandard('2014').title).toBe('国家学生体质健康标准（2014年修订）');
    expect(isStandardVersion('2014')).toBe(true);
    expect(isStandardVersion('2002')).toBe(false);
    expect(isStandardVersion('toString')).toBe(false);
    expect(() => getStandard('2002' as '2014')).toThrow(RangeError);
  });

  it('the limits of docs/product-rules.md#physique-scoring agree with the data file', () => {
    expect(SOURCE.scoring).toMatchObject({ standardMax: PHYSIQUE_STANDARD_MAX, bonusMax: PHYSIQUE_BONUS_MAX, totalMax: PHYSIQUE_TOTAL_MAX });
  });

  it('grade and gender guards', () => {
    expect(GRADES).toHaveLength(16);
    expect(isGrade(1)).toBe(true);
    expect(isGrade(16)).toBe(true);
    for (const bad of [0, 17, 1.5, '3', null, Number.NaN]) expect(isGrade(bad)).toBe(false);
    expect(isGender('male')).toBe(true);
    expect(isGender('M')).toBe(false);
    expect(() => gradeTable(17 as Grade, 'male')).toThrow(RangeError);
    expect(() => gradeTable(1, 'other' as 'male')).toThrow(RangeError);
  });

  it('stages', () => {
    expect(GRADES.map(stageOf)).toEqual([...Array(6).fill('primary'), ...Array(3).fill('junior'), ...Array(3).fill('senior'), ...Array(4).fill('university')]);
    for (const g of SOURCE.grades) expect(gradeTable(g.grade as Grade, 'male').stage, `grade ${g.grade}`).toBe(g.stage);
  });
});

describe('compact 2014 data equals the source file', () => {
  it('item metadata: unit, direction, resolution', () => {
    for (const item of ITEM_KEYS) {
      const src = SOURCE.items[item];
      const meta = itemMeta(item);
      expect(meta.unit, item).toBe(src.unit);
      expect(meta.resolution, item).toBe(src.resolution);
      expect(meta.lowerIsBetter, item).toBe(item === 'bmi' ? null : src.lowerIsBetter);
    }
  });

  it('every grade and gender tests exactly the source items, in table order, with the source weights', () => {
    for (const g of SOURCE.grades) {
      for (const gender of ['male', 'female'] as const) {
        const specs = itemsForGrade(g.grade as Grade, gender);
        const src = g[gender].items;
        expect(specs.map((s) => s.item), `${g.grade} ${gender}`).toEqual(ITEM_KEYS.filter((k) => k in src));
        for (const s of specs) {
          expect(s.weight, `${g.grade} ${gender} ${s.item}`).toBe(src[s.item]?.weight);
          expect(s.bonusMax, `${g.grade} ${gender} ${s.item}`).toBe(src[s.item]?.bonus?.maxBonus ?? 0);
        }
        expect(gradeTable(g.grade as Grade, gender).tableColumn).toBe(g.tableColumn);
      }
    }
  });

  it('every score table row, blank pull-up scores and bonus row', () => {
    let tables = 0;
    for (const { grade, gender, item, src } of sourceTables()) {
      const t = gradeTable(grade as Grade, gender).byItem[item];
      const where = `${grade} ${gender} ${item}`;
      if (item === 'bmi') {
        expect(t?.kind, where).toBe('bmi');
        if (t?.kind !== 'bmi' || !src.bands) continue;
        expect([t.lowWeightMax, t.normalMin, t.normalMax, t.overweightMin, t.overweightMax, t.obeseMin], where).toEqual([
          src.bands.lowWeight.max,
          src.bands.normal.min,
          src.bands.normal.max,
          src.bands.overweight.min,
          src.bands.overweight.max,
          src.bands.obese.min,
        ]);
        expect(t.bandScores, where).toEqual({ normal: src.bands.normal.score, lowWeight: src.bands.lowWeight.score, overweight: src.bands.overweight.score, obese: src.bands.obese.score });
        continue;
      }
      expect(t?.kind, where).toBe('table');
      if (t?.kind !== 'table' || !src.rows) continue;
      tables++;
      expect(t.lowerIsBetter, where).toBe(src.lowerIsBetter);
      expect([...t.thresholds], where).toEqual(src.rows.map((r) => r.threshold));
      expect([...t.scores], where).toEqual(src.rows.map((r) => r.score));
      expect([...t.bonusThresholds], where).toEqual(src.bonus?.rows.map((r) => r.threshold) ?? []);
      expect([...t.bonusValues], where).toEqual(src.bonus?.rows.map((r) => r.bonus) ?? []);
    }
    // grades 1-2: 4 score tables, 3-4: 5, 5-6: 6, 7-16: 6 per gender
    expect(tables).toBe(2 * (2 * 4 + 2 * 5 + 2 * 6 + 10 * 6));
  });
});

describe('compileStandard rejects broken data', () => {
  it('thresholds out of order', () => {
    const d = clone();
    const t = d.groups[0].male.run50m!.thresholds;
    [t[0], t[1]] = [t[1], t[0]];
    expect(() => compileStandard(d)).toThrow(/not strictly ordered/);
  });
  it('row count not matching the score levels', () => {
    const d = clone();
    d.groups[0].male.vitalCapacity!.thresholds.pop();
    expect(() => compileStandard(d)).toThrow(/thresholds for/);
  });
  it('weights not summing to 100 %', () => {
    const d = clone();
    d.groups[0].female.bmi!.weight = 0.2;
    expect(() => compileStandard(d)).toThrow(/weights sum/);
  });
  it('BMI bands with a gap', () => {
    const d = clone();
    d.groups[0].male.bmi!.bands.obeseMin = 20.6;
    expect(() => compileStandard(d)).toThrow(/gaps/);
  });
  it('a missing grade', () => {
    const d = clone();
    d.groups.pop();
    expect(() => compileStandard(d)).toThrow(/grade 15 missing/);
  });
  it('an unknown unit', () => {
    const d = clone();
    d.items.run50m.unit = 'min';
    expect(() => compileStandard(d)).toThrow(/unknown unit/);
  });
});
