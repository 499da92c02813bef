import { ethnicityCode, ethnicityName, parseTemplateDate } from '../physique/national-template';
import { PARENT_RELATIONS, type ParentRelation } from './parents';
import { CERTIFICATE_TYPES, type CertificateType } from './id-card';
import type { Gender } from './staff';
import { z } from 'zod';
import { rowUpdateSchema } from './import-updates';

/**
 * The people workbooks (docs/product-rules.md#people-import): the columns of the templates, the imports and the
 * exports of students (with their parents), staff and the management organisation's accounts. Headers are Chinese
 * whatever the language; an import finds its columns by header or alias, in any order, after folding full-width
 * characters and spaces (NFKC), and ignores the others.
 */

export type PeopleImportKind = 'student' | 'staff' | 'user';

export interface PeopleColumn<K extends string = string> {
  key: K;
  header: string;
  aliases?: readonly string[];
  required?: boolean;
  /** Kept as text in the workbooks (long digit strings). */
  text?: boolean;
  /** The template offers a drop-down list of these values. */
  list?: 'gender' | 'ethnicity' | 'grade' | 'class' | 'relation' | 'role' | 'certificate';
  width?: number;
}

export type StudentColumnKey =
  | 'name'
  | 'regNo'
  | 'studentNo'
  | 'gender'
  | 'birthDate'
  | 'ethnicity'
  | 'grade'
  | 'className'
  | 'parentName'
  | 'parentMobile'
  | 'parentRelation'
  | 'parentGender'
  | 'parent2Name'
  | 'parent2Mobile'
  | 'parent2Relation'
  | 'parent2Gender';

export const STUDENT_COLUMNS: readonly PeopleColumn<StudentColumnKey>[] = [
  { key: 'name', header: '姓名', aliases: ['学生姓名'], required: true },
  { key: 'regNo', header: '学籍号', aliases: ['学籍号码', '全国学籍号', '学籍编号'], required: true, text: true, width: 22 },
  { key: 'studentNo', header: '学号', aliases: ['学生编号'], text: true },
  { key: 'gender', header: '性别', required: true, list: 'gender' },
  { key: 'birthDate', header: '出生日期', aliases: ['出生年月', '出生年月日', '生日'], width: 14 },
  { key: 'ethnicity', header: '民族', aliases: ['民族代码'], list: 'ethnicity' },
  { key: 'grade', header: '年级', aliases: ['入学年份'], required: true, list: 'grade' },
  { key: 'className', header: '班级', aliases: ['班级名称'], required: true, list: 'class', width: 16 },
  { key: 'parentName', header: '家长姓名', aliases: ['家长1姓名', '监护人姓名'] },
  { key: 'parentMobile', header: '家长手机号', aliases: ['家长1手机号', '家长电话', '家长手机', '家长联系方式', '监护人电话'], text: true, width: 16 },
  { key: 'parentRelation', header: '家长关系', aliases: ['家长1关系', '与学生关系', '监护人关系'], list: 'relation' },
  { key: 'parentGender', header: '家长性别', aliases: ['家长1性别'], list: 'gender' },
  { key: 'parent2Name', header: '家长2姓名' },
  { key: 'parent2Mobile', header: '家长2手机号', aliases: ['家长2电话', '家长2手机'], text: true, width: 16 },
  { key: 'parent2Relation', header: '家长2关系', list: 'relation' },
  { key: 'parent2Gender', header: '家长2性别', list: 'gender' },
];

/** The parent column groups of a student row. */
export const PARENT_GROUPS = [
  { name: 'parentName', mobile: 'parentMobile', relation: 'parentRelation', gender: 'parentGender' },
  { name: 'parent2Name', mobile: 'parent2Mobile', relation: 'parent2Relation', gender: 'parent2Gender' },
] as const satisfies readonly Record<'name' | 'mobile' | 'relation' | 'gender', StudentColumnKey>[];

export type StaffColumnKey = 'name' | 'accountNum' | 'password' | 'role' | 'mobile' | 'gender' | 'workNo' | 'idCard' | 'certificateType' | 'certificateNo';

