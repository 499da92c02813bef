import { parseRaw, type ParseErrorKey, type ParseField, type ParseResult } from './parse';
import type { Gender, Grade } from './standard';

/**
 * The national physique data template (国家学生体质健康标准数据上报模板) used for score import and export (docs/product-rules.md#physique-results: score import):
 * identity columns, then one column per result. Columns are matched by header NAME, never by position, because
 * schools delete, reorder and decorate columns (units in brackets, full-width characters, traditional characters).
 */

export type IdentityKey = 'gradeNo' | 'classNo' | 'className' | 'regNo' | 'ethnicity' | 'name' | 'gender' | 'birthDate' | 'address';
/** Result columns; every key is a parse field of parse.ts, so values go through parseRaw and straight into scoreStudent. */
export type ResultKey = Extract<
  ParseField,
  'heightCm' | 'weightKg' | 'vitalCapacity' | 'run50m' | 'sitAndReach' | 'rope1min' | 'sitUp1min' | 'shuttle50x8' | 'pullUp' | 'standingLongJump' | 'run1000m' | 'run800m'
>;
export type NationalColumnKey = IdentityKey | ResultKey;

export interface NationalColumn {
  readonly key: NationalColumnKey;
  /** Header of the national template (zh_cn), written on export. */
  readonly header: string;
  /** Other spellings accepted on import (matched after normaliseHeader, like the header itself). */
  readonly aliases: readonly string[];
  readonly kind: 'identity' | 'result';
  /** A file without this column cannot be imported. */
  readonly required: boolean;
}

const identity = (key: IdentityKey, header: string, required: boolean, aliases: string[]): NationalColumn =>
  Object.freeze({ key, header, aliases: Object.freeze(aliases), kind: 'identity', required });
const result = (key: ResultKey, header: string, aliases: string[]): NationalColumn =>
  Object.freeze({ key, header, aliases: Object.freeze(aliases), kind: 'result', required: false });

/** Columns of the national template in template order. 学号 (school student number) is NOT the registration number. */
export const NATIONAL_COLUMNS: readonly NationalColumn[] = Object.freeze([
  identity('gradeNo', '年级编号', true, ['年级代码', '年级码', '年级号', '年级']),
  identity('classNo', '班级编号', true, ['班级代码', '班级号', '班号']),
  identity('className', '班级名称', false, ['班级', '班名']),
  identity('regNo', '学籍号', true, ['学籍编号', '学生学籍号', '全国学籍号', '学籍号码', '全国学籍号码']),
  identity('ethnicity', '民族代码', false, ['民族', '民族编号', '民族码']),
  identity('name', '姓名', true, ['学生姓名']),
  identity('gender', '性别', true, ['性别代码', '性别编号']),
  identity('birthDate', '出生日期', false, ['出生年月', '出生年月日', '生日']),
  identity('address', '家庭住址', false, ['家庭地址', '住址', '地址']),
  result('heightCm', '身高', []),
  result('weightKg', '体重', []),
  result('vitalCapacity', '肺活量', []),
  result('run50m', '50米跑', ['50米', '50米短跑']),
  result('sitAndReach', '坐位体前屈', []),
  result('rope1min', '一分钟跳绳', ['跳绳']),
  result('sitUp1min', '一分钟仰卧起坐', ['仰卧起坐']),
  result('shuttle50x8', '50米×8往返跑', ['50×8往返跑', '往返跑']),
  result('pullUp', '引体向上', []),
  result('standingLongJump', '立定跳远', []),
  result('run1000m', '1000米跑', ['1000米']),
  result('run800m', '800米跑', ['800米']),
]);

export const NATIONAL_COLUMN_KEYS: readonly NationalColumnKey[] = NATIONAL_COLUMNS.map((c) => c.key);
export const RESULT_KEYS: readonly ResultKey[] = NATIONAL_COLUMNS.filter((c) => c.kind === 'result').map((c) => c.key as ResultKey);

