import { describe, expect, it } from 'vitest';
import { decimalsOf, roundFee } from '@/domain/test-plans/fee';

describe('roundFee (docs/product-rules.md#limits: precision 0–3, round / up / down)', () => {
  it.each([
    [12.345, 2, 'round', 12.35],
    [12.344, 2, 'round', 12.34],
    [1.005, 2, 'round', 1.01],
    [2.5, 0, 'round', 3],
    [0.3, 0, 'up', 1],
    [0.3, 0, 'down', 0],
    [3.141, 1, 'up', 3.2],
    [3.149, 1, 'down', 3.1],
    [3.1, 1, 'up', 3.1],
    [0.1 + 0.2, 1, 'up', 0.3],
    [0.1 + 0.2, 2, 'up', 0.3],
    [9.9999, 3, 'round', 10],
    [9.9991, 3, 'down', 9.999],
    [0.01, 2, 'down', 0.01],
    [100, 0, 'round', 100],
  ] as const)('%s at %i decimals, %s → %s', (amount, precision, rounding, expected) => {
    expect(roundFee(amount, precision, rounding)).toBe(expected);
  });

  it('refuses a non-finite amount', () => {
    expect(() => roundFee(Number.NaN, 2, 'round')).toThrow(RangeError);
  });

  it('counts the decimals written', () => {
    expect(decimalsOf(12)).toBe(0);
    expect(decimalsOf(0.01)).toBe(2);
    expect(decimalsOf(0.001)).toBe(3);
    expect(decimalsOf(3.14159)).toBe(5);
    // Binary noise is not a decimal: 0.1 + 0.2 is 0.3.
    expect(decimalsOf(0.1 + 0.2)).toBe(1);
  });
});