export const STAFF_COLUMNS: readonly PeopleColumn<StaffColumnKey>[] = [
  { key: 'name', header: '姓名', aliases: ['教师姓名', '教职工姓名'], required: true },
  { key: 'accountNum', header: '登录账号', aliases: ['账号', '用户名'], required: true, text: true, width: 16 },
  { key: 'password', header: '初始密码', aliases: ['密码'], text: true, width: 14 },
  { key: 'role', header: '角色', required: true, list: 'role', width: 14 },
  { key: 'mobile', header: '手机号', aliases: ['手机', '手机号码', '联系电话'], text: true, width: 16 },
  { key: 'gender', header: '性别', required: true, list: 'gender' },
  { key: 'workNo', header: '工号', aliases: ['教工号', '职工号'], text: true },
  { key: 'idCard', header: '身份证号', aliases: ['身份证', '身份证号码'], text: true, width: 22 },
  { key: 'certificateType', header: '证件类型', list: 'certificate', width: 16 },
  { key: 'certificateNo', header: '证件号码', aliases: ['证件号'], text: true, width: 20 },
];

export type UserColumnKey = 'name' | 'accountNum' | 'password' | 'role' | 'mobile';

export const USER_COLUMNS: readonly PeopleColumn<UserColumnKey>[] = STAFF_COLUMNS.filter((c): c is PeopleColumn<UserColumnKey> =>
  ['name', 'accountNum', 'password', 'role', 'mobile'].includes(c.key),
);

export const peopleColumns = (kind: PeopleImportKind): readonly PeopleColumn[] =>
  kind === 'student' ? STUDENT_COLUMNS : kind === 'staff' ? STAFF_COLUMNS : USER_COLUMNS;

/** Rows one import takes, header included (a large school: a few thousand students a year; a university: tens of thousands). */
export const PEOPLE_IMPORT_MAX_ROWS = 100_000;
/** Largest workbook accepted (100,000 students with parents take ≈ 8 MB). */
export const PEOPLE_IMPORT_MAX_BYTES = 32 * 1024 * 1024;
/** Rejected rows the dry run lists (all of them go into the failures workbook). */
export const PREVIEW_REJECTED_ROWS = 20;
/** How long an uploaded file waits for its commit. */
export const PEOPLE_IMPORT_TTL_MS = 15 * 60 * 1000;