// Traditional characters that occur in the headers and ethnic group names, folded so zh_tw files map too.
const TRADITIONAL: Readonly<Record<string, string>> = {
  級: '级', 編: '编', 號: '号', 稱: '称', 碼: '码', 別: '别', 體: '体', 鐘: '钟', 繩: '绳', 臥: '卧', 遠: '远', 學: '学',
  漢: '汉', 維: '维', 爾: '尔', 壯: '壮', 鮮: '鲜', 滿: '满', 瑤: '瑶', 薩: '萨', 東: '东', 鄉: '乡', 納: '纳', 頗: '颇',
  達: '达', 錫: '锡', 烏: '乌', 羅: '罗', 溫: '温', 獨: '独', 龍: '龙', 倫: '伦', 門: '门', 諾: '诺', 歲: '岁', 齡: '龄',
};
const TRADITIONAL_RE = new RegExp(`[${Object.keys(TRADITIONAL).join('')}]`, 'g');
const foldTraditional = (s: string) => s.replace(TRADITIONAL_RE, (c) => TRADITIONAL[c]);

/** Bracketed decorations (units, notes): (秒), （cm）, [次], 【必填】, 〔…〕, <…>, 《…》. NFKC has already made full-width brackets ASCII. */
const BRACKETED = /[([【〔{<《][^)\]】〕}>》]*[)\]】〕}>》]/g;
/** Units written without brackets at the end of a header: 身高cm, 50米跑/秒. Tried only when the plain form is unknown. */
const BARE_UNIT = /(?:\/.*|cm|厘米|公分|kg|千克|公斤|ml|毫升|秒|s|次|个|分秒|分·秒|分\.秒)$/;

/** Canonical form of a header for matching: NFKC, traditional → simplified, no brackets, spaces, required marks; 1分钟 = 一分钟, 50米*8 = 50米×8, 公尺 = 米. */
export function normaliseHeader(value: unknown): string {
  if (value == null) return '';
  return foldTraditional(String(value).normalize('NFKC'))
    .replace(BRACKETED, '')
    .replace(/[\s\u200b\ufeff]+/g, '')
    .toLowerCase()
    .replace(/^[*★☆:：]+|[*★☆:：]+$/g, '')
    .replace(/公尺/g, '米')
    .replace(/(?<=[\d米m])[x*✕✖](?=\d)/g, '×')
    .replace(/^1分钟/, '一分钟');
}

const HEADER_INDEX: ReadonlyMap<string, NationalColumnKey> = (() => {
  const index = new Map<string, NationalColumnKey>();
  for (const c of NATIONAL_COLUMNS) {
    for (const name of [c.header, ...c.aliases]) {
      const n = normaliseHeader(name);
      const previous = index.get(n);
      if (previous && previous !== c.key) throw new Error(`national template: header ${name} is ambiguous`);
      index.set(n, c.key);
    }
  }
  return index;
})();

/** Key of a header cell, or null when it is not a national template column. */
export function headerKey(value: unknown): NationalColumnKey | null {
  const n = normaliseHeader(value);
  if (n === '') return null;
  return HEADER_INDEX.get(n) ?? HEADER_INDEX.get(n.replace(BARE_UNIT, '')) ?? null;
}

export interface HeaderMapping {
  /** Column index (0-based) of each recognised column; the first occurrence wins. */
  readonly columns: ReadonlyMap<NationalColumnKey, number>;
  /** Required columns the header row lacks, in template order. */
  readonly missing: NationalColumnKey[];
  /** Non-empty headers that are not template columns (kept, ignored). */
  readonly unknown: string[];
  /** Template columns whose header appears more than once, with every column index (0-based) it appears at; an import refuses them. */
  readonly duplicates: { readonly key: NationalColumnKey; readonly columns: readonly number[] }[];
  /** Result columns present, in file order: what parseTemplateRow reads. */
  readonly resultColumns: readonly (readonly [ResultKey, number])[];
}

/** Maps a header row to template columns by name (docs/product-rules.md#physique-results: score import). */
export function mapHeaders(headerRow: readonly unknown[]): HeaderMapping {
  const columns = new Map<NationalColumnKey, number>();
  const unknown: string[] = [];
  const duplicates: { key: NationalColumnKey; columns: number[] }[] = [];
  for (let i = 0; i < headerRow.length; i++) {
    const cell = headerRow[i];
    const key = headerKey(cell);
    if (key === null) {
      const text = cell == null ? '' : String(cell).trim();
      if (text !== '') unknown.push(text);
    } else if (columns.has(key)) {
      const dup = duplicates.find((d) => d.key === key);
      if (dup) dup.columns.push(i);
      else duplicates.push({ key, columns: [columns.get(key)!, i] });
    } else columns.set(key, i);
  }
  const missing = NATIONAL_COLUMNS.filter((c) => c.required && !columns.has(c.key)).map((c) => c.key);
  const resultColumns = [...columns]
    .filter((e): e is [ResultKey, number] => (RESULT_KEYS as readonly string[]).includes(e[0]))
    .sort((a, b) => a[1] - b[1]);
  return { columns, missing, unknown, duplicates, resultColumns };
}

