import { and, asc, eq, sql } from 'drizzle-orm';
import { PREVIEW_REJECTED_ROWS } from '@/domain/people/people-import';
import { PREVIEW_UPDATE_ROWS } from '@/domain/people/import-updates';
import type { Translate } from '@/domain/physique-results/export-layout';
import { CLASS_IMPORT_MAX_ROWS, CLASS_SIZE_HEADER, classColumns, type ClassColumn, type ClassColumnKey, type ClassImportPreview } from '@/domain/school/class-import';
import { classSaveSchema, type ClassForm } from '@/domain/school/classes';
import type { ClassDetail } from '@/domain/school/types';
import type { Db, DbOrTx } from '../../db/client';
import { classes, colleges, grades, majors, teachers } from '../../db/schema/school';
import { isAppError } from '../../lib/app-error';
import { audit } from '../../lib/audit';
import { importRows, readImportSheet, updateTracker } from '../../lib/import-rows';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';
import type { Actor } from '../../plugins/tenant';
import { classRows, createClass, updateClass, type ClassQuery } from './class.service';
import { gradeNameKey } from '@/domain/school/grade-name';
import { gradeNoOfName } from '@/domain/people/people-import';
import type { SchoolFamily } from '@/domain/menus/access';

const RAW = { interpolation: { escapeValue: false } };

/** Where a field of the save schema sits in the workbook. */
const COLUMN_OF: Record<string, ClassColumnKey> = {
  gradeId: 'gradeNo',
  code: 'code',
  name: 'name',
  classNo: 'classNo',
  majorId: 'major',
  headTeacherId: 'headTeacher',
  peTeacherId: 'peTeacher',
};
const LABEL: Record<ClassColumnKey, string> = {
  gradeNo: 'school:class.grade',
  enrolYear: 'school:grade.enrolYear',
  major: 'school:class.major',
  code: 'school:class.code',
  name: 'school:class.name',
  classNo: 'school:class.classNo',
  headTeacher: 'school:class.headTeacher',
  peTeacher: 'school:class.peTeacher',
};

export interface Workbook {
  workbook: Buffer;
  fileName: string;
}

const sheet = (t: Translate, rows: unknown[][], columns: readonly ClassColumn[]) => ({
  name: t('school:import.sheetName', RAW),
  rows,
  columnWidths: columns.map((c) => (c.key === 'name' || c.key === 'major' ? 20 : 12)),
  // Codes and numbers typed into the template stay as typed.
  textColumns: columns.flatMap((c, i) => (c.key === 'classNo' ? [i] : [])),
});

/** The import template (docs/product-rules.md#class-import): the Chinese headers and one example row. */
export function classTemplate(family: SchoolFamily, t: Translate): Workbook {
  const columns = classColumns(family);
  const example: Record<ClassColumnKey, unknown> = {
    gradeNo: '三年级',
    enrolYear: family === 'gx' ? 2025 : 2024,
    major: '体育教育',
    code: 1,
    name: family === 'gx' ? '体教2501班' : '三年级1班',
    classNo: family === 'gx' ? '2501' : '0301',
    headTeacher: '',
    peTeacher: '',
  };
  const rows = [columns.map((c) => c.header), columns.map((c) => example[c.key])];
  return { workbook: writeXlsx([sheet(t, rows, columns)]), fileName: `${t('school:import.templateFileName', RAW)}.xlsx` };
}

/** The classes of the list's filters as a workbook with the import's columns (so it can be imported elsewhere) plus the head count. */
export async function classExport(db: DbOrTx, actor: Actor, family: SchoolFamily, q: Omit<ClassQuery, 'current' | 'size'>, t: Translate): Promise<Workbook> {
  const columns = classColumns(family);
  const rows = await classRows(db, actor, q);
  const cell = (r: ClassDetail, key: ClassColumnKey): unknown => {
    switch (key) {
      case 'gradeNo':
        return t(gradeNameKey(r.gradeNo), RAW);
      case 'enrolYear':
        return r.enrolYear;
      case 'major':
        return r.majorName ?? '';
      case 'headTeacher':
        return r.headTeacherName ?? '';
      case 'peTeacher':
        return r.peTeacherName ?? '';
      default:
        return r[key] ?? '';
    }
  };
  const body = rows.map((r) => [...columns.map((c) => cell(r, c.key)), r.studentCount]);
  const head = [...columns.map((c) => c.header), CLASS_SIZE_HEADER];
  return { workbook: writeXlsx([sheet(t, [head, ...body], columns)]), fileName: `${t('school:import.exportName', RAW)}.xlsx` };
}

