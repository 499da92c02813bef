import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { ORG_TYPE, SEMESTER } from '@/domain/constants';
import type { NationalResults, ResultKey } from '@/domain/physique/national-template';
import { scoreStudent } from '@/domain/physique/score';
import { gradeTable, itemMeta, type BmiTable, type Gender, type Grade, type ItemKey, type ScoreTable } from '@/domain/physique/standard';
import { planItemsForGrade } from '@/domain/test-plans/items';
import { engineInputOf, WIDE_SCORE_FIELDS, wideFromScore } from '@/domain/physique-results/wide-row';
import { fieldMask } from '@/domain/physique-results/value-source';
import type { DbOrTx } from '../db/client';
import { orgs } from '../db/schema/orgs';
import { physiqueResults, testRecords } from '../db/schema/physique';
import { classes, grades, schoolYears, students } from '../db/schema/school';
import { testPlanItems, testPlans, testPlanScopes } from '../db/schema/test-plans';
import { createRandom, type Random } from './people';

/**
 * Physique demo data (docs/product-rules.md#physique-results): for the K12 school and the university one autumn test plan per school year of the
 * last three (two ended, the current one in progress), results for about 90 % of the students drawn around the
 * standard's norms (≈ 15 % excellent, 35 % good, 40 % pass, 10 % fail), some incomplete, a few invalid, and a few
 * thousand device test records in the current plan for the sync. Deterministic; a few bulk inserts.
 */

const SEED = 20_261_124;
const K12_GRADE_NAMES = ['一年级', '二年级', '三年级', '四年级', '五年级', '六年级', '七年级', '八年级', '九年级', '高一', '高二', '高三'];

/** The name a K12 class had when its cohort was in `grade` ("三年级1班" in grade 1 was "一年级1班"); others keep theirs. */
function classNameInGrade(name: string, nameGrade: number, grade: number): string {
  const now = K12_GRADE_NAMES[nameGrade - 1];
  const then = K12_GRADE_NAMES[grade - 1];
  return now && then && name.startsWith(now) ? then + name.slice(now.length) : name;
}
const CHUNK = 5000;
const TESTED_SHARE = 0.9;
const INCOMPLETE_SHARE = 0.04;
const INVALID_SHARE = 0.01;
const RECORD_STUDENT_SHARE = 0.25;

type Insert<T extends PgTable> = T['$inferInsert'];

/**
 * Bulk insert through one JSON parameter per chunk (json_populate_recordset): thousands of wide rows without
 * building a parameter list per value, ≈ 10× faster than drizzle's multi-row insert here. Columns a row leaves out
 * are written as null, so rows set every NOT NULL column themselves.
 */
async function insertJson<T extends PgTable>(db: DbOrTx, table: T, rows: readonly Insert<T>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = getTableColumns(table) as Record<string, { name: string }>;
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const names = keys.map((k) => columns[k].name);
  const list = sql.raw(names.map((n) => `"${n}"`).join(', '));
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK).map((r) => {
      const o: Record<string, unknown> = {};
      keys.forEach((k, j) => (o[names[j]] = (r as Record<string, unknown>)[k] ?? null));
      return o;
    });
    await db.execute(sql`insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, ${JSON.stringify(chunk)}::json)`);
  }
}

/** Standard normal draw (Box–Muller). */
function gauss(rnd: Random): number {
  const u = 1 - rnd.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd.next());
}

/**
 * A student's ability on the 0–100 score scale from a uniform draw: a piecewise-linear quantile function whose
 * bands hold the target level shares (10 % below 60, 40 % 60–80, 35 % 80–90, 15 % 90+), calibrated by sampling:
 * table rows round item scores down while BMI (mostly normal, 100 points) lifts the total.
 */
export function abilityFromUniform(u: number): number {
  const shift = 1;
  if (u < 0.1) return shift + 36 + (u / 0.1) * 24;
  if (u < 0.5) return shift + 60 + ((u - 0.1) / 0.4) * 20;
  if (u < 0.85) return shift + 80 + ((u - 0.5) / 0.35) * 10;
  return shift + 90 + ((u - 0.85) / 0.15) * 6;
}

const roundTo = (v: number, step: number) => Math.round(v / step) * step;
const clean = (v: number) => Math.round(v * 1000) / 1000;

/** A raw value whose table score is about `target` (rows best first; beyond the top earns bonus, below the last scores 0). */
export function rawForScore(rnd: Random, table: ScoreTable, target: number): number {
  const th = table.thresholds;
  const { resolution } = itemMeta(table.item);
  const last = th.length - 1;
  let v: number;
  if (target >= 100 && table.bonusThresholds.length > 0 && target > 101) {
    const steps = Math.min(table.bonusThresholds.length - 1, Math.floor((target - 100) / 2));
    v = table.bonusThresholds[table.bonusThresholds.length - 1 - steps];
  } else if (target < table.scores[last]) {
    const gap = Math.abs(th[last] - th[last - 1]) || resolution;
    v = th[last] + (table.lowerIsBetter ? 1 : -1) * gap * (1 + rnd.next() * 2);
  } else {
    let i = 0;
    while (i < last && table.scores[i] > target) i++;
    // Somewhere between this row's threshold and the next better one: the score stays this row's.
    v = i === 0 ? th[0] : th[i] + rnd.next() * 0.8 * (th[i - 1] - th[i]);
  }
  return Math.max(0, clean(roundTo(v, resolution)));
}