/** Finds the header row among the first `maxScan` rows (files often start with a title row): the first row with every required column. */
export function findHeaderRow(rows: readonly (readonly unknown[])[], maxScan = 10): { index: number; mapping: HeaderMapping } | null {
  for (let i = 0; i < Math.min(rows.length, maxScan); i++) {
    const row = rows[i];
    if (!row || row.length === 0) continue;
    const mapping = mapHeaders(row);
    if (mapping.missing.length === 0) return { index: i, mapping };
  }
  return null;
}

/** National grade codes (年级编号): 11–16 primary 1–6, 21–23 junior 1–3, 31–33 senior 1–3, 41–44 university 1–4. */
const NATIONAL_GRADE_CODES: ReadonlyMap<number, Grade> = new Map<number, Grade>([
  [11, 1], [12, 2], [13, 3], [14, 4], [15, 5], [16, 6],
  [21, 7], [22, 8], [23, 9],
  [31, 10], [32, 11], [33, 12],
  [41, 13], [42, 14], [43, 15], [44, 16],
]);
const GRADE_TO_CODE: ReadonlyMap<Grade, number> = new Map([...NATIONAL_GRADE_CODES].map(([code, grade]) => [grade, code]));

/** Our grade 1–16 of a national grade code (11–16, 21–23, 31–33, 41–44; number or digit string); null when unknown. */
export function gradeFromNationalCode(code: unknown): Grade | null {
  const n = typeof code === 'number' ? code : typeof code === 'string' && /^\s*\d{2}\s*$/.test(code.normalize('NFKC')) ? Number(code.normalize('NFKC')) : NaN;
  return NATIONAL_GRADE_CODES.get(n) ?? null;
}

/** National grade code of our grade 1–16 (for export). */
export function nationalCodeFromGrade(grade: Grade): number {
  const code = GRADE_TO_CODE.get(grade);
  if (code === undefined) throw new RangeError(`grade must be an integer 1-16, got ${String(grade)}`);
  return code;
}

/** Ethnic groups in the order of GB/T 3304 (code = index + 1); 97 other, 98 foreign origin. */
const ETHNIC_GROUPS = [
  '汉', '蒙古', '回', '藏', '维吾尔', '苗', '彝', '壮', '布依', '朝鲜', '满', '侗', '瑶', '白', '土家', '哈尼', '哈萨克', '傣', '黎',
  '傈僳', '佤', '畲', '高山', '拉祜', '水', '东乡', '纳西', '景颇', '柯尔克孜', '土', '达斡尔', '仫佬', '羌', '布朗', '撒拉', '毛南',
  '仡佬', '锡伯', '阿昌', '普米', '塔吉克', '怒', '乌孜别克', '俄罗斯', '鄂温克', '德昂', '保安', '裕固', '京', '塔塔尔', '独龙',
  '鄂伦春', '赫哲', '门巴', '珞巴', '基诺',
] as const;
const ETHNIC_CODE_BY_NAME: ReadonlyMap<string, string> = new Map([
  ...ETHNIC_GROUPS.map((name, i): [string, string] => [name, String(i + 1).padStart(2, '0')]),
  ['其他', '97'],
  ['外国血统中国籍人士', '98'],
  ['外国血统', '98'],
]);

/** Two-digit national ethnicity code (民族代码, GB/T 3304) from a code (1, '01') or a name (汉族, 漢族, 汉); null when unknown. */
export function ethnicityCode(value: unknown): string | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.normalize('NFKC').trim() : '';
  if (/^\d{1,2}$/.test(text)) {
    const n = Number(text);
    return (n >= 1 && n <= ETHNIC_GROUPS.length) || n === 97 || n === 98 ? String(n).padStart(2, '0') : null;
  }
  const name = foldTraditional(text).replace(/\s+/g, '');
  return ETHNIC_CODE_BY_NAME.get(name) ?? ETHNIC_CODE_BY_NAME.get(name.replace(/族$/, '')) ?? null;
}