/** Grades, majors and staff of the tenant, indexed the ways a row names them. */
async function lookups(db: DbOrTx, actor: Actor, t: Translate) {
  const org = actor.tenantOrgId;
  const [gradeRows, majorRows, teacherRows] = await Promise.all([
    db.select({ id: grades.id, gradeNo: grades.gradeNo, enrolYear: grades.enrolYear }).from(grades).where(and(eq(grades.orgId, org), eq(grades.graduated, false))),
    db.select({ id: majors.id, code: majors.code, name: majors.name }).from(majors).innerJoin(colleges, eq(colleges.id, majors.collegeId)).where(eq(majors.orgId, org)).orderBy(asc(majors.code)),
    db.select({ id: teachers.id, name: teachers.name, workNo: teachers.workNo }).from(teachers).where(and(eq(teachers.orgId, org), eq(teachers.enabled, true))),
  ]);
  // A grade is written as its number or its name, in the request's language or in Chinese.
  const gradeNoOf = (text: string): number | null => {
    if (/^\d{1,2}$/.test(text)) return Number(text);
    for (let no = 1; no <= 16; no++) {
      if (text === t(gradeNameKey(no), RAW) || text === t(gradeNameKey(no), { ...RAW, lng: 'zh_cn' })) return no;
    }
    // The other names schools write (初一…初三).
    return gradeNoOfName(text);
  };
  const one = <T>(list: readonly T[]): T | 'none' | 'many' => (list.length === 1 ? list[0] : list.length === 0 ? 'none' : 'many');
  return {
    grade: (gradeText: string, yearText: string) => {
      const no = gradeText ? gradeNoOf(gradeText) : null;
      if (gradeText && no === null) return 'none' as const;
      const year = yearText ? Number(yearText) : null;
      return one(gradeRows.filter((g) => (no === null || g.gradeNo === no) && (year === null || g.enrolYear === year)));
    },
    major: (text: string) => one(majorRows.filter((m) => m.name === text || m.code === text)),
    teacher: (text: string) => {
      const byNo = teacherRows.filter((x) => x.workNo === text);
      return byNo.length > 0 ? one(byNo) : one(teacherRows.filter((x) => x.name === text));
    },
    teacherName: new Map(teacherRows.map((x) => [x.id, x.name])),
  };
}

/** The fields a class import may change on an existing class, and their labels. */
const CLASS_FIELDS = ['name', 'classNo', 'headTeacherId', 'peTeacherId'] as const;
const CLASS_FIELD_LABEL: Record<(typeof CLASS_FIELDS)[number], string> = {
  name: 'school:class.name',
  classNo: 'school:class.classNo',
  headTeacherId: 'school:class.headTeacher',
  peTeacherId: 'school:class.peTeacher',
};


/**
 * Class import (docs/product-rules.md#class-import), all or nothing on the import kit (server/lib/import-rows.ts):
 * every row goes through the form's schema and the service's rules (grade of the school, code 1–99 and free in the
 * grade, also against earlier rows of the file) in one transaction; one refused row rolls everything back and the
 * answer lists every refused row with its reason. A row naming an existing class (grade, major and code) updates it
 * only with `updateExisting` (docs/product-rules.md#import-updates), otherwise it is refused; a row that changes
 * nothing is skipped. A dry run does the same work, rolls it back and answers the counts, the refused rows and every update.
 */
