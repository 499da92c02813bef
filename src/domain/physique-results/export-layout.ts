import { NATIONAL_COLUMNS, nationalCodeFromGrade, type NationalColumnKey, type ResultKey } from '../physique/national-template';
import { isGrade, type ItemKey } from '../physique/standard';
import type { ResultRow } from './types';
import { isBonusItem } from './wide-row';

/**
 * Column layouts of the physique exports (docs/product-rules.md#physique-results: score search): the national score export (score search) and the national
 * upload file (results, editUpReport). Pure: the server writes the cells, the browser may preview the headers.
 */

/** i18next-style translate function (the server passes the request's `t`). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Identity fields the national files carry beyond a result row. */
export interface NationalIdentity {
  /** National class number (班级编号). */
  classNo: string | null;
  /** Two-digit ethnicity code. */
  ethnicity: string | null;
  birthDate: string | null;
  address: string | null;
}
export type ExportRow = ResultRow & NationalIdentity;

export interface ExportColumn {
  header: string;
  value(row: ExportRow): string | number | null;
  /** Width in characters. */
  width: number;
  /** Written as text (long digit strings such as 学籍号). */
  text?: boolean;
}

/** Items whose national template value is minutes.seconds (3.40 = 3'40"). */
const LONG_RUNS: ReadonlySet<string> = new Set(['shuttle50x8', 'run1000m', 'run800m']);

/**
 * A raw value as written in a file: long runs as the national template writes them ('template': "3.40") or as people
 * read them ('display': 3'40"); other values as numbers. Null stays null.
 */
export function formatRaw(field: ResultKey | ItemKey, value: number | null | undefined, style: 'template' | 'display'): string | number | null {
  if (value == null) return null;
  if (!LONG_RUNS.has(field)) return value;
  const whole = Math.round(value);
  const m = Math.floor(whole / 60);
  const s = String(whole % 60).padStart(2, '0');
  return style === 'template' ? `${m}.${s}` : `${m}'${s}"`;
}

const nationalGrade = (gradeNo: number): number | null => (isGrade(gradeNo) ? nationalCodeFromGrade(gradeNo) : null);
const resultValue = (row: ExportRow, key: ResultKey): number | null =>
  key === 'heightCm' ? row.heightCm : key === 'weightKg' ? row.weightKg : (row.items[key]?.raw ?? null);

const NATIONAL_HEADER = new Map(NATIONAL_COLUMNS.map((c) => [c.key, c.header]));
const identityValue: Record<Exclude<NationalColumnKey, ResultKey>, (row: ExportRow) => string | number | null> = {
  gradeNo: (r) => nationalGrade(r.gradeNo),
  classNo: (r) => r.classNo,
  className: (r) => r.className,
  regNo: (r) => r.regNo,
  ethnicity: (r) => r.ethnicity,
  name: (r) => r.name,
  gender: (r) => (r.gender === 'male' ? 1 : 2),
  birthDate: (r) => r.birthDate,
  address: (r) => r.address,
};
const IDENTITY_WIDTH: Partial<Record<NationalColumnKey, number>> = { regNo: 22, className: 14, classNo: 12, birthDate: 12, address: 24 };

/**
 * The national upload file (国家学生体质健康数据上报): the template's columns in template order with the zh_cn national
 * headers, raw values (long runs as minutes.seconds), gender 1/2 and national grade codes (docs/product-rules.md#physique-results).
 */
export function uploadColumns(): ExportColumn[] {
  return NATIONAL_COLUMNS.map((c): ExportColumn => {
    if (c.kind === 'identity') {
      const key = c.key as Exclude<NationalColumnKey, ResultKey>;
      return { header: c.header, value: identityValue[key], width: IDENTITY_WIDTH[key] ?? 8, text: key === 'regNo' || key === 'classNo' };
    }
    const key = c.key as ResultKey;
    // The template has no exemption column: an approved 免测 student's row goes up with its identity and blank
    // results, which the national system reads as untested (docs/product-rules.md#physique-year, "Exemptions").
    return { header: c.header, value: (r) => (r.exemption === 'exempt' ? null : formatRaw(key, resultValue(r, key), 'template')), width: 10 };
  });
}

