import { z } from 'zod';
import '../fields';
import type { RowUpdate } from '../people/import-updates';
import type { SchoolFamily } from '../menus/access';

/**
 * The class workbook (docs/product-rules.md#class-import): the columns of the export, the template and the import, so an
 * export can be filled in and imported again. Headers are Chinese whatever the language, as in the national template;
 * the import finds its columns by header, in any order, and ignores the others (人数 of the export).
 */

export type ClassColumnKey = 'gradeNo' | 'enrolYear' | 'major' | 'code' | 'name' | 'classNo' | 'headTeacher' | 'peTeacher';

export interface ClassColumn {
  key: ClassColumnKey;
  header: string;
  /** Only schools (k12) or only universities (gx) have the column. */
  only?: SchoolFamily;
  required?: boolean;
}

export const CLASS_COLUMNS: readonly ClassColumn[] = [
  { key: 'gradeNo', header: '年级', only: 'k12', required: true },
  { key: 'enrolYear', header: '入学年份', required: true },
  { key: 'major', header: '专业', only: 'gx', required: true },
  { key: 'code', header: '班级编号', required: true },
  { key: 'name', header: '班级名称', required: true },
  { key: 'classNo', header: '班号' },
  { key: 'headTeacher', header: '班主任' },
  { key: 'peTeacher', header: '体育老师' },
];

/** The export's extra column after the workbook columns. */
export const CLASS_SIZE_HEADER = '人数';

/** Rows one import takes: a school has tens of classes, a university a few hundred. */
export const CLASS_IMPORT_MAX_ROWS = 2000;

export const classColumns = (family: SchoolFamily): readonly ClassColumn[] => CLASS_COLUMNS.filter((c) => !c.only || c.only === family);

/** Text of a cell as typed: numbers stored as numbers or as text read the same ('3', 3, ' 3 '). */
export function cellText(v: unknown): string {
  if (v == null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  return String(v).trim();
}

/** Largest class workbook accepted (a few hundred rows take a few tens of KB). */
export const CLASS_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/** POST …/org/class/import: `?dryRun=1` answers what the import would do and writes nothing. */
export const classImportQuery = z.object({ dryRun: z.enum(['0', '1']).optional() });

/**
 * What a class import's dry run answers (`POST …/import?dryRun=1`, docs/product-rules.md#class-import): counts, the
 * first refused rows and every update of an existing class (docs/product-rules.md#import-updates).
 */
export interface ClassImportPreview {
  rows: number;
  create: number;
  update: number;
  unchanged: number;
  rejected: number;
  failures: { row: number; reason: string }[];
  updates: RowUpdate[];
}
