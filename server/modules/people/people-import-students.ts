import { and, eq, inArray } from 'drizzle-orm';
import { parentSaveSchema } from '@/domain/people/parents';
import {
  PARENT_GROUPS,
  STUDENT_COLUMNS,
  genderOfRelation,
  gradeNoOfName,
  parseEthnicity,
  parseGender,
  parseRelation,
  type StudentColumnKey,
} from '@/domain/people/people-import';
import { studentSaveSchema } from '@/domain/people/students';
import { allowsUpdates, studentChangeRefusal, type FieldChange } from '@/domain/people/import-updates';
import type { Db, DbOrTx } from '../../db/client';
import { physiqueResults, testRecords } from '../../db/schema/physique';
import { classes, grades, parents, parentStudents, students } from '../../db/schema/school';
import type { CellValue } from '../../lib/spreadsheet/xlsx-reader';
import { copyLines, withBulkTransaction, type BulkSession } from '../physique-results/bulk-session';
import { RESTORE_FK_TRIGGERS, SKIP_FK_TRIGGERS } from '../../db/replication-role';
import { checkRows, rowReason, updateTracker, type RowFailure } from '../../lib/import-rows';
import { RAW, type ImportContext, type ImportPlan, type ParsedFile } from './people-import-rows';
import { gradeNameKey } from '@/domain/school/grade-name';

/** A child id the parent schema accepts while the student does not exist yet (the write puts the real one). */
const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';
const HEADER: Record<StudentColumnKey, string> = Object.fromEntries(STUDENT_COLUMNS.map((c) => [c.key, c.header])) as Record<StudentColumnKey, string>;
/** Where a field of the student schema sits in the workbook. */
const STUDENT_FIELD: Record<string, StudentColumnKey> = {
  name: 'name',
  regNo: 'regNo',
  studentNo: 'studentNo',
  classId: 'className',
  gender: 'gender',
  birthDate: 'birthDate',
  ethnicity: 'ethnicity',
};

type StudentData = { name: string; regNo: string; studentNo: string | null; classId: string; gender: 'male' | 'female'; birthDate: string | null; ethnicity: string };
type ParentData = { name: string; gender: 'male' | 'female'; mobile: string; row: number; children: { regNo: string; relation: string }[] };