/** Text of a cell as typed, full-width folded and trimmed: 3, '3', ' ３ ' read the same. */
export function foldCell(v: unknown): string {
  if (v == null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(v).normalize('NFKC').replace(/[\s\u200b\ufeff]+/g, ' ').trim();
}

/** 男/女, 1/2 (national code), M/F, male/female; null when none of these. */
export function parseGender(text: string): Gender | null {
  const t = text.toLowerCase();
  if (t === '男' || t === '1' || t === 'm' || t === 'male' || t === '男性') return 'male';
  if (t === '女' || t === '2' || t === 'f' || t === 'female' || t === '女性') return 'female';
  return null;
}

export const GENDER_LABELS: Readonly<Record<Gender, string>> = { male: '男', female: '女' };

/** The Chinese words of each relation the template offers, and those a file may hold. */
export const RELATION_LABELS: Readonly<Record<ParentRelation, string>> = { father: '父亲', mother: '母亲', guardian: '监护人', grandparent: '祖父母', other: '其他' };
const RELATION_WORDS: Readonly<Record<string, ParentRelation>> = {
  父亲: 'father',
  爸爸: 'father',
  父: 'father',
  母亲: 'mother',
  妈妈: 'mother',
  母: 'mother',
  监护人: 'guardian',
  祖父母: 'grandparent',
  祖父: 'grandparent',
  祖母: 'grandparent',
  外祖父: 'grandparent',
  外祖母: 'grandparent',
  爷爷: 'grandparent',
  奶奶: 'grandparent',
  外公: 'grandparent',
  外婆: 'grandparent',
  其他: 'other',
  其它: 'other',
};

export function parseRelation(text: string): ParentRelation | null {
  const t = text.replace(/\s+/g, '');
  if ((PARENT_RELATIONS as readonly string[]).includes(t.toLowerCase())) return t.toLowerCase() as ParentRelation;
  return RELATION_WORDS[t] ?? null;
}

/** A parent's gender when the file leaves it blank: fathers are men, mothers women. */
export const genderOfRelation = (r: ParentRelation): Gender | null => (r === 'father' ? 'male' : r === 'mother' ? 'female' : null);

/** Ethnicity code from a code or a name; '' stays '' (the form's default applies). */
export const parseEthnicity = (text: string): string | null => (text ? ethnicityCode(text) : '');

/** All ethnicity names in code order, for the template's drop-down. */
export const ETHNICITY_NAMES: readonly string[] = [...Array.from({ length: 56 }, (_, i) => ethnicityName(String(i + 1).padStart(2, '0'))!), '其他', '外国血统中国籍人士'];

/** A birth date typed or stored as a date ('2014-09-01', '2014/9/1', 20140901, an Excel date) as 'YYYY-MM-DD'; '' stays ''. */
export function parseBirthDate(value: unknown, date1904 = false): string | null {
  if (value == null || (typeof value === 'string' && value.trim() === '')) return '';
  return parseTemplateDate(value, date1904);
}

/** What a dry run answers: the counts and the first rejected rows (docs/product-rules.md#people-import). */
export const peopleImportPreviewSchema = z.object({
  importId: z.string().describe('The kept upload: commit or discard it by this id before it expires'),
  fileName: z.string(),
  rows: z.number().int(),
  create: z.number().int(),
  update: z.number().int(),
  unchanged: z.number().int().describe('Rows matching an existing record that would change nothing (skipped, not written)'),
  updates: z.array(rowUpdateSchema).describe('Every row that would update an existing record (the first PREVIEW_UPDATE_ROWS), with the fields that change'),
  rejected: z.number().int(),
  parentsCreate: z.number().int().optional().describe('Parents a student file creates'),
  parentsUpdate: z.number().int().optional().describe('Parents a student file updates'),
  failures: z.array(z.object({ row: z.number().int(), reason: z.string() })),
  expiresAt: z.string().describe('ISO instant'),
});
export type PeopleImportPreview = z.output<typeof peopleImportPreviewSchema>;

/** The student import's choices: the school years and semesters the imported students are enrolled in. */
export const studentImportOptionsSchema = z.object({
  schoolYears: z.array(
    z.object({ id: z.string(), academicYear: z.string(), current: z.boolean(), semesters: z.array(z.object({ id: z.string(), code: z.number().int(), current: z.boolean() })) }),
  ),
});

/** The certificate types as the template's drop-down names them. */
export const CERTIFICATE_LABELS: Readonly<Record<CertificateType, string>> = {
  passport: '护照',
  hkMacauPermit: '港澳居民来往内地通行证',
  taiwanPermit: '台湾居民来往大陆通行证',
  foreignResidentPermit: '外国人永久居留身份证',
  other: '其他',
};

export function parseCertificateType(text: string): CertificateType | '' | null {
  if (!text) return '';
  if ((CERTIFICATE_TYPES as readonly string[]).includes(text)) return text as CertificateType;
  return (Object.entries(CERTIFICATE_LABELS).find(([, label]) => label === text)?.[0] as CertificateType | undefined) ?? null;
}

const CN_DIGITS = '一二三四五六七八九';
/** Grade names as school files write them: 一年级…九年级, 初一…初三, 高一…高三, 大一…大四 (grade numbers 1–16). */
export function gradeNoOfName(text: string): number | null {
  const t = text.replace(/\s+/g, '');
  let m = /^([一二三四五六七八九])年级$/.exec(t);
  if (m) return CN_DIGITS.indexOf(m[1]) + 1;
  m = /^(初|高)([一二三])$/.exec(t);
  if (m) return (m[1] === '初' ? 6 : 9) + CN_DIGITS.indexOf(m[2]) + 1;
  m = /^大([一二三四])$/.exec(t);
  if (m) return 12 + CN_DIGITS.indexOf(m[1]) + 1;
  return null;
}
