import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import {
  CERTIFICATE_LABELS,
  ETHNICITY_NAMES,
  GENDER_LABELS,
  PARENT_GROUPS,
  RELATION_LABELS,
  peopleColumns,
  type PeopleColumn,
  type PeopleImportKind,
} from '@/domain/people/people-import';
import { PARENT_RELATIONS, type ParentRelation } from '@/domain/people/parents';
import { ethnicityName } from '@/domain/physique/national-template';
import type { Translate } from '@/domain/physique-results/export-layout';
import type { DbOrTx } from '../../db/client';
import { memberships, roles, users } from '../../db/schema/auth';
import { classes, grades, parentStudents, parents, students, teachers } from '../../db/schema/school';
import { exportReveals } from '../../lib/sensitive';
import { userWhere } from '../users/users.service';
import { parentWhere, withChildren } from './parent.service';
import { staffAccount, staffRoleName, staffWhere } from './staff.service';
import { studentWhere, type StudentQuery } from './student.service';
import { writeXlsx } from '../../lib/spreadsheet/xlsx-writer';
import { xlsxStream } from '../../lib/spreadsheet/xlsx-stream';
import type { ListExportColumn, ListSheet } from '../../lib/list-export';
import type { Actor } from '../../plugins/tenant';
import { RAW } from './people-import-rows';
import { gradeNameKey } from '@/domain/school/grade-name';

/** Rows read from the database per batch of an export. */
const BATCH = 2000;
/** Template rows the drop-down lists cover. */
const TEMPLATE_ROWS = 5000;
const LISTS_SHEET = '下拉选项';

const gradeName = (t: Translate, no: number) => t(gradeNameKey(no), { ...RAW, lng: 'zh_cn' });

/** The template of a people import: Chinese headers, one example row, drop-down lists on a hidden sheet. */
export async function peopleTemplate(db: DbOrTx, actor: Actor, kind: PeopleImportKind, t: Translate): Promise<{ workbook: Buffer; fileName: string }> {
  const columns = peopleColumns(kind);
  const org = actor.tenantOrgId;
  const lists: Record<NonNullable<PeopleColumn['list']>, string[]> = {
    gender: Object.values(GENDER_LABELS),
    ethnicity: [...ETHNICITY_NAMES],
    grade: [],
    class: [],
    relation: PARENT_RELATIONS.map((r) => RELATION_LABELS[r]),
    role: [],
    certificate: Object.values(CERTIFICATE_LABELS),
  };
  if (kind === 'student') {
    const rows = await db
      .select({ gradeNo: grades.gradeNo, name: classes.name })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.gradeId))
      .where(and(eq(classes.orgId, org), eq(grades.graduated, false)))
      .orderBy(asc(grades.gradeNo), asc(classes.code));
    lists.grade = [...new Set(rows.map((r) => gradeName(t, r.gradeNo)))];
    lists.class = [...new Set(rows.map((r) => r.name))];
  } else {
    lists.role = (await db.select({ name: roles.name }).from(roles).where(and(eq(roles.orgId, org), eq(roles.enabled, true))).orderBy(asc(roles.createdAt))).map((r) => r.name);
  }
  const example: Record<string, unknown> =
    kind === 'student'
      ? {
          name: '张小明',
          regNo: 'G110101201409010012',
          studentNo: '20240101',
          gender: '男',
          birthDate: '2014-09-01',
          ethnicity: '汉族',
          grade: lists.grade[0] ?? '一年级',
          className: lists.class[0] ?? '一年级1班',
          parentName: '张伟',
          parentMobile: '13800138000',
          parentRelation: '父亲',
          parentGender: '男',
        }
      : { name: '李老师', accountNum: 'lilaoshi01', password: 'Tiyu2026', role: lists.role[0] ?? '', mobile: '13900139000', gender: '女', workNo: 'T001' };
  const used = [...new Set(columns.flatMap((c) => (c.list ? [c.list] : [])))];
  const listColumn = (list: string) => used.indexOf(list as (typeof used)[number]);
  const longest = Math.max(1, ...used.map((l) => lists[l].length));
  const listRows = Array.from({ length: longest }, (_, i) => used.map((l) => lists[l][i] ?? null));
  const colName = (i: number) => String.fromCharCode(65 + i);
  const workbook = writeXlsx([
    {
      name: t(`people:import.sheetName.${kind}`, RAW),
      rows: [columns.map((c) => c.header), columns.map((c) => example[c.key] ?? '')],
      columnWidths: columns.map((c) => c.width ?? 12),
      textColumns: columns.flatMap((c, i) => (c.text ? [i] : [])),
      validations: columns.flatMap((c, i) =>
        c.list && lists[c.list].length > 0
          ? [{ column: i, firstRow: 2, lastRow: TEMPLATE_ROWS + 1, source: `'${LISTS_SHEET}'!$${colName(listColumn(c.list))}$1:$${colName(listColumn(c.list))}$${lists[c.list].length}` }]
          : [],
      ),
    },
    { name: LISTS_SHEET, rows: listRows, hidden: true },
  ]);
  return { workbook, fileName: `${t(`people:import.templateName.${kind}`, RAW)}.xlsx` };
}

