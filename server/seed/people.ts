/**
 * Deterministic generators of realistic Chinese people data for the demo and scale seeds:
 * a seeded PRNG, names, ID-card-like numbers and mobile numbers.
 */

/** mulberry32: tiny, fast, good enough for demo data; the same seed gives the same database. */
export function createRandom(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const chance = (p: number): boolean => next() < p;
  /** A v4-shaped UUID from the stream, so seeded ids are stable between runs. */
  const uuid = (): string => {
    const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
    hex[12] = '4';
    hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  };
  return { next, int, pick, chance, uuid };
}
export type Random = ReturnType<typeof createRandom>;

/** Builds a cumulative table so `pickWeighted` is a binary search. */
function weighted(entries: readonly (readonly [string, number])[]) {
  const values: string[] = [];
  const cumulative: number[] = [];
  let total = 0;
  for (const [value, weight] of entries) {
    total += weight;
    values.push(value);
    cumulative.push(total);
  }
  return { values, cumulative, total };
}

function pickWeighted(rnd: Random, table: ReturnType<typeof weighted>): string {
  const x = rnd.next() * table.total;
  let lo = 0;
  let hi = table.cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (table.cumulative[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return table.values[lo];
}

// Weights roughly follow the share (‰) of each surname in the national population.
const SURNAMES = weighted([
  ['王', 73], ['李', 72], ['张', 69], ['刘', 54], ['陈', 46], ['杨', 32], ['黄', 23], ['赵', 22], ['吴', 21], ['周', 21],
  ['徐', 17], ['孙', 15], ['马', 15], ['朱', 14], ['胡', 13], ['郭', 12], ['何', 12], ['林', 11], ['高', 11], ['罗', 11],
  ['郑', 10], ['梁', 10], ['谢', 8], ['宋', 8], ['唐', 8], ['许', 7], ['韩', 7], ['冯', 7], ['邓', 7], ['曹', 7],
  ['彭', 6], ['曾', 6], ['肖', 6], ['田', 6], ['董', 5], ['潘', 5], ['袁', 5], ['蔡', 5], ['蒋', 5], ['余', 5],
  ['于', 5], ['杜', 5], ['叶', 5], ['程', 4], ['魏', 4], ['苏', 4], ['吕', 4], ['丁', 4], ['任', 4], ['卢', 4],
  ['姚', 4], ['沈', 4], ['钟', 3], ['姜', 3], ['崔', 3], ['谭', 3], ['陆', 3], ['范', 3], ['汪', 3], ['廖', 3],
  ['石', 3], ['金', 3], ['韦', 3], ['贾', 3], ['夏', 2], ['付', 2], ['方', 2], ['邹', 2], ['熊', 2], ['白', 2],
  ['孟', 2], ['秦', 2], ['邱', 2], ['侯', 2], ['江', 2], ['尹', 2], ['薛', 2], ['闫', 2], ['段', 2], ['雷', 2],
  ['龙', 2], ['史', 2], ['陶', 2], ['贺', 2], ['顾', 2], ['毛', 2], ['郝', 2], ['龚', 2], ['邵', 2], ['万', 2],
  ['钱', 2], ['严', 2], ['戴', 2], ['武', 2], ['欧阳', 1], ['上官', 0.3], ['诸葛', 0.2], ['司马', 0.2],
]);

const uniq = (s: string): readonly string[] => [...new Set(s.trim().split(/\s+/))];

// Given names common among children born 2005–2020.
const YOUNG_MALE = uniq(`
  浩宇 子轩 浩然 宇轩 梓豪 俊杰 宇航 一鸣 博文 天佑 睿泽 皓轩 明轩 晨阳 嘉懿 思远 雨泽 俊熙 奕辰 梓睿
  逸飞 宇辰 子墨 浩轩 泽宇 文博 鑫磊 家豪 昊天 煜祺 智宸 正豪 昊然 明杰 立诚 立轩 峻熙 弘文 鸿煊 烨霖
  哲瀚 鑫鹏 致远 俊驰 晟睿 文昊 远航 旭尧 鸿涛 荣轩 越泽 瑾瑜 擎宇 志泽 睿渊 楷瑞 梓晨 沐阳 子默 锦程
  宇哲 承泽 嘉树 景行 铭轩 浩南 俊宇 博涛 子骞 明哲 嘉铭 思源 天翊 浩博 博宇 天宇 子豪 乐天 泽楷 宸宇
  磊 杰 涛 鹏 浩 宇 博 航 凯 帆 昊 睿 轩 晨 阳 斌 超 彬 毅 骁`);
const YOUNG_FEMALE = uniq(`
  欣怡 梓涵 诗涵 子涵 雨萱 可馨 语桐 欣妍 思涵 一诺 梦琪 紫萱 佳怡 雨涵 若汐 心怡 静怡 雅琪 佳琪 梓萱
  思彤 芷若 诗琪 紫涵 欣然 梦瑶 雨桐 晓彤 婉清 嘉怡 语嫣 安琪 怡然 书瑶 艺涵 沐晴 一涵 悦彤 思琪 文静
  雅婷 晓雯 梦洁 婧琪 诗雨 钰彤 语晨 可欣 若曦 芊芊 依诺 梓琪 子萱 雨欣 婉婷 思雨 慧敏 静雯 明月 舒涵
  梦婷 心悦 晨曦 乐瑶 歆瑶 昕彤 思颖 佳颖 雨晴 诗雅 欣悦 子琪 梓妍 语汐 清妍 若彤 羽彤 佳宁 嘉欣 婧涵
  婷 静 敏 丽 琳 雪 颖 洁 倩 悦 彤 璐 萌 琪 瑶 娜 欣 怡 妍 菲`);
// Given names common among adults born 1965–2000 (teachers, parents).
const ADULT_MALE = uniq(`
  伟 强 磊 军 洋 勇 杰 涛 明 超 刚 平 辉 鹏 华 飞 斌 波 宁 健 建国 建华 志强 国强 海涛 晓东 永刚 文斌
  建平 俊峰 志刚 宏伟 明辉 立新 晓峰 海军 卫东 红兵 国庆 长青 振华 学军 德明 春雷 新民 建军 小龙 家伟`);
const ADULT_FEMALE = uniq(`
  芳 娜 敏 静 丽 艳 娟 霞 燕 玲 丹 萍 红 玉兰 秀英 桂英 海燕 红梅 丽娟 晓燕 秀兰 春梅 雪梅 晓红 丽华
  慧 婷 莉 琴 云 淑芬 美玲 金凤 晓霞 丽萍 文静 晓丽 建英 亚男 晓敏 玉梅 凤英 彩霞 晓琳 月华 雅琴`);

export type Gender = 'male' | 'female';

export function randomSurname(rnd: Random): string {
  return pickWeighted(rnd, SURNAMES);
}

/** A full name; `adult` picks the given-name style of the parents' and teachers' generation. */
export function randomName(rnd: Random, gender: Gender, opts: { adult?: boolean; surname?: string } = {}): string {
  const pool = opts.adult ? (gender === 'male' ? ADULT_MALE : ADULT_FEMALE) : gender === 'male' ? YOUNG_MALE : YOUNG_FEMALE;
  return (opts.surname ?? randomSurname(rnd)) + rnd.pick(pool);
}

// Administrative division codes (GB/T 2260) used in ID-card-like numbers.
export const JIANGNING = '320115';
export const NANJING_DISTRICTS = ['320102', '320104', '320105', '320106', '320111', '320113', '320114', '320116', '320117', '320118'] as const;
export const PROVINCE_REGIONS = [
  '320205', '320311', '320412', '320506', '320602', '320706', '320812', '320902', '321002', '321102', '321202', '321302',
  '340104', '330106', '370102', '410105', '420106', '510107', '360102', '430104', '350102', '610113',
] as const;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** GB 11643 check character of the first 17 digits. */
export function idCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i];
  return ID_CHECK[sum % 11];
}

