import type { DistrictSchoolRow } from '@/domain/data-center/district';
import type { ClassStudentRow, GradeBreakdown, Indicators, ItemStats, RankRow, TrendPoint, WallSceneData, WeakItem } from '@/domain/data-center/types';
import { levelOf } from '@/domain/physique/level';
import { ITEM_KEYS, type ItemKey } from '@/domain/physique/standard';

/** Deterministic figures for the data-centre stories (no server). */
let seed = 3;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

export function indicators(mean = 78): Indicators {
  const assessed = 320;
  const excellent = Math.round(assessed * (0.1 + rnd() * 0.1));
  const good = Math.round(assessed * (0.3 + rnd() * 0.1));
  const fail = Math.round(assessed * (0.05 + rnd() * 0.06));
  const pass = assessed - excellent - good - fail;
  const r = (n: number) => Math.round((n / assessed) * 10000) / 10000;
  return {
    students: 360,
    tested: 342,
    assessed,
    participationRate: 0.95,
    levels: { excellent, good, pass, fail },
    levelRates: { excellent: r(excellent), good: r(good), pass: r(pass), fail: r(fail) },
    excellentRate: r(excellent),
    goodRate: r(excellent + good),
    passRate: r(assessed - fail),
    meanTotal: mean,
    bmi: { normal: 240, lowWeight: 20, overweight: 50, obese: 32 },
  };
}

const SCORED: ItemKey[] = ['vitalCapacity', 'run50m', 'sitAndReach', 'standingLongJump', 'pullUp', 'run1000m', 'sitUp1min', 'run800m'];

export function itemStats(base = 75): ItemStats {
  return Object.fromEntries(
    SCORED.map((item) => [item, { n: 300, meanScore: Math.round((base - 4 + rnd() * 8) * 10) / 10, excellentRate: 0.15, failRate: Math.round(rnd() * 1500) / 10000 }]),
  );
}

export const byGrade: GradeBreakdown[] = [7, 8, 9, 10, 11, 12].map((gradeNo) => ({ gradeNo, indicators: indicators(75 + rnd() * 6), items: itemStats(74 + rnd() * 4) }));

export const trend: TrendPoint[] = [2023, 2024, 2025].map((y, i) => ({
  schoolYear: y,
  academicYear: `${y}-${y + 1}`,
  indicators: indicators(76 + i),
  items: itemStats(),
}));

export const weakestItems: WeakItem[] = SCORED.slice(0, 6)
  .map((item) => ({ item, n: 300, meanScore: Math.round((70 + rnd() * 8) * 10) / 10, failRate: Math.round(rnd() * 2000) / 10000 }))
  .sort((a, b) => a.meanScore - b.meanScore);

export const rankRows: RankRow[] = Array.from({ length: 16 }, (_, i) => ({
  id: `c${i}`,
  name: `初${'一二三'[i % 3]}(${Math.floor(i / 3) + 1})班`,
  orgId: 'o1',
  orgName: '第一中学',
  gradeNo: 7 + (i % 3),
  tested: 40,
  assessed: 38,
  meanTotal: Math.round((84 - i * 0.7) * 10) / 10,
  excellentRate: 0.25 - i * 0.01,
  goodRate: 0.6 - i * 0.01,
  passRate: 0.98 - i * 0.005,
  rank: i + 1,
}));

export const wallScenes: Record<WallSceneData['scene'], WallSceneData> = {
  schoolOverview: { scene: 'schoolOverview', overview: indicators(78.4), items: itemStats(), trend },
  gradeComparison: { scene: 'gradeComparison', byGrade },
  classRanking: { scene: 'classRanking', ranking: { unit: 'class', rows: rankRows } },
  weakestItems: { scene: 'weakestItems', weakestItems, byGrade },
  districtSchools: { scene: 'districtSchools', total: districtSchool('', '', 78.2), schools: ['第一中学', '实验小学', '东山小学', '科技大学'].map((name, i) => districtSchool(`o${i}`, name, 81 - i * 2.1)) },
  warnings: { scene: 'warnings', counts: { byKind: { failingItem: 312, bmi: 188, decline: 97, missing: 41 }, students: 521, openCases: 14, closedCases: 9 }, schools: [] },
  lessons: { scene: 'lessons', day: '2026-11-20', unit: 'class', inProgress: 2, finished: 5, meetsTargets: 3, rows: [{ name: '初一(1)班', inProgress: 1, finished: 1, meanBpm: 148.2, density: 0.62 }] },
};

/** A school of the district's wall scene (counts and figures only). */
function districtSchool(orgId: string, name: string, meanTotal: number): DistrictSchoolRow {
  const i = indicators(meanTotal);
  return {
    orgId,
    name,
    type: 21,
    students: 1200,
    tested: i.tested,
    assessed: i.assessed,
    excellentRate: i.excellentRate,
    goodRate: i.goodRate,
    passRate: i.passRate,
    failRate: i.levelRates.fail,
    meanTotal,
    homeworkStudents: 640,
    homeworkRate: 0.5333,
    contestStudents: 120,
    contestRate: 0.1,
    devices: 6,
    devicesOnline: 4,
    levels: i.levels,
    items: itemStats(),
  };
}

const NAMES = ['王子涵', '李思远', '张雨桐', '刘浩然', '陈一诺', '杨梓萱', '赵俊熙', '黄欣怡'];

/** `n` students of a class with every item scored. */
export function classStudents(n: number): ClassStudentRow[] {
  return Array.from({ length: n }, (_, i) => {
    const items = Object.fromEntries(
      ITEM_KEYS.filter((k) => k !== 'run800m' && k !== 'sitUp1min').map((item) => {
        const score = Math.round(45 + rnd() * 55);
        return [item, { raw: Math.round(rnd() * 3000) / 10, score, level: item === 'bmi' ? 'normal' : levelOf(score), bonus: null }];
      }),
    );
    const total = Math.round((60 + rnd() * 40) * 10) / 10;
    return {
      studentId: `s${i}`,
      name: NAMES[i % NAMES.length],
      regNo: `G3201${String(i).padStart(8, '0')}`,
      studentNo: String(2025070100 + i),
      gender: i % 2 ? 'female' : 'male',
      resultId: `r${i}`,
      planId: 'p1',
      testedOn: '2025-10-20',
      gradeNo: 7,
      heightCm: 158,
      weightKg: 48,
      items,
      standardScore: total,
      bonus: 0,
      total,
      level: levelOf(total),
      complete: true,
      previousTotal: total + 2,
      change: -2,
      watch: [],
    };
  });
}
