import { enumTable } from '../presentation';
/** Fee precision: decimals kept, integer (0) to three decimals (docs/product-rules.md#limits). */
export const FEE_PRECISIONS = [0, 1, 2, 3] as const;
export type FeePrecision = (typeof FEE_PRECISIONS)[number];
/** Fee rounding (docs/product-rules.md#limits): round half up, round up (towards +∞), round down (towards 0). */
export const FEE_ROUNDINGS = ['round', 'up', 'down'] as const;
export const FEE_ROUNDING_TABLE = enumTable(FEE_ROUNDINGS, (r) => `testPlans:feeRounding.${r}`);
export type FeeRounding = (typeof FEE_ROUNDINGS)[number];
export const DEFAULT_FEE_PRECISION: FeePrecision = 2;
export const DEFAULT_FEE_ROUNDING: FeeRounding = 'round';

/**
 * A fee in CNY rounded to `precision` decimals (docs/product-rules.md#limits). Works on the decimal value as written,
 * so 1.005 rounds to 1.01 and 0.1 + 0.2 does not round up to 0.31.
 */
export function roundFee(amount: number, precision: FeePrecision, rounding: FeeRounding): number {
  if (!Number.isFinite(amount)) throw new RangeError(`fee must be a finite number, got ${String(amount)}`);
  const factor = 10 ** precision;
  let scaled = amount * factor;
  // Binary floating point puts 1.005 × 100 at 100.49999…: snap values within rounding noise of an integer or a half.
  const snap = (target: number) => (Math.abs(scaled - target) <= 1e-9 * Math.max(1, Math.abs(scaled)) ? target : scaled);
  scaled = snap(Math.round(scaled));
  scaled = snap(Math.floor(scaled) + 0.5);
  const sign = scaled < 0 ? -1 : 1;
  const abs = Math.abs(scaled);
  const whole = rounding === 'up' ? (sign > 0 ? Math.ceil(abs) : Math.floor(abs)) : rounding === 'down' ? Math.floor(abs) : Math.floor(abs + 0.5);
  return Number(((sign * whole) / factor).toFixed(precision)) || 0;
}

/** Decimals written in a number (0.125 → 3), up to 10. */
export function decimalsOf(amount: number): number {
  for (let d = 0; d <= 10; d++) {
    const scaled = amount * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) <= 1e-9 * Math.max(1, Math.abs(scaled))) return d;
  }
  return 11;
}
