import { NATIONAL_COLUMNS, nationalCodeFromGrade, type NationalColumnKey } from '@/domain/physique/national-template';
import { gradeTable, GRADES, type Gender, type Grade, type ScoreTable } from '@/domain/physique/standard';

/**
 * Realistic national-template data for tests and benchmarks: every grade's items filled from the score tables of the
 * student's grade and gender (so scores spread over the whole range), other items blank, and a share of rows broken
 * in the ways real uploads are (bad codes, unparsable results, lost registration digits, impossible dates).
 */

export interface FixtureOptions {
  rows: number;
  /** Share of rows with exactly one deliberate error (default 0.02). */
  invalidShare?: number;
  seed?: number;
  /** Grades to draw from (default all 1–16). */
  grades?: readonly Grade[];
}

export interface NationalTemplateFixture {
  /** Header row then data rows (Excel row = index + 1). */
  rows: unknown[][];
  /** Excel row numbers (1-based) of the deliberately broken rows, with the column that is broken. */
  invalid: Map<number, NationalColumnKey>;
}

/** Deterministic PRNG (mulberry32) so fixtures are the same on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
const GIVEN = '伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华玉萍红娥玲芬燕彬鹏宇浩然子涵欣怡梓轩一诺雨泽思远嘉怡佳琪俊杰晨曦梦瑶博文';
const STREETS = ['人民路', '解放路', '中山路', '建设路', '和平路', '新华路', '文化路', '胜利路', '长江路', '黄河路'];
const CITIES = ['北京市海淀区', '上海市浦东新区', '广州市天河区', '成都市武侯区', '武汉市洪山区', '西安市雁塔区', '杭州市西湖区', '南京市鼓楼区'];
const ITEM_COLUMNS = NATIONAL_COLUMNS.filter((c) => c.kind === 'result').map((c) => c.key);

const pick = <T>(rand: () => number, list: readonly T[] | string): T => list[Math.floor(rand() * list.length)] as T;
const pad = (n: number, w: number) => String(n).padStart(w, '0');
const tenth = (x: number) => Math.round(x * 10) / 10;

/** Registration number G + 18-character ID number (birth date inside), as the national system issues them. */
function regNo(rand: () => number, birth: Date, index: number): string {
  const region = pad(110000 + Math.floor(rand() * 540000), 6);
  const date = `${birth.getUTCFullYear()}${pad(birth.getUTCMonth() + 1, 2)}${pad(birth.getUTCDate(), 2)}`;
  const seq = pad(index % 1000, 3);
  const check = rand() < 0.09 ? 'X' : String(Math.floor(rand() * 10));
  return `G${region}${date}${seq}${check}`;
}

/** A raw result near a random row of the student's score table, in the unit of the item (min.sec for the long runs). */
function itemValue(rand: () => number, table: ScoreTable, item: NationalColumnKey): unknown {
  const th = table.thresholds;
  // Skew towards the middle rows, with some beyond the last row (fails) and some beyond the top (bonus).
  const i = Math.min(th.length - 1, Math.floor(Math.pow(rand(), 0.8) * th.length));
  let v = th[i];
  if (i === 0 && rand() < 0.3) v = table.lowerIsBetter ? v * 0.97 : v * 1.05;
  if (i === th.length - 1 && rand() < 0.3) v = table.lowerIsBetter ? v * 1.08 : v * 0.85;
  switch (item) {
    case 'run50m':
    case 'sitAndReach':
      return tenth(v);
    case 'vitalCapacity':
    case 'standingLongJump':
    case 'rope1min':
    case 'sitUp1min':
    case 'pullUp':
      return Math.max(0, Math.round(v));
    default: {
      // shuttle50x8, run1000m, run800m: the template writes minutes.seconds; some schools type 3'40".
      const total = Math.round(v);
      const m = Math.floor(total / 60);
      const s = total % 60;
      return rand() < 0.8 ? Number(`${m}.${pad(s, 2)}`) : `${m}'${pad(s, 2)}"`;
    }
  }
}

