import { describe, expect, it } from 'vitest';
import { parseRaw, PARSE_RULES, type ParseField } from '@/domain/physique/parse';
import { ITEM_KEYS } from '@/domain/physique/standard';

const ACCEPT: [ParseField, string | number, number][] = [
  // long runs and shuttle: minutes and seconds in every usual spelling
  ['run1000m', `3'40"`, 220],
  ['run1000m', `3'40''`, 220],
  ['run1000m', '3′40″', 220],
  ['run1000m', '3′40', 220],
  ['run1000m', '3’40”', 220],
  ['run1000m', `3'40`, 220],
  ['run1000m', '3:40', 220],
  ['run1000m', '3：40', 220],
  ['run1000m', '3分40秒', 220],
  ['run1000m', '3分40', 220],
  ['run1000m', '3 分 40 秒', 220],
  ['run1000m', '3m40s', 220],
  ['run1000m', '3.40', 220],
  ['run1000m', '3.4', 220], // Excel drops the trailing zero of 3.40
  ['run1000m', 3.4, 220],
  ['run1000m', '4.05', 245],
  ['run1000m', '220', 220],
  ['run1000m', 220, 220],
  ['run1000m', '220s', 220],
  ['run1000m', '220秒', 220],
  ['run1000m', `3'40"5`, 220.5],
  ['run1000m', '3:40.5', 220.5],
  ['run1000m', '4分', 240],
  // as cells under a time format show them (hh:mm:ss, [h]:mm:ss, mm:ss, mm:ss.0)
  ['run1000m', '00:03:40', 220],
  ['run1000m', '0:03:40', 220],
  ['run1000m', '03:40', 220],
  ['run1000m', '03:40.5', 220.5],
  ['run1000m', '00:03:40.5', 220.5],
  ['shuttle50x8', '00:01:45', 105],
  ['run50m', '00:08.4', 8.4],
  ['run50m', '00:00:08.4', 8.4],
  ['run1000m', ' ３：４０ ', 220],
  ['run800m', `3'05"`, 185],
  ['run800m', '3.05', 185],
  ['shuttle50x8', `1'45"`, 105],
  ['shuttle50x8', '1.45', 105],
  ['shuttle50x8', '105', 105],
  // 50 m sprint: seconds with tenths
  ['run50m', '8.5', 8.5],
  ['run50m', 8.5, 8.5],
  ['run50m', '8.5s', 8.5],
  ['run50m', '8.5秒', 8.5],
  ['run50m', '8.5"', 8.5],
  ['run50m', '8"5', 8.5],
  ['run50m', '9', 9],
  ['run50m', '10.25', 10.25],
  // lengths
  ['standingLongJump', '185', 185],
  ['standingLongJump', '185cm', 185],
  ['standingLongJump', '185 CM', 185],
  ['standingLongJump', '185厘米', 185],
  ['standingLongJump', '1.85m', 185],
  ['standingLongJump', '1.85米', 185],
  ['standingLongJump', '1米85', 185],
  ['standingLongJump', '2.3m', 230],
  ['standingLongJump', '0.29m', 29],
  ['sitAndReach', '-2.5', -2.5],
  ['sitAndReach', '−2.5', -2.5],
  ['sitAndReach', '－2.5cm', -2.5],
  ['sitAndReach', '12.5厘米', 12.5],
  ['sitAndReach', '0', 0],
  ['sitAndReach', '-0', 0],
  ['sitAndReach', '125mm', 12.5],
  ['heightCm', '165.5', 165.5],
  ['heightCm', '1.655m', 165.5],
  ['heightCm', '1米7', 170],
  ['weightKg', '52.3', 52.3],
  ['weightKg', '52.3kg', 52.3],
  ['weightKg', '52.3公斤', 52.3],
  // counts
  ['pullUp', '12', 12],
  ['pullUp', '12次', 12],
  ['pullUp', '0', 0],
  ['sitUp1min', '45个', 45],
  ['rope1min', '156下', 156],
  ['rope1min', '156.0', 156],
  ['rope1min', 156, 156],
  // volume and BMI
  ['vitalCapacity', '3500', 3500],
  ['vitalCapacity', '3500ml', 3500],
  ['vitalCapacity', '3500mL', 3500],
  ['vitalCapacity', '3500毫升', 3500],
  ['vitalCapacity', '3.5L', 3500],
  ['bmi', '18.6', 18.6],
  ['bmi', '18.6kg/m²', 18.6],
];

