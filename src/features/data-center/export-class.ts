import type { TFunction } from 'i18next';
import type { ClassView } from '@/domain/data-center/types';
import type { ItemKey } from '@/domain/physique/standard';
import { saveFile } from '@/lib/api-client';
import { itemLabel, periodLabel } from './format';
import { formatRawValue } from './format-raw';

/** The class table as rows of cells: one header row, then one row per student (every item's raw, score, level). */
export function classSheetRows(t: TFunction, view: ClassView, items: readonly ItemKey[]): (string | number | null)[][] {
  const header = [
    t('dashboard:student.studentNo'),
    t('dashboard:student.name'),
    t('dashboard:student.gender'),
    t('physique:field.heightCm'),
    t('physique:field.weightKg'),
    ...items.flatMap((item) => [
      t('dashboard:classTable.rawOf', { item: itemLabel(t, item) }),
      t('dashboard:classTable.scoreOf', { item: itemLabel(t, item) }),
      t('dashboard:classTable.levelOf', { item: itemLabel(t, item) }),
    ]),
    t('physique:score.standardScore'),
    t('physique:score.bonus'),
    t('physique:score.total'),
    t('physique:score.level'),
    t('dashboard:classTable.change'),
  ];
  const level = (l: string | null | undefined, item?: ItemKey) =>
    l ? (item === 'bmi' ? t(`physique:bmiLevel.${l}`) : t(`physique:level.${l}`)) : null;
  const rows = view.students.map((s) => [
    s.studentNo,
    s.name,
    t(`physique:gender.${s.gender}`),
    s.heightCm,
    s.weightKg,
    ...items.flatMap((item) => {
      const r = s.items[item];
      return [r?.raw == null ? null : formatRawValue(item, r.raw), r?.score ?? null, level(r?.level, item)];
    }),
    s.standardScore,
    s.bonus,
    s.total,
    level(s.level),
    s.change,
  ]);
  return [header, ...rows];
}

/**
 * Saves the class table as .xlsx. The spreadsheet library is imported only here, on demand, so no screen
 * carries it until someone exports (docs/product-rules.md#data-centre: class table with 100,000 rows).
 */
export async function exportClassXlsx(t: TFunction, view: ClassView, items: readonly ItemKey[]): Promise<void> {
  const XLSX = await import('xlsx');
  const sheet = XLSX.utils.aoa_to_sheet(classSheetRows(t, view, items));
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, t('dashboard:classTable.sheetName'));
  const data = XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer;
  const blob = new Blob([data], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  const period = periodLabel(t, view.period.academicYear, view.period.semesterCode);
  const name = `${view.class.name}_${period}.xlsx`.replace(/[\\/:*?"<>|\s]+/g, '_');
  saveFile({ blob, fileName: name });
}
