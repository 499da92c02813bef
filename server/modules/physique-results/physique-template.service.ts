import { eq, inArray } from 'drizzle-orm';
import { ethnicityName, NATIONAL_COLUMNS, nationalCodeFromGrade, type NationalColumnKey } from '@/domain/physique/national-template';
import type { Translate } from '@/domain/physique-results/export-layout';
import type { DbOrTx } from '../../db/client';
import { physiqueResults } from '../../db/schema/physique';
import { students } from '../../db/schema/school';
import { writeXlsx, type SheetSpec } from '../../lib/spreadsheet/xlsx-writer';
import { getPlanInScope } from '../test-plans/test-plans.service';
import { loadPlanContext, planScopeStudents, type ScopeStudent } from './physique-write';
import { gradeNameKey } from '@/domain/school/grade-name';

const RAW_OPTS = { interpolation: { escapeValue: false } };
type Workbook = { workbook: Buffer; fileName: string };

const REG_COL = NATIONAL_COLUMNS.findIndex((c) => c.key === 'regNo');
const CLASS_NO_COL = NATIONAL_COLUMNS.findIndex((c) => c.key === 'classNo');
const TEMPLATE_WIDTHS = NATIONAL_COLUMNS.map((c) => (c.key === 'regNo' ? 22 : c.key === 'address' ? 24 : c.key === 'className' ? 14 : 12));

function templateSheet(t: Translate, rows: unknown[][]): SheetSpec {
  return { name: t('physique:template.sheetName', RAW_OPTS), rows, columnWidths: TEMPLATE_WIDTHS, textColumns: [REG_COL, CLASS_NO_COL] };
}

const templateFileName = (t: Translate) => `${t('physiqueResults:import.templateFileName', RAW_OPTS)}.xlsx`;

/** The national template to fill in (docs/product-rules.md#physique-results: score import): its header row, optionally with one example row. */
export function templateWorkbook(t: Translate, sample: boolean): Workbook {
  const rows: unknown[][] = [NATIONAL_COLUMNS.map((c) => c.header)];
  if (sample) {
    const example: Partial<Record<NationalColumnKey, unknown>> = {
      gradeNo: 21,
      classNo: '2026020101',
      className: '七年级1班',
      regNo: 'G320115201309010012',
      ethnicity: '01',
      name: '张三',
      gender: 1,
      birthDate: '2013-09-01',
      address: '江苏省南京市江宁区',
      heightCm: 158.5,
      weightKg: 46.2,
      vitalCapacity: 2650,
      run50m: 8.4,
      sitAndReach: 9.6,
      sitUp1min: 38,
      pullUp: 6,
      standingLongJump: 196,
      run1000m: '4.05',
    };
    rows.push(NATIONAL_COLUMNS.map((c) => example[c.key] ?? null));
  }
  return { workbook: writeXlsx([templateSheet(t, rows)]), fileName: templateFileName(t) };
}

interface PlanStudent extends ScopeStudent {
  birthDate: string | null;
  ethnicity: string;
}

/** How many students the plan's template and sign-up list write (the export approval's count). */
export const planStudentRows = async (db: DbOrTx, tenantOrgId: string, planId: string): Promise<number> => (await planStudents(db, tenantOrgId, planId)).list.length;

/** The plan's students in national-template order (grade, class, registration number) with birth date and ethnicity. */
async function planStudents(db: DbOrTx, tenantOrgId: string, planId: string): Promise<{ name: string; list: PlanStudent[] }> {
  const plan = await getPlanInScope(db, tenantOrgId, planId);
  // A re-test plan's template lists the students it admits only.
  const scope = (await planScopeStudents(db, await loadPlanContext(db, plan))).filter((s) => !s.refusal);
  const extra = new Map<string, { birthDate: string | null; ethnicity: string }>();
  // Bounded batches: a parameter list has a limit, and a university plan covers tens of thousands of students.
  for (let i = 0; i < scope.length; i += 5000) {
    const ids = scope.slice(i, i + 5000).map((s) => s.id);
    const rows = await db.select({ id: students.id, birthDate: students.birthDate, ethnicity: students.ethnicity }).from(students).where(inArray(students.id, ids));
    for (const r of rows) extra.set(r.id, r);
  }
  const list = scope.map((s) => ({ ...s, birthDate: extra.get(s.id)?.birthDate ?? null, ethnicity: extra.get(s.id)?.ethnicity ?? '01' }));
  list.sort((a, b) => a.grade - b.grade || (a.classNo ?? a.className).localeCompare(b.classNo ?? b.className) || a.regNo.localeCompare(b.regNo));
  return { name: plan.name, list };
}