const REJECT: [ParseField, string | number | null | undefined, string][] = [
  ['run1000m', '', 'physique:parse.empty'],
  ['run1000m', '   ', 'physique:parse.empty'],
  ['run1000m', null, 'physique:parse.empty'],
  ['run1000m', undefined, 'physique:parse.empty'],
  ['run1000m', 'abc', 'physique:parse.invalidTime'],
  ['run1000m', '3.405', 'physique:parse.invalidTime'],
  ['run1000m', '-220', 'physique:parse.invalidTime'],
  ['run1000m', '3:4:0', 'physique:parse.invalidTime'],
  ['run1000m', '00:60:00', 'physique:parse.secondsOverflow'],
  ['run1000m', '00:03:60', 'physique:parse.secondsOverflow'],
  ['run1000m', '01:03:40', 'physique:parse.outOfRange'],
  ['run1000m', '3分40米', 'physique:parse.invalidTime'],
  ['run1000m', `3'75"`, 'physique:parse.secondsOverflow'],
  ['run1000m', '3.75', 'physique:parse.secondsOverflow'],
  ['run1000m', '3.6', 'physique:parse.secondsOverflow'], // 3'60"
  ['run1000m', '30', 'physique:parse.outOfRange'],
  ['run1000m', '2', 'physique:parse.outOfRange'],
  ['run1000m', Number.NaN, 'physique:parse.invalidTime'],
  ['run50m', '8,5', 'physique:parse.invalidSprint'],
  ['run50m', '85', 'physique:parse.outOfRange'],
  ['run50m', 'fast', 'physique:parse.invalidSprint'],
  ['pullUp', '12.5', 'physique:parse.invalidCount'],
  ['pullUp', '-1', 'physique:parse.invalidCount'],
  ['pullUp', '12cm', 'physique:parse.invalidCount'],
  ['sitUp1min', '150', 'physique:parse.outOfRange'],
  ['standingLongJump', '1.85', 'physique:parse.outOfRange'], // metres without the unit
  ['standingLongJump', '-20', 'physique:parse.invalidJump'],
  ['standingLongJump', '185kg', 'physique:parse.invalidJump'],
  ['sitAndReach', '2.5s', 'physique:parse.invalidReach'],
  ['sitAndReach', '--2', 'physique:parse.invalidReach'],
  ['vitalCapacity', '3500cm', 'physique:parse.invalidVolume'],
  ['vitalCapacity', '35', 'physique:parse.outOfRange'],
  ['heightCm', '1.7', 'physique:parse.outOfRange'],
  ['weightKg', '52斤', 'physique:parse.invalidWeight'],
  ['bmi', 'normal', 'physique:parse.invalidBmi'],
  ['bmi', '180', 'physique:parse.outOfRange'],
];

describe('parseRaw accepts what people type', () => {
  it.each(ACCEPT)('%s %j → %d', (field, input, value) => {
    expect(parseRaw(field, input)).toEqual({ ok: true, value });
  });
});

describe('parseRaw rejects everything else with an i18n key', () => {
  it.each(REJECT)('%s %j → %s', (field, input, error) => {
    const r = parseRaw(field, input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toBe(error);
  });

  it('out-of-range errors carry the bounds', () => {
    expect(parseRaw('run50m', '85')).toEqual({ ok: false, error: 'physique:parse.outOfRange', params: { min: 4, max: 60 } });
  });

  it('has a rule for every item plus height and weight', () => {
    expect(Object.keys(PARSE_RULES).sort()).toEqual([...ITEM_KEYS, 'heightCm', 'weightKg'].sort());
  });
});