/** The student list's filters (student.service.ts studentWhere). */
export type StudentExportFilter = Omit<StudentQuery, 'current' | 'size'>;

/** How many rows the students' export of these filters writes (the export approval's count). */
export async function studentExportRows(db: DbOrTx, actor: Actor, f: StudentExportFilter): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(await studentWhere(db, actor, f));
  return row?.n ?? 0;
}

/** How many rows the staff's or accounts' export of these filters writes. */
export async function accountExportRows(db: DbOrTx, actor: Actor, kind: 'staff' | 'user', f: AccountExportFilter): Promise<number> {
  const org = actor.tenantOrgId;
  if (kind === 'staff') {
    const where = await staffWhere(db, actor, f);
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(teachers).leftJoin(users, eq(users.id, teachers.userId)).leftJoin(memberships, staffAccount).where(where);
    return row?.n ?? 0;
  }
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(teachers, and(eq(teachers.userId, users.id), eq(teachers.orgId, org)))
    .where(userWhere(actor, f));
  return row?.n ?? 0;
}

/** How many rows the parents' export writes: one per child. */
export async function parentExportRows(db: DbOrTx, actor: Actor, f: { keyword?: string; studentKeyword?: string }): Promise<number> {
  const where = await parentWhere(db, actor, f);
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(parents).innerJoin(parentStudents, eq(parentStudents.parentId, parents.id)).where(where);
  return row?.n ?? 0;
}