/** Height (cm) around the norm of a grade and gender, and a weight giving a BMI in a drawn band. */
function body(rnd: Random, grade: Grade, gender: Gender, bmiTable: BmiTable): { heightCm: number; weightKg: number } {
  const base =
    gender === 'male'
      ? Math.min(172, 120 + grade * 5.8)
      : Math.min(160, grade <= 6 ? 119 + grade * 5.6 : 152.6 + (grade - 6) * 2.5);
  const heightCm = clean(roundTo(base + gauss(rnd) * 5.5, 0.1));
  const x = rnd.next();
  const t = bmiTable;
  const bmi =
    x < 0.06
      ? t.normalMin - 0.3 - rnd.next() * 1.5
      : x < 0.78
        ? t.normalMin + rnd.next() * (t.normalMax - t.normalMin)
        : x < 0.92
          ? t.overweightMin + rnd.next() * (t.overweightMax - t.overweightMin)
          : t.obeseMin + rnd.next() * 4;
  return { heightCm, weightKg: clean(roundTo((bmi * heightCm * heightCm) / 10_000, 0.1)) };
}

/** Raw results of one student (items of the plan for the grade and gender) at an ability, optionally missing one item. */
export function demoResults(rnd: Random, grade: Grade, gender: Gender, items: readonly ItemKey[], ability: number, incomplete: boolean): NationalResults {
  const table = gradeTable(grade, gender);
  const out: NationalResults = {};
  const tested = table.specs.filter((s) => items.includes(s.item));
  const skip = incomplete ? rnd.pick(tested.filter((s) => s.item !== 'bmi')).item : null;
  for (const spec of tested) {
    if (spec.item === skip) continue;
    const t = table.byItem[spec.item];
    if (!t) continue;
    if (t.kind === 'bmi') {
      Object.assign(out, body(rnd, grade, gender, t));
      continue;
    }
    out[spec.item as ResultKey] = rawForScore(rnd, t, ability + gauss(rnd) * 8);
  }
  return out;
}

const STAGE_FIRST: Record<string, number> = { primary: 1, junior: 7, senior: 10, university: 13 };
function gradeInYear(stage: string, enrolYear: number, startYear: number): Grade | null {
  const g = STAGE_FIRST[stage] + (startYear - enrolYear);
  if (stage === 'university' ? g < 13 : g < 1) return null;
  return g >= 1 && g <= 16 ? (g as Grade) : null;
}

/** A date (YYYY-MM-DD) between two dates, inclusive. */
function dayBetween(rnd: Random, from: string, to: string): string {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  return new Date(a + rnd.int(0, Math.round((b - a) / 86_400_000)) * 86_400_000).toISOString().slice(0, 10);
}

export interface PhysiqueDemoSummary {
  plans: number;
  results: number;
  records: number;
}

/**
 * Seeds the physique demo (see above) for the schools already in the database. `currentStartYear` is the demo's
 * current school year (2026 for 2026-2027); `today` (YYYY-MM-DD) bounds the in-progress plan's results and records.
 */
