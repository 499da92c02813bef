import { and, eq } from 'drizzle-orm';
import { parentSaveSchema } from '@/domain/people/parents';
import {
  PARENT_GROUPS,
  STUDENT_COLUMNS,
  genderOfRelation,
  gradeNoOfName,
  parseBirthDate,
  parseEthnicity,
  parseGender,
  parseRelation,
  type StudentColumnKey,
} from '@/domain/people/people-import';
import { studentSaveSchema } from '@/domain/people/students';
import type { Db } from '../../db/client';
import { classes, grades, parents, students } from '../../db/schema/school';
import { copyLines, withBulkTransaction } from '../physique/bulk-session';
import { cellOf, rawOf, type ImportContext, type ImportPlan, type ParsedFile, type Rejected } from './people-import.service';
import { gradeNameKey } from '@/domain/school/grades';

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
  const gradeMatches = (text: string, g: { gradeNo: number; enrolYear: number }) => {
    if (/^\d{4}级?$/.test(text)) return g.enrolYear === Number(text.slice(0, 4));
    if (/^\d{1,2}$/.test(text)) return g.gradeNo === Number(text);
    return gradeNoOfName(text) === g.gradeNo || text === ctx.t(gradeNameKey(g.gradeNo));
  };
  const cache = new Map<string, string | 'none' | 'many'>();
  return (gradeText: string, classText: string): string | 'none' | 'many' => {
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
}

/** Checks every row of a student file (with its parent columns) against the schemas and the database; writes nothing. */
export async function planStudents(file: ParsedFile, ctx: ImportContext): Promise<ImportPlan> {
  const org = ctx.actor.tenantOrgId;
  const [classOf, existing, existingParents] = await Promise.all([
    classLookup(ctx),
    ctx.db.select({ id: students.id, regNo: students.regNo }).from(students).where(eq(students.orgId, org)),
    ctx.db.select({ id: parents.id, mobile: parents.mobile }).from(parents).where(eq(parents.orgId, org)),
  ]);
  const studentId = new Map(existing.map((s) => [s.regNo, s.id]));
  const parentId = new Map(existingParents.map((p) => [p.mobile, p.id]));
  const rejected: Rejected[] = [];
  const accepted = new Map<string, StudentData & { row: number }>();
  const parentsOf = new Map<string, ParentData>();

  for (const r of file.rows) {
    const text = (key: StudentColumnKey) => cellOf(file, r, key);
    const reject = (key: StudentColumnKey, message: string, params?: Record<string, unknown>) =>
      rejected.push({ row: r.row, cells: r.cells, reason: ctx.reason(r.row, HEADER[key], message, params) });

    const regNoRaw = rawOf(file, r, 'regNo');
    if (typeof regNoRaw === 'number' && !Number.isSafeInteger(regNoRaw)) {
      reject('regNo', 'physique:import.regNoAsNumber');
      continue;
    }
    const regNo = text('regNo');
    const first = accepted.get(regNo);
    if (regNo && first) {
      reject('regNo', 'people:import.duplicateRow', { row: first.row });
      continue;
    }
    const classText = text('className');
    const gradeText = text('grade');
    const classId = gradeText && classText ? classOf(gradeText, classText) : '';
    if (classId === 'none' || classId === 'many') {
      reject('className', classId === 'none' ? 'people:import.classNotFound' : 'people:import.classAmbiguous', { grade: gradeText, className: classText });
      continue;
    }
    const gender = parseGender(text('gender'));
    const birthDate = parseBirthDate(rawOf(file, r, 'birthDate'), file.date1904);
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
      reject(STUDENT_FIELD[String(issue.path[0])] ?? 'name', issue.message);
      continue;
    }

    // The row's parents: the same schema as the parent form, one parent per mobile across the file.
    const rowParents: ParentData[] = [];
    let refused = false;
    for (const g of PARENT_GROUPS) {
      const [name, mobile, relationText, genderText] = [text(g.name), text(g.mobile), text(g.relation), text(g.gender)];
      if (!name && !mobile && !relationText) continue;
      const relation = parseRelation(relationText);
      const parentGender = parseGender(genderText) ?? (relation ? genderOfRelation(relation) : null);
      const check = parentSaveSchema.safeParse({ name, gender: parentGender ?? genderText, mobile, children: [{ studentId: PLACEHOLDER_ID, relation: relation ?? relationText }] });
      if (!check.success) {
        const issue = check.error.issues[0];
        const field = String(issue.path[0]);
        reject(field === 'children' ? g.relation : field === 'gender' ? g.gender : field === 'mobile' ? g.mobile : g.name, issue.message);
        refused = true;
        break;
      }
      const known = parentsOf.get(check.data.mobile);
      if (known && known.name !== check.data.name) {
        reject(g.name, 'people:import.parentConflict', { row: known.row, name: known.name });
        refused = true;
        break;
      }
      rowParents.push({ ...check.data, row: r.row, children: [{ regNo: parsed.data.regNo, relation: check.data.children[0].relation }] });
    }
    if (refused) continue;

    const s = parsed.data;
    accepted.set(s.regNo, { row: r.row, name: s.name, regNo: s.regNo, studentNo: s.studentNo || null, classId: s.classId, gender: s.gender, birthDate: s.birthDate || null, ethnicity: s.ethnicity });
    for (const p of rowParents) {
      const known = parentsOf.get(p.mobile);
      if (known) known.children.push(...p.children);
      else parentsOf.set(p.mobile, p);
    }
  }

  const list = [...accepted.values()];
  const parentList = [...parentsOf.values()];
  const update = list.filter((s) => studentId.has(s.regNo)).length;
  const parentsUpdate = parentList.filter((p) => parentId.has(p.mobile)).length;
  return {
    create: list.length - update,
    update,
    parentsCreate: parentList.length - parentsUpdate,
    parentsUpdate,
    rejected,
    write: (db) => writeStudents(db, ctx, list, parentList, list.length - update),
  };
}

