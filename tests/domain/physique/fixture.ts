import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Gender, ItemKey } from '@/domain/physique/standard';

/** Verbatim copy of the cross-checked national standard tables (2014 revision) the product was built from: the engine's compact data is checked against it. */
export interface SourceRow {
  score: number;
  threshold: number;
}
export interface SourceBand {
  min?: number;
  max?: number;
  score: number;
}
export interface SourceItem {
  weight: number;
  lowerIsBetter?: boolean;
  rows?: SourceRow[];
  blankScores?: number[];
  bands?: Record<'normal' | 'lowWeight' | 'overweight' | 'obese', SourceBand>;
  bonus?: { maxBonus: number; rows: { bonus: number; threshold: number }[] };
}
export interface SourceGrade {
  grade: number;
  stage: string;
  tableColumn: string;
  male: { items: Partial<Record<ItemKey, SourceItem>> };
  female: { items: Partial<Record<ItemKey, SourceItem>> };
}
export interface SourceStandard {
  scoreLevels: number[];
  items: Record<ItemKey, { unit: string; lowerIsBetter?: boolean; resolution: number }>;
  bonusScales: Record<string, { maxBonus: number; steps: { bonus: number; extra: number }[] }>;
  scoring: { standardMax: number; bonusMax: number; totalMax: number };
  grades: SourceGrade[];
}

export const SOURCE = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/physique-standard-2014.json'), 'utf8')) as SourceStandard;

/** Every (grade, gender, item, source entry) of the source file. */
export function* sourceTables(): Generator<{ grade: number; gender: Gender; item: ItemKey; src: SourceItem }> {
  for (const g of SOURCE.grades)
    for (const gender of ['male', 'female'] as const)
      for (const [item, src] of Object.entries(g[gender].items) as [ItemKey, SourceItem][]) yield { grade: g.grade, gender, item, src };
}