/** Item order of the score export: the template's result columns with BMI after weight. */
const SCORE_EXPORT_ITEMS: readonly ItemKey[] = [
  'bmi',
  'vitalCapacity',
  'run50m',
  'sitAndReach',
  'rope1min',
  'sitUp1min',
  'shuttle50x8',
  'pullUp',
  'standingLongJump',
  'run1000m',
  'run800m',
];

/**
 * The national score-export layout (docs/product-rules.md#physique-results: score search): identity columns; height and weight; after each item
 * its value, 评分 and 等级, and 附加分 where the item can earn bonus; then 标准分, 附加分, 总分, 总分等级 and the
 * validity flag. Headers in the reader's language (`t`, namespaces scores and physique).
 */
export function scoreExportColumns(t: Translate): ExportColumn[] {
  const header = (key: NationalColumnKey) => t(`physique:template.column.${key}`) || (NATIONAL_HEADER.get(key) ?? key);
  const level = (value: string | null | undefined, bmi: boolean) => (value ? t(`physique:${bmi ? 'bmiLevel' : 'level'}.${value}`) : null);
  const cols: ExportColumn[] = [
    { header: header('gradeNo'), value: identityValue.gradeNo, width: 8 },
    { header: header('classNo'), value: identityValue.classNo, width: 12, text: true },
    { header: header('className'), value: identityValue.className, width: 14 },
    { header: header('regNo'), value: identityValue.regNo, width: 22, text: true },
    { header: header('ethnicity'), value: identityValue.ethnicity, width: 8 },
    { header: header('name'), value: identityValue.name, width: 10 },
    { header: header('gender'), value: (r) => t(`physique:gender.${r.gender}`), width: 6 },
    { header: header('birthDate'), value: identityValue.birthDate, width: 12 },
    { header: t('physiqueResults:export.plan'), value: (r) => r.planName, width: 16 },
    { header: t('physiqueResults:export.testedOn'), value: (r) => r.testedOn, width: 12 },
    // An approved 免测/缓测 of the plan's school year (docs/product-rules.md#physique-year, "Exemptions").
    { header: t('exemptions:exportColumn'), value: (r) => (r.exemption ? t(`exemptions:kind.${r.exemption}`) : null), width: 8 },
    { header: header('heightCm'), value: (r) => r.heightCm, width: 8 },
    { header: header('weightKg'), value: (r) => r.weightKg, width: 8 },
  ];
  for (const item of SCORE_EXPORT_ITEMS) {
    const name = t(`physique:item.${item}`);
    const bmi = item === 'bmi';
    cols.push(
      { header: name, value: (r) => formatRaw(item, r.items[item]?.raw, 'display'), width: 10 },
      { header: t('physiqueResults:export.itemScore', { item: name }), value: (r) => r.items[item]?.score ?? null, width: 8 },
      { header: t('physiqueResults:export.itemLevel', { item: name }), value: (r) => level(r.items[item]?.level, bmi), width: 8 },
    );
    if (isBonusItem(item)) cols.push({ header: t('physiqueResults:export.itemBonus', { item: name }), value: (r) => r.items[item]?.bonus ?? null, width: 8 });
  }
  cols.push(
    { header: t('physiqueResults:export.standardScore'), value: (r) => r.standardScore, width: 8 },
    { header: t('physiqueResults:export.bonus'), value: (r) => r.bonus, width: 8 },
    { header: t('physiqueResults:export.total'), value: (r) => r.total, width: 8 },
    { header: t('physiqueResults:export.totalLevel'), value: (r) => level(r.level, false), width: 8 },
    { header: t('physiqueResults:export.validity'), value: (r) => t(r.invalid ? 'physiqueResults:export.invalid' : 'physiqueResults:export.valid'), width: 8 },
  );
  return cols;
}

/** Header row and data rows of a layout, ready for the xlsx writer. */
export function layoutRows(columns: readonly ExportColumn[], rows: readonly ExportRow[]): (string | number | null)[][] {
  const out: (string | number | null)[][] = [columns.map((c) => c.header)];
  for (const row of rows) out.push(columns.map((c) => c.value(row)));
  return out;
}