export async function seedPhysiqueDemo(db: DbOrTx, opts: { currentStartYear: number; today: string }): Promise<PhysiqueDemoSummary> {
  const rnd = createRandom(SEED);
  const schools = await db
    .select({ id: orgs.id, type: orgs.type })
    .from(orgs)
    .where(inArray(orgs.type, [ORG_TYPE.k12, ORG_TYPE.university]))
    .orderBy(asc(orgs.code), asc(orgs.id));
  const plans: Insert<typeof testPlans>[] = [];
  const scopes: Insert<typeof testPlanScopes>[] = [];
  const planItems: Insert<typeof testPlanItems>[] = [];
  const results: Insert<typeof physiqueResults>[] = [];
  const records: Insert<typeof testRecords>[] = [];

  for (const school of schools) {
    const years = await db
      .select({ id: schoolYears.id, startYear: schoolYears.startYear })
      .from(schoolYears)
      .where(eq(schoolYears.orgId, school.id))
      .orderBy(asc(schoolYears.startYear));
    const cohorts = await db
      .select({ id: grades.id, stage: grades.stage, enrolYear: grades.enrolYear })
      .from(grades)
      .where(eq(grades.orgId, school.id))
      .orderBy(asc(grades.enrolYear), asc(grades.stage));
    const kids = await db
      .select({
        id: students.id,
        classId: students.classId,
        className: classes.name,
        classGrade: grades.gradeNo,
        gender: students.gender,
        stage: grades.stage,
        enrolYear: grades.enrolYear,
      })
      .from(students)
      .innerJoin(classes, eq(classes.id, students.classId))
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(students.orgId, school.id), eq(students.enabled, true)))
      .orderBy(asc(students.id));
    // Ability persists across years (a fit pupil stays fairly fit), with some drift per year.
    const ability = new Map(kids.map((k) => [k.id, abilityFromUniform(rnd.next())]));

    for (const year of years.filter((y) => y.startYear >= opts.currentStartYear - 2 && y.startYear <= opts.currentStartYear)) {
      const current = year.startYear === opts.currentStartYear;
      const planId = rnd.uuid();
      const startDate = `${year.startYear}-10-08`;
      // Autumn-semester plans: the current one runs to the end of the semester in January, the past ones ended in December.
      const endDate = current ? `${year.startYear + 1}-01-22` : `${year.startYear}-12-18`;
      const lastDay = current && opts.today < endDate ? opts.today : endDate;
      plans.push({
        id: planId,
        orgId: school.id,
        name: `${year.startYear}-${year.startYear + 1}学年第一学期体质健康测试`,
        schoolYearId: year.id,
        semesterCode: SEMESTER.autumn,
        startDate,
        endDate,
        scopeType: 'grade',
        standardVersion: '2014',
        feeAmount: '15.000',
        feePrecision: 2,
        feeRounding: 'round',
        createdAt: new Date(`${year.startYear}-09-20T02:00:00Z`),
        updatedAt: new Date(`${year.startYear}-09-20T02:00:00Z`),
      });
      const gradeNos = new Set<Grade>();
      for (const c of cohorts) {
        const g = gradeInYear(c.stage, c.enrolYear, year.startYear);
        if (g === null) continue;
        scopes.push({ planId, gradeId: c.id });
        gradeNos.add(g);
      }
      for (const g of [...gradeNos].sort((a, b) => a - b)) for (const item of planItemsForGrade(g, '2014')) planItems.push({ planId, gradeNo: g, item });

      for (const kid of kids) {
        const grade = gradeInYear(kid.stage, kid.enrolYear, year.startYear);
        if (grade === null || !rnd.chance(TESTED_SHARE)) continue;
        const a = (ability.get(kid.id) ?? 70) + gauss(rnd) * 3;
        const items = planItemsForGrade(grade, '2014');
        const raw = demoResults(rnd, grade, kid.gender, items, a, rnd.chance(current ? INCOMPLETE_SHARE * 3 : INCOMPLETE_SHARE));
        const score = scoreStudent({ grade, gender: kid.gender, results: engineInputOf(raw) });
        const wide = wideFromScore(raw, score);
        const testedOn = dayBetween(rnd, startDate, lastDay);
        const invalid = rnd.chance(INVALID_SHARE);
        const row: Insert<typeof physiqueResults> = {
          id: rnd.uuid(),
          orgId: school.id,
          planId,
          schoolYear: year.startYear,
          studentId: kid.id,
          classId: kid.classId,
          gradeNo: grade,
          className: classNameInGrade(kid.className, kid.classGrade, grade),
          gender: kid.gender,
          testedOn,
          source: 'import',
          importedFields: fieldMask((Object.keys(raw) as ResultKey[]).filter((k) => raw[k] != null)),
          invalid,
          invalidAt: invalid ? new Date(`${testedOn}T08:00:00Z`) : null,
          updatedAt: new Date(`${testedOn}T09:30:00Z`),
        };
        for (const f of WIDE_SCORE_FIELDS) Object.assign(row, { [f]: wide[f] });
        results.push(row);

        // Device records of the current plan, for the sync and the test-record list.
        if (current && rnd.chance(RECORD_STUDENT_SHARE)) {
          const table = gradeTable(grade, kid.gender);
          const pickable = table.specs.filter((s) => s.item !== 'bmi').map((s) => s.item);
          const chosen = new Set<ItemKey>();
          const n = rnd.int(1, 3);
          while (chosen.size < Math.min(n, pickable.length)) chosen.add(rnd.pick(pickable));
          for (const item of chosen) {
            const t = table.byItem[item];
            if (!t || t.kind !== 'table') continue;
            for (let k = rnd.int(1, 2); k > 0; k--) {
              const day = dayBetween(rnd, startDate, opts.today);
              const hour = String(rnd.int(0, 9)).padStart(2, '0');
              const recInvalid = rnd.chance(0.02);
              records.push({
                id: rnd.uuid(),
                orgId: school.id,
                studentId: kid.id,
                classId: kid.classId,
                item,
                raw: rawForScore(rnd, t, a + gauss(rnd) * 8),
                source: rnd.chance(0.8) ? 'device' : rnd.chance(0.5) ? 'self' : 'class',
                deviceSn: `TY${school.type}${String(rnd.int(1, 12)).padStart(4, '0')}`,
                testedAt: new Date(`${day}T${hour}:${String(rnd.int(0, 59)).padStart(2, '0')}:00Z`),
                invalid: recInvalid,
                invalidAt: recInvalid ? new Date(`${day}T10:00:00Z`) : null,
              });
            }
          }
        }
      }
    }
  }

  await insertJson(db, testPlans, plans);
  await insertJson(db, testPlanScopes, scopes);
  await insertJson(db, testPlanItems, planItems);
  await insertJson(db, physiqueResults, results);
  await insertJson(db, testRecords, records);
  return { plans: plans.length, results: results.length, records: records.length };
}