/** The classes of the organisation's current grades, by the ways a row names them: grade (number, name or enrolment year) + class name or code. */
async function classLookup(ctx: ImportContext) {
  const rows = await ctx.db
    .select({ id: classes.id, name: classes.name, code: classes.code, gradeNo: grades.gradeNo, enrolYear: grades.enrolYear })
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(and(eq(classes.orgId, ctx.actor.tenantOrgId), eq(grades.graduated, false)));
  // Each grade's name in the request's language, translated once (not once per class and row looked up).
  const gradeNames = new Map([...new Set(rows.map((c) => c.gradeNo))].map((n) => [n, ctx.t(gradeNameKey(n))]));
  const gradeMatches = (text: string, g: { gradeNo: number; enrolYear: number }) => {
    if (/^\d{4}级?$/.test(text)) return g.enrolYear === Number(text.slice(0, 4));
    if (/^\d{1,2}$/.test(text)) return g.gradeNo === Number(text);
    return gradeNoOfName(text) === g.gradeNo || text === gradeNames.get(g.gradeNo);
  };
  const cache = new Map<string, string | 'none' | 'many'>();
  const names = rows.map((c) => [c.id, c.name] as const);
  const find = (gradeText: string, classText: string): string | 'none' | 'many' => {
    const key = `${gradeText}\u0000${classText}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const inGrade = rows.filter((c) => gradeMatches(gradeText, c));
    let found = inGrade.filter((c) => c.name === classText);
    if (found.length === 0 && /^\d{1,2}(班)?$/.test(classText)) found = inGrade.filter((c) => c.code === Number(classText.replace('班', '')));
    const answer = found.length === 1 ? found[0].id : found.length === 0 ? 'none' : 'many';
    cache.set(key, answer);
    return answer;
  };
  return { find, names };
}

/** An accepted student row as the dry run checked it: what to write and the state of the record it expects. */
export interface PlannedStudent extends StudentData {
  row: number;
  /** The existing student it updates (id and version seen by the dry run); null for a new one. */
  expectId: string | null;
  expectVersion: number | null;
  /** The fields it changes, as they were (the audit's before). */
  before?: Partial<Record<StudentField, unknown>>;
}
/** A parent the accepted rows name: what to write and what the dry run saw under its mobile (null: none). */
export interface PlannedParent {
  mobile: string;
  name: string;
  gender: 'male' | 'female';
  expect: { name: string; gender: string } | null;
}
export interface PlannedLink {
  mobile: string;
  regNo: string;
  relation: string;
}

/**
 * What a student dry run keeps for its commit (docs/product-rules.md#people-import: the commit writes these rows, it
 * does not read the file again): the accepted rows with the state they were checked against, the refused rows for the
 * failures workbook.
 */
export interface StudentPlanFile {
  v: 1;
  header: CellValue[];
  textColumns: number[];
  cells: Record<number, CellValue[]>;
  students: PlannedStudent[];
  parents: PlannedParent[];
  links: PlannedLink[];
  rejected: RowFailure[];
  unchanged: number;
  schoolYearId?: string;
  semesterId?: string;
}

const STUDENT_FIELDS = ['name', 'studentNo', 'gender', 'birthDate', 'ethnicity', 'classId'] as const;
type StudentField = (typeof STUDENT_FIELDS)[number];
const FIELD_LABEL: Record<StudentField, string> = {
  name: 'people:students.name',
  studentNo: 'people:students.studentNo',
  gender: 'people:students.gender',
  birthDate: 'people:students.birthDate',
  ethnicity: 'people:students.ethnicity',
  classId: 'people:students.className',
};

interface ExistingStudent extends Record<StudentField, unknown> {
  id: string;
  version: number;
  className: string;
}

/** Checks every row of a student file (with its parent columns) against the schemas and the database; writes nothing. */
export async function planStudents(file: ParsedFile, ctx: ImportContext): Promise<ImportPlan & { plan: StudentPlanFile }> {
  const org = ctx.actor.tenantOrgId;
  const updatesAllowed = allowsUpdates(ctx.extra);
  const updates = updateTracker(ctx.t, updatesAllowed);
  const [classOf, existing, existingParents, links] = await Promise.all([
    classLookup(ctx),
    ctx.db
      .select({
        id: students.id,
        regNo: students.regNo,
        name: students.name,
        studentNo: students.studentNo,
        gender: students.gender,
        birthDate: students.birthDate,
        ethnicity: students.ethnicity,
        classId: students.classId,
        className: classes.name,
        version: students.version,
      })
      .from(students)
      .innerJoin(classes, eq(classes.id, students.classId))
      .where(eq(students.orgId, org)),
    ctx.db.select({ id: parents.id, mobile: parents.mobile, name: parents.name, gender: parents.gender }).from(parents).where(eq(parents.orgId, org)),
    ctx.db
      .select({ mobile: parents.mobile, studentId: parentStudents.studentId, relation: parentStudents.relation })
      .from(parentStudents)
      .innerJoin(parents, eq(parents.id, parentStudents.parentId))
      .where(eq(parents.orgId, org)),
  ]);
  const byRegNo = new Map<string, ExistingStudent>(existing.map((s) => [s.regNo, s]));
  const parentByMobile = new Map(existingParents.map((p) => [p.mobile, p]));
  const linkOf = new Map(links.map((l) => [`${l.mobile}\u0000${l.studentId}`, l.relation]));
  const className = new Map<string, string>([...existing.map((s) => [s.classId, s.className] as const), ...classOf.names]);
  const shown = (field: StudentField | 'parent', value: unknown): string => {
    if (value == null || value === '') return '';
    if (field === 'gender') return ctx.t(`people:students.genders.${String(value)}`, RAW);
    if (field === 'classId') return className.get(String(value)) ?? String(value);
    if (field === 'ethnicity') return ctx.t(`people:students.nation.${String(value)}`, RAW);
    return String(value);
  };
  const relationText = (r: string) => ctx.t(`people:students.relations.${r}`, RAW);

  const accepted = new Map<string, PlannedStudent>();
  const rowParentsOf = new Map<string, ParentData[]>();
  const parentsOf = new Map<string, ParentData>();
  const cells: Record<number, CellValue[]> = {};
  let update = 0;

  const checked = await checkRows<StudentColumnKey>(file, { t: ctx.t, onProgress: ctx.onProgress }, (r, { text, raw, date, has, fail: reject }) => {
    const regNoRaw = raw('regNo');
    if (typeof regNoRaw === 'number' && !Number.isSafeInteger(regNoRaw)) return reject('regNo', 'import:regNoAsNumber');
    const regNo = text('regNo');
    const first = accepted.get(regNo);
    if (regNo && first) {
      return reject('regNo', 'people:import.duplicateRow', { row: first.row });
    }
    const classText = text('className');
    const gradeText = text('grade');
    const classId = gradeText && classText ? classOf.find(gradeText, classText) : '';
    if (classId === 'none' || classId === 'many') {
      return reject('className', classId === 'none' ? 'people:import.classNotFound' : 'people:import.classAmbiguous', { grade: gradeText, className: classText });
    }
    const gender = parseGender(text('gender'));
    const birthDate = date('birthDate');
    const ethnicity = parseEthnicity(text('ethnicity'));
    const parsed = studentSaveSchema.safeParse({
      name: text('name'),
      regNo,
      studentNo: text('studentNo'),
      classId,
      gender: gender ?? text('gender'),
      birthDate: birthDate ?? text('birthDate'),
      ...(ethnicity === '' ? {} : { ethnicity: ethnicity ?? text('ethnicity') }),
      photoFileId: '',
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return reject(STUDENT_FIELD[String(issue.path[0])] ?? 'name', issue.message);
    }
    const s = parsed.data;
    const data: StudentData = { name: s.name, regNo: s.regNo, studentNo: s.studentNo || null, classId: s.classId, gender: s.gender, birthDate: s.birthDate || null, ethnicity: s.ethnicity };
    const known = byRegNo.get(s.regNo);
    // A column the file does not have keeps an existing student's value (an empty cell of a present column clears it).
    if (known) {
      if (!has('studentNo')) data.studentNo = (known.studentNo as string | null) ?? null;
      if (!has('birthDate')) data.birthDate = (known.birthDate as string | null) ?? null;
      if (!has('ethnicity')) data.ethnicity = String(known.ethnicity);
    }

    // The row's parents: the same schema as the parent form, one parent per mobile across the file.
    const rowParents: ParentData[] = [];
    const parentChanges: FieldChange[] = [];
    let refused = false;
    for (const g of PARENT_GROUPS) {
      const [name, mobile, relationCell, genderText] = [text(g.name), text(g.mobile), text(g.relation), text(g.gender)];
      if (!name && !mobile && !relationCell) continue;
      const relation = parseRelation(relationCell);
      const parentGender = parseGender(genderText) ?? (relation ? genderOfRelation(relation) : null);
      const check = parentSaveSchema.safeParse({ name, gender: parentGender ?? genderText, mobile, children: [{ studentId: PLACEHOLDER_ID, relation: relation ?? relationCell }] });
      if (!check.success) {
        const issue = check.error.issues[0];
        const field = String(issue.path[0]);
        reject(field === 'children' ? g.relation : field === 'gender' ? g.gender : field === 'mobile' ? g.mobile : g.name, issue.message);
        refused = true;
        break;
      }
      const p = check.data;
      const inFile = parentsOf.get(p.mobile);
      if (inFile && inFile.name !== p.name) {
        reject(g.name, 'people:import.parentConflict', { row: inFile.row, name: inFile.name });
        refused = true;
        break;
      }
      const rel = p.children[0].relation;
      // An existing parent's own record (name, gender) is another person's data: changed only with the option.
      const stored = parentByMobile.get(p.mobile);
      if (stored && !inFile && (stored.name !== p.name || stored.gender !== p.gender)) {
        if (!updatesAllowed) {
          reject(g.name, 'people:import.parentExists', { name: stored.name });
          refused = true;
          break;
        }
        if (stored.name !== p.name) parentChanges.push({ field: 'parentName', label: ctx.t('people:import.change.parentName', { mobile: p.mobile, ...RAW }), before: stored.name, after: p.name });
        if (stored.gender !== p.gender)
          parentChanges.push({ field: 'parentGender', label: ctx.t('people:import.change.parentGender', { mobile: p.mobile, ...RAW }), before: shown('gender', stored.gender), after: shown('gender', p.gender) });
      }
      // A link added to (or a relation changed for) an existing student changes that student.
      if (known) {
        const had = stored ? linkOf.get(`${p.mobile}\u0000${known.id}`) : undefined;
        if (had !== rel) {
          parentChanges.push({
            field: 'parent',
            label: ctx.t('people:students.parents', RAW),
            before: had ? `${stored!.name}（${relationText(had)}）` : '',
            after: `${p.name}（${relationText(rel)}）`,
          });
        }
      }
      rowParents.push({ ...p, row: r.row, children: [{ regNo: s.regNo, relation: rel }] });
    }
    if (refused) return;

    let before: PlannedStudent['before'];
    if (known) {
      const changes = [...updates.diff(known, data, STUDENT_FIELDS, FIELD_LABEL, shown), ...parentChanges];
      const verdict = updates.judge(r.row, `${known.name}（${s.regNo}）`, changes);
      // Nothing would change: skipped, neither a write nor a failure.
      if (verdict === 'unchanged') return 'unchanged';
      if (verdict === 'refused') return reject('regNo', 'people:import.regNoExists');
      before = Object.fromEntries(changes.filter((c) => c.field in FIELD_LABEL).map((c) => [c.field, known[c.field as StudentField]]));
      update++;
    } else if (parentChanges.length > 0) {
      updates.updates.push({ row: r.row, who: `${s.name}（${s.regNo}）`, changes: parentChanges });
    }
    accepted.set(s.regNo, { row: r.row, ...data, expectId: known?.id ?? null, expectVersion: known?.version ?? null, before });
    cells[r.row] = r.cells;
    rowParentsOf.set(s.regNo, rowParents);
    for (const p of rowParents) {
      const inFile = parentsOf.get(p.mobile);
      if (inFile) inFile.children.push(...p.children);
      else parentsOf.set(p.mobile, p);
    }
  });
  const rejected = checked.failures;
  const unchanged = checked.unchanged;

  // The gender rule (docs/product-rules.md#student-changes): only students whose gender changes are looked up.
  const genderChanged = [...accepted.values()].filter((a) => a.expectId && byRegNo.get(a.regNo)!.gender !== a.gender);
  if (genderChanged.length > 0) {
    const scored = await studentsWithResults(ctx.db, genderChanged.map((a) => a.expectId!));
    for (const a of genderChanged) {
      const refusal = studentChangeRefusal(byRegNo.get(a.regNo)! as { gender: string }, a, scored.has(a.expectId!));
      if (!refusal) continue;
      accepted.delete(a.regNo);
      update--;
      updates.drop(a.row);
      rejected.push({ row: a.row, cells: cells[a.row], reason: rowReason(ctx.t, a.row, HEADER.gender, refusal) });
      delete cells[a.row];
      for (const p of rowParentsOf.get(a.regNo) ?? []) {
        const entry = parentsOf.get(p.mobile)!;
        entry.children = entry.children.filter((c) => c.regNo !== a.regNo);
        if (entry.children.length === 0) parentsOf.delete(p.mobile);
      }
    }
    rejected.sort((x, y) => x.row - y.row);
  }

  const list = [...accepted.values()];
  const parentList = [...parentsOf.values()];
  const plannedParents: PlannedParent[] = parentList.map((p) => {
    const stored = parentByMobile.get(p.mobile);
    return { mobile: p.mobile, name: p.name, gender: p.gender, expect: stored ? { name: stored.name, gender: stored.gender } : null };
  });
  const parentsUpdate = plannedParents.filter((p) => p.expect && (p.expect.name !== p.name || p.expect.gender !== p.gender)).length;
  const plannedLinks = [...new Map(parentList.flatMap((p) => p.children.map((c) => [`${p.mobile}\u0000${c.regNo}`, { mobile: p.mobile, regNo: c.regNo, relation: c.relation }] as const))).values()];
  const textColumns = STUDENT_COLUMNS.flatMap((c) => (c.text && file.index[c.key] !== undefined ? [file.index[c.key]!] : []));
  const plan: StudentPlanFile = {
    v: 1,
    header: file.header,
    textColumns,
    cells,
    students: list,
    parents: plannedParents,
    links: plannedLinks,
    rejected,
    unchanged,
    schoolYearId: ctx.extra.schoolYearId,
    semesterId: ctx.extra.semesterId,
  };
  return {
    create: list.length - update,
    update,
    unchanged,
    updates: updates.updates,
    parentsCreate: plannedParents.filter((p) => !p.expect).length,
    parentsUpdate,
    rejected,
    plan,
    write: async (db) => {
      await writeStudents(db, ctx, plan);
    },
  };
}

/** The ids among `ids` of students with physique results or test records. */
async function studentsWithResults(db: DbOrTx, ids: readonly string[]): Promise<Set<string>> {
  const [scored, recorded] = await Promise.all([
    db.selectDistinct({ id: physiqueResults.studentId }).from(physiqueResults).where(inArray(physiqueResults.studentId, [...ids])),
    db.selectDistinct({ id: testRecords.studentId }).from(testRecords).where(inArray(testRecords.studentId, [...ids])),
  ]);
  return new Set([...scored, ...recorded].map((r) => r.id));
}

/** A row the commit refused because the data changed after the dry run. */
export interface LateRefusal {
  row: number;
  field: StudentColumnKey;
  message: string;
}

/**
 * Writes a checked student plan in one transaction (docs/product-rules.md#people-import): COPY into staging tables,
 * then set-wise statements. The data may have changed since the dry run, so only the keys that decide a conflict are
 * checked again, here, cheaply: a new 学籍号 is inserted only if still free (`on conflict do nothing`), an update
 * applies only to the version the dry run saw, a gender change only while the student has no results, a parent only
 * while its record is as the dry run saw it, a class only while it is still the school's. Any other row is refused
 * (never overwritten) and returned. A class change keeps the history (reason 'import'). One audit entry records the
 * import with each updated student's before and after.
 *
 * The references are checked set-wise and locked as a foreign-key check locks them (FOR KEY SHARE), so where the role
 * may the writes skip the per-row foreign-key checks (replica mode, server/db/replication-role.ts; the roster, class
 * history and change-feed triggers are ENABLE ALWAYS): 5,000 new students with 2,500 parents fired ≈ 50,000 of them.
 */
export async function writeStudents(
  db: Db,
  ctx: ImportContext,
  plan: StudentPlanFile,
  /** Runs last inside the write transaction (the import job marks itself done there: docs/decisions/026-job-queue.md). */
  inWrite?: (s: BulkSession, outcome: { written: number; created: number; late: LateRefusal[] }) => Promise<void>,
): Promise<{ written: number; created: number; late: LateRefusal[] }> {
  const org = ctx.actor.tenantOrgId;
  return withBulkTransaction(db, async (s) => {
    const late: LateRefusal[] = [];
    const refuse = async (rows: { row: number; reg_no: string }[], field: StudentColumnKey, message: string) => {
      if (rows.length === 0) return;
      for (const r of rows) late.push({ row: r.row, field, message });
      await s.query(`delete from people_import_students where reg_no = any($1::text[])`, [rows.map((r) => r.reg_no)]);
    };
    await s.query(`select set_config('tiyu.class_change_reason', 'import', true)`);
    await s.query(
      `create temp table people_import_students (row int, reg_no text primary key, name text, student_no text, class_id uuid, gender text, birth_date date, ethnicity text, expect_id uuid, expect_version int) on commit drop`,
    );
    await s.copyIn(
      'people_import_students',
      ['row', 'reg_no', 'name', 'student_no', 'class_id', 'gender', 'birth_date', 'ethnicity', 'expect_id', 'expect_version'],
      copyLines(plan.students, (x) => [x.row, x.regNo, x.name, x.studentNo, x.classId, x.gender, x.birthDate, x.ethnicity, x.expectId, x.expectVersion]),
    );
    // The gender rule again: results may have been entered since the dry run.
    await refuse(
      await s.query<{ row: number; reg_no: string }>(
        `select st.row, st.reg_no from people_import_students st join students cur on cur.id = st.expect_id
         where cur.gender <> st.gender
           and (exists (select 1 from physique_results r where r.student_id = cur.id) or exists (select 1 from test_records t where t.student_id = cur.id))`,
      ),
      'gender',
      'validation:student.genderHasResults',
    );
    await s.query(`create temp table people_import_parents (mobile text primary key, name text, gender text, expect_name text, expect_gender text) on commit drop`);
    await s.copyIn('people_import_parents', ['mobile', 'name', 'gender', 'expect_name', 'expect_gender'], copyLines(plan.parents, (p) => [p.mobile, p.name, p.gender, p.expect?.name ?? null, p.expect?.gender ?? null]));
    await s.query(`create temp table people_import_links (mobile text, reg_no text, relation text) on commit drop`);
    await s.copyIn('people_import_links', ['mobile', 'reg_no', 'relation'], copyLines(plan.links, (l) => [l.mobile, l.regNo, l.relation]));
    // The school and the rows' classes, locked as a foreign-key check would lock them; a row whose class was removed
    // (or is another school's) since the dry run is refused, not failed by the foreign key.
    await s.query(`select id from orgs where id = $1 for key share`, [org]);
    await refuse(
      await s.query<{ row: number; reg_no: string }>(
        `select st.row, st.reg_no from people_import_students st where not exists (select 1 from classes c where c.id = st.class_id and c.org_id = $1)`,
        [org],
      ),
      'className',
      'people:import.changedSinceCheck',
    );
    await s.query(`select id from classes where id in (select class_id from people_import_students) for key share`);
    // A parent whose record is no longer what the dry run saw (added, renamed or removed since), unless it already is
    // what the file says: the rows naming it are refused.
    await refuse(
      await s.query<{ row: number; reg_no: string }>(
        `select distinct st.row, st.reg_no from people_import_parents pp
           left join parents cur on cur.org_id = $1 and cur.mobile = pp.mobile
           join people_import_links l on l.mobile = pp.mobile
           join people_import_students st on st.reg_no = l.reg_no
         where (cur.name, cur.gender) is distinct from (pp.expect_name, pp.expect_gender)
           and (cur.id is null or (cur.name, cur.gender) is distinct from (pp.name, pp.gender))`,
        [org],
      ),
      'parentMobile',
      'people:import.changedSinceCheck',
    );
    // Every reference of the writes below is checked and locked above or written by them (parents and students are
    // locked by their own upserts; those left as they were are locked before the links): skip the per-row checks.
    const skipped = (await s.query(SKIP_FK_TRIGGERS)).length > 0;
    const created = await s.query<{ reg_no: string }>(
      `insert into students (org_id, reg_no, name, student_no, class_id, gender, birth_date, ethnicity)
       select $1, reg_no, name, student_no, class_id, gender, birth_date, ethnicity from people_import_students where expect_id is null
       on conflict (org_id, reg_no) do nothing
       returning reg_no`,
      [org],
    );
    const updated = await s.query<{ reg_no: string }>(
      `update students cur set name = st.name, student_no = st.student_no, class_id = st.class_id, gender = st.gender, birth_date = st.birth_date,
         ethnicity = st.ethnicity, version = cur.version + 1
       from people_import_students st
       where cur.id = st.expect_id and cur.version = st.expect_version
         and (cur.name, cur.student_no, cur.class_id, cur.gender, cur.birth_date, cur.ethnicity)
           is distinct from (st.name, st.student_no, st.class_id, st.gender, st.birth_date, st.ethnicity)
       returning st.reg_no`,
    );
    // Rows whose student exists although the dry run found none, or changed since: never overwritten.
    const unchangedFresh = await s.query<{ reg_no: string }>(
      `select st.reg_no from people_import_students st join students cur on cur.id = st.expect_id and cur.version = st.expect_version
       where (cur.name, cur.student_no, cur.class_id, cur.gender, cur.birth_date, cur.ethnicity)
         is not distinct from (st.name, st.student_no, st.class_id, st.gender, st.birth_date, st.ethnicity)`,
    );
    const done = new Set([...created, ...updated, ...unchangedFresh].map((r) => r.reg_no));
    const stale = plan.students.filter((x) => !done.has(x.regNo) && !late.some((l) => l.row === x.row));
    await refuse(stale.map((x) => ({ row: x.row, reg_no: x.regNo })), 'regNo', 'people:import.changedSinceCheck');
    const written = plan.students.filter((x) => done.has(x.regNo) && !stale.includes(x));

    if (plan.parents.length > 0) {
      await s.query(`delete from people_import_links l where not exists (select 1 from people_import_students st where st.reg_no = l.reg_no)`);
      await s.query(
        `insert into parents (org_id, mobile, name, gender)
         select $1, pp.mobile, pp.name, pp.gender from people_import_parents pp where exists (select 1 from people_import_links l where l.mobile = pp.mobile)
         on conflict (org_id, mobile) do update set name = excluded.name, gender = excluded.gender, version = parents.version + 1
         where (parents.name, parents.gender) is distinct from (excluded.name, excluded.gender)`,
        [org],
      );
      if (skipped) {
        // The links' parents and students that no statement above wrote, locked as the foreign-key checks would.
        await s.query(`select id from parents where org_id = $1 and mobile in (select mobile from people_import_links) for key share`, [org]);
        await s.query(`select id from students where org_id = $1 and reg_no in (select reg_no from people_import_links) for key share`, [org]);
      }
      await s.query(
        `insert into parent_students (parent_id, student_id, relation)
         select p.id, st.id, l.relation from people_import_links l
           join parents p on p.org_id = $1 and p.mobile = l.mobile
           join students st on st.org_id = $1 and st.reg_no = l.reg_no
         on conflict (parent_id, student_id) do update set relation = excluded.relation
         where parent_students.relation is distinct from excluded.relation`,
        [org],
      );
    }
    if (skipped) await s.query(RESTORE_FK_TRIGGERS);
    const changed = written.filter((x) => x.expectId && x.before);
    await s.query(`insert into audit_logs (user_id, account_id, org_id, action, entity, before, after) values ($1, $2, $3, 'import', 'student', $4, $5)`, [
      ctx.actor.userId,
      ctx.actor.accountId,
      org,
      changed.length ? JSON.stringify({ updated: changed.map((x) => ({ id: x.expectId, regNo: x.regNo, ...x.before })) }) : null,
      JSON.stringify({
        students: written.length,
        created: created.length,
        parents: plan.parents.length,
        schoolYearId: plan.schoolYearId,
        semesterId: plan.semesterId,
        ...(changed.length ? { updated: changed.map((x) => ({ id: x.expectId, regNo: x.regNo, ...Object.fromEntries(Object.keys(x.before!).map((k) => [k, x[k as StudentField]])) })) } : {}),
      }),
    ]);
    const outcome = { written: written.length, created: created.length, late };
    await inWrite?.(s, outcome);
    return outcome;
  });
}