/**
 * An 18-digit ID-card-like number (region, birth date, sequence whose last digit is odd for men),
 * all digits (sequences whose check character would be 'X' are skipped), unique within `used`.
 */
export function randomIdNumber(rnd: Random, region: string, birthDate: string, gender: Gender, used: Set<string>): string {
  const prefix = region + birthDate.replaceAll('-', '');
  // The 17th digit is odd for men, even for women.
  const odd = gender === 'male';
  const attempt = (seq: number): string | null => {
    const first17 = prefix + String(seq).padStart(3, '0');
    const check = idCheckChar(first17);
    const id = first17 + check;
    if (check === 'X' || used.has(id)) return null;
    used.add(id);
    return id;
  };
  for (let i = 0; i < 100; i++) {
    const id = attempt(rnd.int(1, 499) * 2 - (odd ? 1 : 0));
    if (id) return id;
  }
  // Crowded birth date: take the first free sequence of the right parity.
  for (let seq = odd ? 1 : 2; seq < 1000; seq += 2) {
    const id = attempt(seq);
    if (id) return id;
  }
  throw new Error(`randomIdNumber: no free number for ${prefix}`);
}

const MOBILE_PREFIXES = ['130', '131', '132', '133', '135', '136', '137', '138', '139', '150', '151', '152', '153', '155', '156', '157', '158', '159', '166', '173', '177', '180', '181', '182', '183', '185', '186', '187', '188', '189', '191', '198', '199'];

/** A mobile number matching 1[3-9]\d{9}, unique within `used`. */
export function randomMobile(rnd: Random, used: Set<string>): string {
  for (;;) {
    const m = rnd.pick(MOBILE_PREFIXES) + String(rnd.int(0, 99_999_999)).padStart(8, '0');
    if (!used.has(m)) {
      used.add(m);
      return m;
    }
  }
}

/** A date (YYYY-MM-DD) uniformly between two dates inclusive. */
export function randomDate(rnd: Random, from: string, to: string): string {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  const day = 86_400_000;
  return new Date(a + rnd.int(0, Math.round((b - a) / day)) * day).toISOString().slice(0, 10);
}

// National ethnicity codes (GB 3304) other than 汉族 '01', with rough relative frequency in Jiangsu schools.
const MINORITIES = weighted([['03', 40], ['11', 12], ['08', 10], ['06', 8], ['15', 6], ['02', 5], ['05', 5], ['04', 4], ['09', 4], ['10', 3], ['16', 3]]);

/** Ethnicity code: '01' (汉族) for about 97 %. */
export function randomEthnicity(rnd: Random): string {
  return rnd.chance(0.97) ? '01' : pickWeighted(rnd, MINORITIES);
}