/** Students of the list's filters as a workbook that imports again, streamed in batches (keyset on 学籍号). */
export async function studentExport(db: DbOrTx, actor: Actor, key: string, f: StudentExportFilter, t: Translate, now: Date) {
  // The parents' mobiles it writes unmasked are logged as one view when the file ends.
  const shown = exportReveals(db, actor, key, now);
  const where = await studentWhere(db, actor, f);
  const columns = peopleColumns('student');
  async function* batches() {
    let after = '';
    try {
      for (;;) {
        const rows = await db
          .select({
            id: students.id,
            name: students.name,
            regNo: students.regNo,
            studentNo: students.studentNo,
            gender: students.gender,
            birthDate: students.birthDate,
            ethnicity: students.ethnicity,
            gradeNo: grades.gradeNo,
            className: classes.name,
          })
          .from(students)
          .innerJoin(classes, eq(classes.id, students.classId))
          .innerJoin(grades, eq(grades.id, classes.gradeId))
          .where(and(where, after ? gt(students.regNo, after) : undefined))
          .orderBy(asc(students.regNo))
          .limit(BATCH);
        if (rows.length === 0) return;
        after = rows[rows.length - 1].regNo;
        const links = await db
          .select({ studentId: parentStudents.studentId, parentId: parents.id, name: parents.name, mobile: parents.mobile, gender: parents.gender, relation: parentStudents.relation })
          .from(parentStudents)
          .innerJoin(parents, eq(parents.id, parentStudents.parentId))
          .where(
            inArray(
              parentStudents.studentId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(asc(parents.createdAt));
        const parentsOf = new Map<string, typeof links>();
        for (const l of links) parentsOf.set(l.studentId, [...(parentsOf.get(l.studentId) ?? []), l]);
        yield rows.map((s) => {
          const values: Record<string, unknown> = {
            name: s.name,
            regNo: s.regNo,
            studentNo: s.studentNo ?? '',
            gender: GENDER_LABELS[s.gender],
            birthDate: s.birthDate ?? '',
            ethnicity: ethnicityName(s.ethnicity) ?? s.ethnicity,
            grade: gradeName(t, s.gradeNo),
            className: s.className,
          };
          (parentsOf.get(s.id) ?? []).slice(0, PARENT_GROUPS.length).forEach((p, i) => {
            const g = PARENT_GROUPS[i];
            values[g.name] = p.name;
            values[g.mobile] = shown.shown('mobile', p.mobile, { id: p.parentId, name: p.name });
            values[g.relation] = RELATION_LABELS[p.relation as ParentRelation] ?? p.relation;
            values[g.gender] = GENDER_LABELS[p.gender];
          });
          return columns.map((c) => values[c.key] ?? '');
        });
        if (rows.length < BATCH) return;
      }
    } finally {
      await shown.log();
    }
  }
  const sheet: ListSheet = {
    name: t('people:import.sheetName.student', RAW),
    columns: columns.map((c) => ({ header: c.header, width: c.width, text: c.text, list: STUDENT_LIST_COLUMNS[c.key] })),
    rows: batches(),
  };
  return { sheet, fileName: `${t('people:import.exportName.student', RAW)}.xlsx` };
}

/**
 * The student list's column (src/features/people/students/student-screens.tsx) each export column shows, so a column
 * the user hides on the list is left out of the export (server/lib/list-export.ts). Birth date, ethnicity and grade are
 * not on the list: the export keeps them, in their places, for the re-import.
 */
const STUDENT_LIST_COLUMNS: Partial<Record<string, string>> = {
  name: 'name',
  regNo: 'regNo',
  studentNo: 'studentNo',
  gender: 'gender',
  className: 'className',
  ...Object.fromEntries(PARENT_GROUPS.flatMap((g) => [g.name, g.mobile, g.relation, g.gender].map((k) => [k, 'parents']))),
};

/** The filters of the staff and accounts lists an export follows. */
export interface AccountExportFilter {
  keyword?: string;
  roleId?: string;
  classId?: string;
  enabled?: 'true' | 'false';
}

/**
 * Staff or accounts of the organisation as a workbook that imports again (without passwords), streamed: the list's
 * filters and data scope (staff: `staffWhere`, the staff list's own), keyset on the row id.
 */
export async function accountExport(db: DbOrTx, actor: Actor, kind: 'staff' | 'user', key: string, f: AccountExportFilter, t: Translate, now: Date) {
  const org = actor.tenantOrgId;
  const columns = peopleColumns(kind);
  // The mobiles and ID numbers it writes unmasked are logged as one view when the file ends.
  const shown = exportReveals(db, actor, key, now);
  const where =
    kind === 'staff'
      ? await staffWhere(db, actor, f)
      : userWhere(actor, f);
  const idColumn = kind === 'staff' ? teachers.id : memberships.id;
  async function* batches() {
    let after = '';
    try {
      for (;;) {
        const fields = {
          id: idColumn,
          accountNum: users.accountNum,
          name: kind === 'staff' ? teachers.name : users.name,
          mobile: kind === 'staff' ? teachers.mobile : users.mobile,
          role: staffRoleName as SQL<string | null>,
          gender: teachers.gender,
          workNo: teachers.workNo,
          idCard: teachers.idCard,
          certificateType: teachers.certificateType,
          certificateNo: teachers.certificateNo,
        };
        const rows =
          kind === 'staff'
            ? await db
                .select(fields)
                .from(teachers)
                .leftJoin(users, eq(users.id, teachers.userId))
                .leftJoin(memberships, staffAccount)
                .where(and(where, after ? gt(teachers.id, after) : undefined))
                .orderBy(asc(teachers.id))
                .limit(BATCH)
            : await db
                .select(fields)
                .from(memberships)
                .innerJoin(users, eq(users.id, memberships.userId))
                .leftJoin(teachers, and(eq(teachers.userId, users.id), eq(teachers.orgId, org)))
                .where(and(where, after ? gt(memberships.id, after) : undefined))
                .orderBy(asc(memberships.id))
                .limit(BATCH);
        if (rows.length === 0) return;
        after = String(rows[rows.length - 1].id);
        yield rows.map((r) => {
          const person = { id: String(r.id), name: r.name ?? '' };
          const values: Record<string, unknown> = {
            ...r,
            password: '',
            mobile: shown.shown('mobile', r.mobile, person),
            idCard: shown.shown('idNumber', r.idCard, person),
            certificateNo: shown.shown('idNumber', r.certificateNo, person),
            gender: r.gender ? GENDER_LABELS[r.gender] : '',
            certificateType: r.certificateType ? (CERTIFICATE_LABELS[r.certificateType as keyof typeof CERTIFICATE_LABELS] ?? r.certificateType) : '',
          };
          return columns.map((c) => values[c.key] ?? '');
        });
        if (rows.length < BATCH) return;
      }
    } finally {
      await shown.log();
    }
  }
  return { stream: xlsxStream(t(`people:import.sheetName.${kind}`, RAW), columns.map((c) => ({ header: c.header, width: c.width, text: c.text })), batches()), fileName: `${t(`people:import.exportName.${kind}`, RAW)}.xlsx` };
}

/**
 * Columns of the parent export: one row per parent and child. Each names the parent list's column it shows
 * (src/features/people/parents/parent-screens.tsx), so a column the user hides is left out (server/lib/list-export.ts).
 */
const PARENT_EXPORT_COLUMNS: ListExportColumn[] = [
  { header: '家长姓名', width: 12, list: 'name' },
  { header: '性别', width: 6, list: 'gender' },
  { header: '手机号', width: 14, text: true, list: 'mobile' },
  { header: '孩子姓名', width: 12, list: 'children' },
  { header: '学籍号', width: 22, text: true, list: 'children' },
  { header: '班级', width: 14, list: 'children' },
  { header: '与学生关系', width: 10, list: 'children' },
];

/** Parents of the list's filters and data scope, one row per child, streamed in batches (keyset on the parent id). */
export async function parentExport(db: DbOrTx, actor: Actor, key: string, f: { keyword?: string; studentKeyword?: string }, t: Translate, now: Date) {
  const where = await parentWhere(db, actor, f);
  // The mobiles it writes unmasked are logged as one view when the file ends.
  const shown = exportReveals(db, actor, key, now);
  async function* batches() {
    let after = '';
    try {
      for (;;) {
        const rows = await db
          .select({ id: parents.id, name: parents.name, gender: parents.gender, mobile: parents.mobile, createdAt: parents.createdAt, version: parents.version })
          .from(parents)
          .where(and(where, after ? gt(parents.id, after) : undefined))
          .orderBy(asc(parents.id))
          .limit(BATCH);
        if (rows.length === 0) return;
        after = rows[rows.length - 1].id;
        const records = await withChildren(db, rows);
        yield records.flatMap((p) =>
          p.children.map((c) => [p.name, GENDER_LABELS[p.gender], shown.shown('mobile', p.mobile, p) ?? '', c.name, c.regNo, c.className, RELATION_LABELS[c.relation] ?? c.relation]),
        );
        if (rows.length < BATCH) return;
      }
    } finally {
      await shown.log();
    }
  }
  const sheet: ListSheet = { name: t('people:import.sheetName.parent', RAW), columns: PARENT_EXPORT_COLUMNS, rows: batches() };
  return { sheet, fileName: `${t('people:import.exportName.parent', RAW)}.xlsx` };
}

