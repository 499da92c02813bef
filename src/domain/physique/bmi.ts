import { roundTenth } from './level';
import type { BmiBand, BmiTable } from './standard';

/** BMI in kg/m² from height (cm) and weight (kg), rounded half up to one decimal; null when either is missing or not positive. */
export function bmiFromHeightWeight(heightCm: number | null | undefined, weightKg: number | null | undefined): number | null {
  if (heightCm == null || weightKg == null || !(heightCm > 0) || !(weightKg > 0) || !Number.isFinite(heightCm) || !Number.isFinite(weightKg)) return null;
  return roundTenth((weightKg * 10_000) / (heightCm * heightCm));
}

/** Band of a BMI already rounded to one decimal; bands are contiguous at that resolution (data file, items.bmi.bands). */
export function bmiBand(table: BmiTable, bmi: number): BmiBand {
  if (bmi < table.normalMin) return 'lowWeight';
  if (bmi < table.overweightMin) return 'normal';
  if (bmi < table.obeseMin) return 'overweight';
  return 'obese';
}