/** The name of a national ethnicity code ('01' → '汉族'), or null for an unknown code. */
export function ethnicityName(code: string): string | null {
  const n = Number(code);
  if (n >= 1 && n <= ETHNIC_GROUPS.length) return `${ETHNIC_GROUPS[n - 1]}族`;
  if (n === 97) return '其他';
  if (n === 98) return '外国血统中国籍人士';
  return null;
}

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30); // serial 61 = 1900-03-01; Excel's fictitious 1900-02-29 (serial 60) is rejected
const EPOCH_1904 = Date.UTC(1904, 0, 1);
const MIN_YEAR = 1900;
const MAX_YEAR = 2100;

function isoDate(year: number, month: number, day: number): string | null {
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null; // 2010-02-30
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const DATE_YMD = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?(?:[ t]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?z?)?$/i;
const DATE_COMPACT = /^(\d{4})(\d{2})(\d{2})$/;

/**
 * A date cell as 'YYYY-MM-DD' (docs/product-rules.md#physique-results: score import): Excel serial numbers (1900 or 1904 system), JS Dates, 'YYYY-MM-DD', 'YYYY/M/D',
 * 'YYYY.M.D', 'YYYY年M月D日', 'YYYYMMDD' (text or number), an optional time part ignored. Null when it is none of these.
 */
export function parseTemplateDate(value: unknown, date1904 = false): string | null {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    return isoDate(value.getFullYear(), value.getMonth() + 1, value.getDate());
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    if (Number.isInteger(value) && value >= 10_000_000) return parseTemplateDate(String(value), date1904);
    const serial = Math.floor(value);
    if (serial < (date1904 ? 0 : 61)) return null;
    const d = new Date((date1904 ? EPOCH_1904 : EPOCH_1900) + serial * DAY_MS);
    return isoDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
  }
  if (typeof value !== 'string') return null;
  const s = value.normalize('NFKC').trim();
  const m = DATE_YMD.exec(s) ?? DATE_COMPACT.exec(s);
  return m ? isoDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

export type TemplateErrorKey =
  | ParseErrorKey
  | 'physique:import.required'
  | 'physique:import.tooLong'
  | 'physique:import.invalidGradeCode'
  | 'physique:import.invalidGender'
  | 'physique:import.invalidRegNo'
  | 'physique:import.regNoAsNumber'
  | 'physique:import.invalidEthnicity'
  | 'physique:import.invalidDate'
  | 'physique:import.invalidText';

export interface TemplateFieldError {
  field: NationalColumnKey;
  key: TemplateErrorKey;
  params?: Record<string, string | number>;
}

export type NationalResults = Partial<Record<ResultKey, number>>;

export interface NationalTemplateRow {
  /** Excel row number (1-based) the row came from. */
  rowNumber: number;
  /** National grade code as written (11–44). */
  gradeNo: number;
  /** Our grade 1–16. */
  grade: Grade;
  classNo: string;
  className: string | null;
  /** 学籍号, upper-cased, no spaces. */
  regNo: string;
  /** Two-digit national ethnicity code. */
  ethnicity: string | null;
  name: string;
  gender: Gender;
  /** YYYY-MM-DD. */
  birthDate: string | null;
  address: string | null;
  /** Parsed results in the units of parse.ts (cm, kg, ml, s, count); an empty cell is absent (not tested). Assignable to StudentResults. */
  results: NationalResults;
}

export type ParsedTemplateRow =
  | { ok: true; row: NationalTemplateRow }
  | { ok: false; rowNumber: number; errors: TemplateFieldError[] };

export interface ParseTemplateRowOptions {
  /** The workbook uses the 1904 date system (Mac Excel): serial dates count from 1904-01-01. */
  date1904?: boolean;
}

/** Text lengths accepted for the identity columns. */
export const TEMPLATE_TEXT_MAX = { classNo: 20, className: 50, regNo: 30, name: 50, address: 200 } as const;
const REG_NO = /^[A-Z0-9]+$/;
/** Results the national template writes as minutes.seconds (3.40 = 3'40"). */
const MIN_SEC_KEYS: ReadonlySet<ResultKey> = new Set<ResultKey>(['shuttle50x8', 'run1000m', 'run800m']);
/** A whole minute in minutes.seconds loses its decimals in Excel (4.00 → 4); no run or shuttle lasts under 20 s, so 1–19 are minutes. */
const isWholeMinutes = (input: string | number) => {
  const n = typeof input === 'number' ? input : /^\d{1,2}$/.test(input) ? Number(input) : NaN;
  return Number.isInteger(n) && n > 0 && n < 20;
};
/** Marks people type for "no result"; treated like an empty cell. */
const NO_RESULT_MARKS = new Set(['-', '--', '/', '—', '——', '\\']);
// Invisible characters that ride along from copy-paste (zero-width spaces, BOM); trim() already removes no-break spaces.
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/g;

function cellText(value: unknown): string {
  if (value == null) return '';
  if (typeof value === 'string') return value.replace(INVISIBLE, '').trim();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  return '';
}

/** Preview of a bad value for a message: short, single line. */
function shown(value: unknown): string {
  const text = cellText(value).replace(/\s+/g, ' ');
  return text.length > 20 ? `${text.slice(0, 20)}…` : text;
}

/** True when a row has no non-blank cell (trailing formatted rows of a sheet); importers skip such rows. */
export function isBlankRow(cells: readonly unknown[]): boolean {
  for (const c of cells) if (cellText(c) !== '') return false;
  return true;
}

// A sheet repeats the same few thousand values per column (heights to 0.1 cm, counts, times), so parse results are
// memoised per column: parseRaw stays the one rule, and an import no longer spends most of its time in it.
const PARSE_CACHE_MAX = 8192;
const parseCache = new Map<ResultKey, Map<string | number, ParseResult>>();
function cachedParse(key: ResultKey, input: string | number): ParseResult {
  let cache = parseCache.get(key);
  if (!cache) parseCache.set(key, (cache = new Map()));
  let result = cache.get(input);
  if (!result) {
    if (cache.size >= PARSE_CACHE_MAX) cache.clear();
    result = parseRaw(key, input);
    cache.set(input, result);
  }
  return result;
}

/** Removes binary noise of spreadsheet arithmetic (3.4000000000000004) so min.sec values keep their two decimals. */
const cleanNumber = (x: number) => Math.round(x * 1e6) / 1e6;

function parseGender(value: unknown): Gender | null {
  const s = cellText(value).normalize('NFKC').toLowerCase();
  if (s === '1' || s === '男' || s === '男性' || s === 'm' || s === 'male') return 'male';
  if (s === '2' || s === '女' || s === '女性' || s === 'f' || s === 'female') return 'female';
  return null;
}

type TextKey = IdentityKey & keyof typeof TEMPLATE_TEXT_MAX;

function cellAt(cells: readonly unknown[], cols: ReadonlyMap<NationalColumnKey, number>, key: NationalColumnKey): unknown {
  const i = cols.get(key);
  return i === undefined ? undefined : cells[i];
}

/** A free-text identity cell, trimmed with inner runs of spaces collapsed; null (and an error when required or too long) otherwise. */
function textField(raw: unknown, key: TextKey, required: boolean, errors: TemplateFieldError[]): string | null {
  if (raw instanceof Date) {
    errors.push({ field: key, key: 'physique:import.invalidText' });
    return null;
  }
  const t = cellText(raw).replace(/\s+/g, ' ');
  if (t === '') {
    if (required) errors.push({ field: key, key: 'physique:import.required' });
    return null;
  }
  const max = TEMPLATE_TEXT_MAX[key];
  if (t.length > max) {
    errors.push({ field: key, key: 'physique:import.tooLong', params: { max } });
    return null;
  }
  return t;
}

/**
 * Validates and converts one data row of the national template (docs/product-rules.md#physique-results: score import). Identity fields are checked, result cells
 * go through parseRaw: an empty cell (or '-', '/') means not tested and is no error; anything unparsable is.
 * Every problem of the row is reported, not only the first.
 */
export function parseTemplateRow(cells: readonly unknown[], mapping: HeaderMapping, rowNumber: number, options: ParseTemplateRowOptions = {}): ParsedTemplateRow {
  const errors: TemplateFieldError[] = [];
  const cols = mapping.columns;
  const cell = (key: NationalColumnKey): unknown => cellAt(cells, cols, key);
  const text = (key: TextKey, required: boolean) => textField(cellAt(cells, cols, key), key, required, errors);

  // 年级编号
  let grade: Grade | null = null;
  let gradeNo = 0;
  const gradeCell = cell('gradeNo');
  if (cellText(gradeCell) === '') errors.push({ field: 'gradeNo', key: 'physique:import.required' });
  else {
    grade = gradeFromNationalCode(typeof gradeCell === 'string' ? gradeCell.trim() : gradeCell);
    if (grade === null) errors.push({ field: 'gradeNo', key: 'physique:import.invalidGradeCode', params: { value: shown(gradeCell) } });
    else gradeNo = nationalCodeFromGrade(grade);
  }

  const classNo = text('classNo', true);
  const className = text('className', false);

  // 学籍号: Excel turns long digit strings into numbers and loses digits beyond 15 significant ones.
  let regNo: string | null = null;
  const regCell = cell('regNo');
  if (typeof regCell === 'number' && !Number.isSafeInteger(regCell)) errors.push({ field: 'regNo', key: 'physique:import.regNoAsNumber' });
  else {
    const t = cellText(regCell).normalize('NFKC').replace(/\s+/g, '').toUpperCase();
    if (t === '') errors.push({ field: 'regNo', key: 'physique:import.required' });
    else if (t.length > TEMPLATE_TEXT_MAX.regNo) errors.push({ field: 'regNo', key: 'physique:import.tooLong', params: { max: TEMPLATE_TEXT_MAX.regNo } });
    else if (!REG_NO.test(t)) errors.push({ field: 'regNo', key: 'physique:import.invalidRegNo', params: { value: shown(regCell) } });
    else regNo = t;
  }

  let ethnicity: string | null = null;
  const ethnicCell = cell('ethnicity');
  if (cellText(ethnicCell) !== '') {
    ethnicity = ethnicityCode(typeof ethnicCell === 'string' ? ethnicCell.trim() : ethnicCell);
    if (ethnicity === null) errors.push({ field: 'ethnicity', key: 'physique:import.invalidEthnicity', params: { value: shown(ethnicCell) } });
  }

  const name = text('name', true);

  let gender: Gender | null = null;
  const genderCell = cell('gender');
  if (cellText(genderCell) === '') errors.push({ field: 'gender', key: 'physique:import.required' });
  else {
    gender = parseGender(genderCell);
    if (gender === null) errors.push({ field: 'gender', key: 'physique:import.invalidGender', params: { value: shown(genderCell) } });
  }

  let birthDate: string | null = null;
  const birthCell = cell('birthDate');
  if (cellText(birthCell) !== '') {
    birthDate = parseTemplateDate(birthCell, options.date1904);
    if (birthDate === null) errors.push({ field: 'birthDate', key: 'physique:import.invalidDate', params: { value: shown(birthCell) } });
  }

  const address = text('address', false);

  const results: NationalResults = {};
  for (const [key, index] of mapping.resultColumns) {
    const raw = cells[index];
    if (raw == null) continue;
    let input: string | number;
    if (typeof raw === 'number') input = cleanNumber(raw);
    else {
      input = cellText(raw);
      if (input === '' || NO_RESULT_MARKS.has(input.normalize('NFKC'))) continue;
    }
    if (MIN_SEC_KEYS.has(key) && isWholeMinutes(input)) input = `${Number(input)}.00`;
    const parsed = cachedParse(key, input);
    if (parsed.ok) results[key] = parsed.value;
    else errors.push(parsed.params ? { field: key, key: parsed.error, params: { ...parsed.params } } : { field: key, key: parsed.error });
  }

  if (errors.length > 0 || grade === null || gender === null || regNo === null || name === null || classNo === null) {
    return { ok: false, rowNumber, errors };
  }
  return { ok: true, row: { rowNumber, gradeNo, grade, classNo, className, regNo, ethnicity, name, gender, birthDate, address, results } };
}

/** i18next-style translate function (i18next's `t` fits). */
export type Translate = (key: string, options: Record<string, unknown>) => string;
// Values come from the uploaded file and are written into a spreadsheet, not HTML: never HTML-escape them.
const RAW = { interpolation: { escapeValue: false } } as const;

/** Label of a template column in the reader's language (zh: the national header). */
export function columnLabel(t: Translate, key: NationalColumnKey): string {
  return t(`physique:template.column.${key}`, RAW);
}

/** One failure reason as the product words it: "第N行，〈字段〉：…" (docs/product-rules.md#physique-results: score import; docs/product-rules.md#import-files). */
export function formatRowError(t: Translate, rowNumber: number, err: TemplateFieldError): string {
  const reason = t(err.key, { ...err.params, ...RAW });
  return t('physique:import.rowError', { row: rowNumber, field: columnLabel(t, err.field), reason, ...RAW });
}

/** Every failure reason of a row joined into one cell of the failure workbook. */
export function formatRowErrors(t: Translate, rowNumber: number, errors: readonly TemplateFieldError[]): string {
  return errors.map((e) => formatRowError(t, rowNumber, e)).join(t('physique:import.errorSeparator', RAW));
}