/**
 * The national template pre-filled with the plan's students (identity columns as the national template expects:
 * grade code, class number and name, registration number, ethnicity code, name, gender code 1/2, birth date), result
 * columns left to fill, and a notes sheet explaining the codes used (gender, grade, class, ethnicity).
 */
export async function planTemplateWorkbook(db: DbOrTx, tenantOrgId: string, planId: string, t: Translate): Promise<Workbook> {
  const { name, list } = await planStudents(db, tenantOrgId, planId);
  const rows: unknown[][] = [NATIONAL_COLUMNS.map((c) => c.header)];
  for (const s of list) {
    const identity: Partial<Record<NationalColumnKey, unknown>> = {
      gradeNo: nationalCodeFromGrade(s.grade),
      classNo: s.classNo,
      className: s.className,
      regNo: s.regNo,
      ethnicity: s.ethnicity,
      name: s.name,
      gender: s.gender === 'male' ? 1 : 2,
      birthDate: s.birthDate,
    };
    rows.push(NATIONAL_COLUMNS.map((c) => identity[c.key] ?? null));
  }

  const n = (key: string, options: Record<string, unknown> = {}) => t(`physique:template.notes.${key}`, { ...options, ...RAW_OPTS });
  const notes: unknown[][] = [[n('title', { plan: name })], [n('intro')], []];
  const section = (title: string, entries: readonly (readonly [string | number, string])[]) => {
    notes.push([title], [n('code'), n('meaning')], ...entries.map(([code, meaning]) => [code, meaning]), []);
  };
  section(n('gender'), [
    [1, t('physique:gender.male', RAW_OPTS)],
    [2, t('physique:gender.female', RAW_OPTS)],
  ]);
  const grades = [...new Set(list.map((s) => s.grade))].sort((a, b) => a - b);
  section(
    n('grade'),
    grades.map((g) => [nationalCodeFromGrade(g), t(gradeNameKey(g), RAW_OPTS)]),
  );
  const classes = new Map<string, string>();
  for (const s of list) if (s.classNo && !classes.has(s.classNo)) classes.set(s.classNo, s.className);
  section(n('class'), [...classes]);
  const ethnicities = [...new Set(list.map((s) => s.ethnicity))].sort();
  section(
    n('ethnicity'),
    ethnicities.map((code) => [code, ethnicityName(code) ?? code]),
  );
  notes.push([n('results')]);

  const workbook = writeXlsx([
    templateSheet(t, rows),
    { name: n('sheetName'), rows: notes, columnWidths: [16, 40], textColumns: [0] },
  ]);
  return { workbook, fileName: `${t('physiqueResults:import.templateFileName', RAW_OPTS)}-${safeName(name)}.xlsx` };
}

const safeName = (name: string) => name.replace(/[\\/:*?"<>|\s]+/g, '-');

/** The plan's sign-up list (.xlsx): every student in its scope with class, result status, total and level. */
export async function signUpWorkbook(db: DbOrTx, tenantOrgId: string, planId: string, t: Translate): Promise<Workbook> {
  const { name, list } = await planStudents(db, tenantOrgId, planId);
  const results = new Map(
    (
      await db
        .select({
          studentId: physiqueResults.studentId,
          complete: physiqueResults.complete,
          total: physiqueResults.total,
          level: physiqueResults.level,
          invalid: physiqueResults.invalid,
        })
        .from(physiqueResults)
        .where(eq(physiqueResults.planId, planId))
    ).map((r) => [r.studentId, r]),
  );
  const h = (key: string) => t(`testPlansUi:signUp.${key}`, RAW_OPTS);
  const rows: unknown[][] = [
    [h('name'), h('regNo'), h('gender'), t('physique:template.column.gradeNo', RAW_OPTS), h('className'), h('status'), h('total'), h('level'), h('invalid')],
  ];
  for (const s of list) {
    const r = results.get(s.id);
    const status = !r ? 'notTested' : r.complete ? 'complete' : 'incomplete';
    rows.push([
      s.name,
      s.regNo,
      t(`physique:gender.${s.gender}`, RAW_OPTS),
      t(gradeNameKey(s.grade), RAW_OPTS),
      s.className,
      t(`testPlans:signUpStatus.${status}`, RAW_OPTS),
      r?.total ?? null,
      r?.level ? t(`physique:level.${r.level}`, RAW_OPTS) : null,
      r?.invalid ? t('physiqueResults:export.invalid', RAW_OPTS) : null,
    ]);
  }
  const workbook = writeXlsx([{ name: h('sheetName'), rows, columnWidths: [10, 22, 6, 10, 14, 10, 8, 8, 8], textColumns: [1] }]);
  return { workbook, fileName: `${h('sheetName')}-${safeName(name)}.xlsx` };
}
