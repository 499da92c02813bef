import '../fields';

/**
 * The conversion table's import file (docs/product-rules.md#physique-year: 中考体育 conversion): one step a row, in
 * ascending order of threshold; the table's name, stage, year, basis and full mark are chosen in the import dialog
 * (conversionHeadSchema), so one file is one new version.
 */
export type ConversionColumnKey = 'min' | 'points';
// The shape of the kit's ImportColumn (server/lib/import-rows.ts); the domain does not import the server.
export const CONVERSION_COLUMNS: readonly { key: ConversionColumnKey; header: string; aliases?: readonly string[]; required?: boolean }[] = [
  { key: 'min', header: '分数线', aliases: ['最低分', '成绩不低于'], required: true },
  { key: 'points', header: '换算分', aliases: ['中考分', '得分'], required: true },
];
export const CONVERSION_IMPORT_MAX_BYTES = 512 * 1024;