function heightWeight(rand: () => number, grade: Grade, gender: Gender): [number, number] {
  const age = grade + 6;
  const adult = gender === 'male' ? 172 : 160;
  const h = Math.min(adult, 118 + (age - 7) * (gender === 'male' ? 6.2 : 5.6)) + (rand() - 0.5) * 14;
  const bmi = 14 + rand() * 10 + (age > 12 ? 2 : 0);
  return [Math.round(h * 10) / 10, Math.round(((bmi * h * h) / 10_000) * 10) / 10];
}

const BREAKS: readonly [NationalColumnKey, unknown][] = [
  ['gender', '3'],
  ['gradeNo', 17],
  ['run50m', '八秒五'],
  ['regNo', 1.1010520120901e17],
  ['birthDate', '2012-02-30'],
  ['name', ''],
  ['vitalCapacity', 'abc'],
  ['heightCm', 1650],
  ['ethnicity', '99'],
];

/** Header + N data rows of the national template. */
export function nationalTemplateRows(options: FixtureOptions): NationalTemplateFixture {
  const rand = prng(options.seed ?? 2026);
  const grades = options.grades ?? GRADES;
  const invalidShare = options.invalidShare ?? 0.02;
  const index = new Map(NATIONAL_COLUMNS.map((c, i) => [c.key, i]));
  const rows: unknown[][] = [NATIONAL_COLUMNS.map((c) => c.header)];
  const invalid = new Map<number, NationalColumnKey>();
  for (let n = 0; n < options.rows; n++) {
    const grade = pick(rand, grades);
    const gender: Gender = rand() < 0.5 ? 'male' : 'female';
    const classIdx = 1 + Math.floor(rand() * 8);
    const code = nationalCodeFromGrade(grade);
    const birthYear = 2026 - grade - 6 - (rand() < 0.3 ? 1 : 0);
    const birth = new Date(Date.UTC(birthYear, Math.floor(rand() * 12), 1 + Math.floor(rand() * 28)));
    const birthIso = birth.toISOString().slice(0, 10);
    const row: unknown[] = new Array(NATIONAL_COLUMNS.length).fill(null);
    const set = (key: NationalColumnKey, v: unknown) => {
      row[index.get(key) as number] = v;
    };
    set('gradeNo', code);
    set('classNo', `${code}${pad(classIdx, 2)}`);
    set('className', `${grade <= 6 ? `${grade}年级` : grade <= 9 ? `初${'一二三'[grade - 7]}` : grade <= 12 ? `高${'一二三'[grade - 10]}` : `${2026 - (grade - 12)}级`}${classIdx}班`);
    set('regNo', regNo(rand, birth, n));
    set('ethnicity', rand() < 0.92 ? '01' : pad(2 + Math.floor(rand() * 55), 2));
    set('name', pick<string>(rand, SURNAMES) + pick<string>(rand, GIVEN) + (rand() < 0.6 ? pick<string>(rand, GIVEN) : ''));
    set('gender', gender === 'male' ? 1 : 2);
    // Birth dates arrive as text or as Excel date serials.
    set('birthDate', rand() < 0.5 ? birthIso : Math.round((birth.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000));
    set('address', `${pick(rand, CITIES)}${pick(rand, STREETS)}${1 + Math.floor(rand() * 300)}号`);
    const [h, w] = heightWeight(rand, grade, gender);
    set('heightCm', h);
    set('weightKg', w);
    const table = gradeTable(grade, gender);
    for (const item of ITEM_COLUMNS) {
      if (item === 'heightCm' || item === 'weightKg') continue;
      const t = table.byItem[item as keyof typeof table.byItem];
      // About 1 in 100 results is left blank: not tested.
      if (t && t.kind === 'table' && rand() > 0.01) set(item, itemValue(rand, t, item));
    }
    if (rand() < invalidShare) {
      const [key, value] = pick(rand, BREAKS);
      set(key, value);
      invalid.set(rows.length + 1, key);
    }
    rows.push(row);
  }
  return { rows, invalid };
}