/**
 * Writes the accepted students and parents in one transaction: COPY into staging tables, then one upsert each by
 * registration number and by mobile (a re-import updates, never duplicates; a row that changes nothing is not
 * written), then the links. A class change keeps the history (reason 'import'). One audit entry records the import.
 */
export async function writeStudents(db: Db, ctx: ImportContext, list: readonly StudentData[], parentList: readonly ParentData[], createdCount: number) {
  const org = ctx.actor.tenantOrgId;
  await withBulkTransaction(db, async (s) => {
    await s.query(`select set_config('tiyu.class_change_reason', 'import', true)`);
    await s.query(`create temp table people_import_students (reg_no text, name text, student_no text, class_id uuid, gender text, birth_date date, ethnicity text) on commit drop`);
    await s.copyIn('people_import_students', ['reg_no', 'name', 'student_no', 'class_id', 'gender', 'birth_date', 'ethnicity'], copyLines(list, (x) => [x.regNo, x.name, x.studentNo, x.classId, x.gender, x.birthDate, x.ethnicity]));
    await s.query(
      `insert into students (org_id, reg_no, name, student_no, class_id, gender, birth_date, ethnicity)
       select $1, reg_no, name, student_no, class_id, gender, birth_date, ethnicity from people_import_students
       on conflict (org_id, reg_no) do update set name = excluded.name, student_no = excluded.student_no, class_id = excluded.class_id,
         gender = excluded.gender, birth_date = excluded.birth_date, ethnicity = excluded.ethnicity, version = students.version + 1
       where (students.name, students.student_no, students.class_id, students.gender, students.birth_date, students.ethnicity)
         is distinct from (excluded.name, excluded.student_no, excluded.class_id, excluded.gender, excluded.birth_date, excluded.ethnicity)`,
      [org],
    );
    if (parentList.length > 0) {
      await s.query(`create temp table people_import_parents (mobile text, name text, gender text) on commit drop`);
      await s.copyIn('people_import_parents', ['mobile', 'name', 'gender'], copyLines(parentList, (p) => [p.mobile, p.name, p.gender]));
      await s.query(
        `insert into parents (org_id, mobile, name, gender) select $1, mobile, name, gender from people_import_parents
         on conflict (org_id, mobile) do update set name = excluded.name, gender = excluded.gender, version = parents.version + 1
         where (parents.name, parents.gender) is distinct from (excluded.name, excluded.gender)`,
        [org],
      );
      // One link per parent and child, even when a row names the same mobile twice.
      const links = [...new Map(parentList.flatMap((p) => p.children.map((c) => [`${p.mobile}\u0000${c.regNo}`, [p.mobile, c.regNo, c.relation]] as const))).values()];
      await s.query(`create temp table people_import_links (mobile text, reg_no text, relation text) on commit drop`);
      await s.copyIn('people_import_links', ['mobile', 'reg_no', 'relation'], copyLines(links, (l) => l));
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
    await s.query(`insert into audit_logs (user_id, account_id, org_id, action, entity, before, after) values ($1, $2, $3, 'import', 'student', null, $4)`, [
      ctx.actor.userId,
      ctx.actor.accountId,
      org,
      JSON.stringify({ students: list.length, created: createdCount, parents: parentList.length, schoolYearId: ctx.extra.schoolYearId, semesterId: ctx.extra.semesterId }),
    ]);
  });
}