export async function importClasses(
  db: Db,
  actor: Actor,
  family: SchoolFamily,
  file: { fileName: string; buffer: Buffer },
  t: Translate,
  options: { dryRun?: boolean; updateExisting?: boolean; onProgress?: (done: number, total: number) => void | Promise<void> } = {},
): Promise<Workbook & { success: number; failure: number; preview: ClassImportPreview }> {
  const sheet = await readImportSheet(
    file,
    { columns: classColumns(family), maxRows: CLASS_IMPORT_MAX_ROWS, messages: { headerNotFound: 'school:import.headerNotFound', tooManyRows: 'school:import.tooManyRows' } },
    t,
  );
  const find = await lookups(db, actor, t);
  const updates = updateTracker(t, Boolean(options.updateExisting));
  let created = 0;
  const touched = new Set<string>();

  const result = await importRows(db, sheet, {
    t,
    labels: LABEL,
    dryRun: options.dryRun,
    onProgress: options.onProgress,
    fileName: t('school:import.fileName', RAW),
    async each({ row }, { text, fail }, tx) {
      const gradeKey: ClassColumnKey = family === 'gx' ? 'enrolYear' : 'gradeNo';
      if (family === 'gx' && !text('enrolYear')) return fail('enrolYear', 'validation:class.gradeRequired');
      const grade = find.grade(text('gradeNo'), text('enrolYear'));
      if (grade === 'none' || (grade === 'many' && !text('gradeNo'))) {
        return fail(gradeKey, text('gradeNo') || text('enrolYear') ? 'school:import.gradeNotFound' : 'validation:class.gradeRequired');
      }
      if (grade === 'many') return fail('enrolYear', 'school:import.gradeAmbiguous');
      const refs: Partial<Record<'majorId' | 'headTeacherId' | 'peTeacherId', string>> = {};
      const named: [keyof typeof refs, ClassColumnKey, (s: string) => { id: string } | 'none' | 'many'][] = [
        ['majorId', 'major', find.major],
        ['headTeacherId', 'headTeacher', find.teacher],
        ['peTeacherId', 'peTeacher', find.teacher],
      ];
      for (const [field, key, lookup] of named) {
        const value = text(key);
        if (!value || (key === 'major' && family !== 'gx')) continue;
        const hit = lookup(value);
        if (hit === 'none' || hit === 'many') return fail(key, hit === 'none' ? 'school:import.notFound' : 'school:import.ambiguous', { value });
        refs[field] = hit.id;
      }
      const form: ClassForm = { gradeId: grade.id, code: (text('code') || undefined) as unknown as number, name: text('name'), classNo: text('classNo'), ...refs };
      const parsed = classSaveSchema.safeParse(form);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return fail(COLUMN_OF[String(issue.path[0])] ?? 'name', issue.message);
      }
      const [existing] = await tx
        .select({ id: classes.id, version: classes.version, name: classes.name, classNo: classes.classNo, headTeacherId: classes.headTeacherId, peTeacherId: classes.peTeacherId })
        .from(classes)
        .where(
          and(
            eq(classes.orgId, actor.tenantOrgId),
            eq(classes.gradeId, parsed.data.gradeId),
            eq(classes.code, parsed.data.code),
            family === 'gx' && parsed.data.majorId ? eq(classes.majorId, parsed.data.majorId) : sql`${classes.majorId} is null`,
          ),
        );
      try {
        if (existing) {
          const after = { name: parsed.data.name, classNo: parsed.data.classNo || null, headTeacherId: parsed.data.headTeacherId || null, peTeacherId: parsed.data.peTeacherId || null };
          const changes = updates.diff(existing, after, CLASS_FIELDS, CLASS_FIELD_LABEL, (f, v) =>
            v == null ? '' : f === 'headTeacherId' || f === 'peTeacherId' ? (find.teacherName.get(String(v)) ?? '') : String(v),
          );
          // An earlier row of this file made or changed it: the form's refusal stands, as without the option.
          const verdict = updates.judge(row, existing.name, changes, touched.has(existing.id));
          if (verdict === 'unchanged') return 'unchanged';
          if (verdict === 'refused') return fail('code', 'validation:class.codeTaken');
          touched.add(existing.id);
          const change = await updateClass(tx, actor, existing.id, { ...parsed.data, version: existing.version });
          await audit(tx, actor, { action: 'import', entity: 'class', entityId: existing.id, before: change.before, after: change.after });
        } else {
          const made = await createClass(tx, actor, parsed.data);
          touched.add(made.id);
          await audit(tx, actor, { action: 'import', entity: 'class', entityId: made.id, before: null, after: made });
          created++;
        }
      } catch (error) {
        if (!isAppError(error) || !error.field) throw error;
        return fail(COLUMN_OF[error.field] ?? 'name', error.i18nKey, error.params);
      }
    },
  });
  const preview: ClassImportPreview = {
    rows: sheet.rows.length,
    create: created,
    update: updates.updates.length,
    unchanged: result.unchanged,
    rejected: result.failure,
    failures: result.failures.slice(0, PREVIEW_REJECTED_ROWS).map((f) => ({ row: f.row, reason: f.reason })),
    updates: updates.updates.slice(0, PREVIEW_UPDATE_ROWS),
  };
  return { workbook: result.workbook, fileName: result.fileName, success: result.success, failure: result.failure, preview };
}
