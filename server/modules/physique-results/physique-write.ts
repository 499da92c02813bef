import { randomBytes } from 'node:crypto';
import type { AuditEntity } from '@/domain/platform/audit';
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { NationalResults, ResultKey } from '@/domain/physique/national-template';
import { scoreStudent } from '@/domain/physique/score';
import { DEFAULT_STANDARD_VERSION, isGrade, isStandardVersion, type Gender, type Grade, type ItemKey, type StandardVersion } from '@/domain/physique/standard';
import { planItemsForGrade, studentPlanItems } from '@/domain/test-plans/items';
import { engineInputOf, mergeRaw, RAW_FIELDS, restrictToItems, WIDE_SCORE_FIELDS, wideScoreValues, type WideRawFields, type WideScoreValue } from '@/domain/physique-results/wide-row';
import { fieldBit, valueSource, withSource, type ValueSource } from '@/domain/physique-results/value-source';
import { onServer, type Db, type DbOrTx } from '../../db/client';
import { timeOrderedUuid } from '../../lib/ids';
import { physiqueResultLogs, physiqueResults } from '../../db/schema/physique';
import { classes, grades, schoolYears, students } from '../../db/schema/school';
import { classInPlanScope, planItemsByGrade, type PlanRecord } from '../test-plans/test-plans.service';
import { copyLines, copyValue, CopyText, withBulkConnection, withBulkTransaction, type BulkSession } from './bulk-session';
import { HeldRows } from './held-rows';
import { RESTORE_FK_TRIGGERS, SKIP_FK_TRIGGERS } from '../../db/replication-role';
import { AppError } from '../../lib/app-error';
import { refusalOf, retestAdmission, type RetestAdmission } from '../retest/retest-admission';
import { retestRefusalKey, type RetestRefusal } from '@/domain/retest/retest';

/** What scoring a plan's results needs: the plan, its school year, standard version and items per grade. */
export interface PlanContext {
  plan: PlanRecord;
  /** First calendar year of the plan's school year (2025 for 2025-2026). */
  startYear: number;
  version: StandardVersion;
  itemsByGrade: Map<number, ItemKey[]>;
  /**
   * Whom the plan admits beyond its scope: a re-test plan only the original plan's students whose year may be
   * re-tested (docs/product-rules.md#physique-year, "Re-test"); null for a regular plan. Imports, syncs, edits and every
   * other write of results ask `admissionRefusal`, through the scope students below.
   */
  admission: RetestAdmission | null;
}

export async function loadPlanContext(db: DbOrTx, plan: PlanRecord): Promise<PlanContext> {
  const [year] = await db.select({ startYear: schoolYears.startYear }).from(schoolYears).where(eq(schoolYears.id, plan.schoolYearId)).limit(1);
  return {
    plan,
    startYear: year?.startYear ?? Number(plan.startDate.slice(0, 4)),
    version: isStandardVersion(plan.standardVersion) ? plan.standardVersion : DEFAULT_STANDARD_VERSION,
    itemsByGrade: await planItemsByGrade(db, plan.id),
    admission: await retestAdmission(db, plan),
  };
}

/**
 * THE place a write of results decides whether a student of the plan's scope belongs to the plan: null when the
 * student may be written, else why not (a re-test plan's non-eligible student). An import refuses the row with the
 * reason, a sync leaves the student out, an edit is refused.
 */
export function admissionRefusal(ctx: PlanContext, studentId: string): RetestRefusal | null {
  return refusalOf(ctx.admission, studentId);
}

/** Refuses (409, translated) writing a student the plan does not admit (admissionRefusal). */
export function assertAdmitted(ctx: PlanContext, studentId: string): void {
  const why = admissionRefusal(ctx, studentId);
  if (why) throw new AppError(409, retestRefusalKey(why));
}

/** itemsFor's answers per plan context, by grade and gender: an import asks once per row. */
const itemsCache = new WeakMap<PlanContext, Map<number, readonly ItemKey[]>>();

/** The plan's items for a student of this grade and gender (the standard's items when the plan names none for the grade). */
export function itemsFor(ctx: PlanContext, grade: Grade, gender: Gender): readonly ItemKey[] {
  let byKey = itemsCache.get(ctx);
  if (!byKey) itemsCache.set(ctx, (byKey = new Map()));
  const key = gender === 'male' ? grade : -grade;
  let items = byKey.get(key);
  if (!items) byKey.set(key, (items = Object.freeze(studentPlanItems(ctx.itemsByGrade.get(grade) ?? planItemsForGrade(grade, ctx.version), grade, gender, ctx.version))));
  return items;
}

/** First grade of a stage (grades are enrolment cohorts; the grade number in a year follows from the enrolment year). */
const STAGE_FIRST: Record<string, number> = { primary: 1, junior: 7, senior: 10, university: 13 };

/** Grade 1–16 of a cohort in the school year starting `startYear`, or null when the cohort was not (yet) at that stage's school. */
export function gradeInYear(stage: string, enrolYear: number, startYear: number): Grade | null {
  const first = STAGE_FIRST[stage];
  if (first === undefined) return null;
  const grade = first + (startYear - enrolYear);
  // A K12 school keeps its pupils across stages; a university only has its own years.
  if (stage === 'university' ? grade < 13 : grade < 1) return null;
  return isGrade(grade) ? grade : null;
}

export interface ScopeStudent {
  id: string;
  name: string;
  regNo: string;
  gender: Gender;
  classId: string;
  className: string;
  classNo: string | null;
  /** Grade in the plan's school year. */
  grade: Grade;
  /** Why the plan does not admit the student (admissionRefusal), null when it does: write nothing for a refused one. */
  refusal: RetestRefusal | null;
}

/** A class the plan covers, with the grade its pupils were in that school year. */
export interface ScopeClass {
  name: string;
  classNo: string | null;
  grade: Grade;
}

/** The classes the plan covers (its grades, classes or colleges), by id, each with the grade of that school year. */
export async function planScopeClasses(db: DbOrTx, ctx: PlanContext): Promise<Map<string, ScopeClass>> {
  const scopeClasses = await db
    .select({ id: classes.id, name: classes.name, classNo: classes.classNo, stage: grades.stage, enrolYear: grades.enrolYear })
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(and(eq(classes.orgId, ctx.plan.orgId), classInPlanScope(ctx.plan.id)));
  const byId = new Map<string, ScopeClass>();
  for (const c of scopeClasses) {
    const grade = gradeInYear(c.stage, c.enrolYear, ctx.startYear);
    if (grade !== null) byId.set(c.id, { name: c.name, classNo: c.classNo, grade });
  }
  return byId;
}

type StudentRow = { id: string; name: string; reg_no: string; gender: Gender; class_id: string };

/** The rows that are enabled students of the scope's classes, as ScopeStudents. */
function inScope(ctx: PlanContext, rows: readonly StudentRow[], byId: ReadonlyMap<string, ScopeClass>): ScopeStudent[] {
  const out: ScopeStudent[] = [];
  for (const r of rows) {
    const c = byId.get(r.class_id);
    if (c) {
      const refusal = admissionRefusal(ctx, r.id);
      out.push({ id: r.id, name: r.name, regNo: r.reg_no, gender: r.gender, classId: r.class_id, className: c.name, classNo: c.classNo, grade: c.grade, refusal });
    }
  }
  return out;
}

const STUDENT_COLUMNS = sql`${students.id} as id, ${students.name} as name, ${students.regNo} as reg_no, ${students.gender} as gender, ${students.classId} as class_id`;

/**
 * Every enabled student the plan covers (its grades, classes or colleges), with the grade they were in that year.
 * Two lean queries (the scope's classes, then their students' five columns) and raw rows: on PGlite moving rows out
 * of the database is what costs.
 */
export async function planScopeStudents(db: DbOrTx, ctx: PlanContext): Promise<ScopeStudent[]> {
  const byId = await planScopeClasses(db, ctx);
  if (byId.size === 0) return [];
  const { rows } = await db.execute<StudentRow>(
    sql`select ${STUDENT_COLUMNS} from ${students} where ${students.orgId} = ${ctx.plan.orgId} and ${students.enabled}
      and ${students.classId} in (${sql.join([...byId.keys()].map((id) => sql`${id}`), sql`, `)})`,
  );
  return inScope(ctx, rows, byId);
}

/**
 * The enabled students of the scope's classes whose registration number (case-insensitively, through
 * students_org_upper_reg_no_idx) or name is one of those given: what one slice of an import can match, so an import
 * never holds the whole scope (docs/decisions/028-score-import-at-copy-speed.md).
 */
export async function scopeStudentsNamed(
  db: DbOrTx,
  ctx: PlanContext,
  byId: ReadonlyMap<string, ScopeClass>,
  by: { regNos?: readonly string[]; names?: readonly string[] },
): Promise<ScopeStudent[]> {
  if ((by.regNos ?? by.names ?? []).length === 0 || byId.size === 0) return [];
  // One index probe per value: `offset 0` keeps the lateral subquery from being flattened into a join, which the
  // planner could run by reading the whole organisation when the table's statistics are stale (PGlite has no autovacuum).
  const match = by.regNos ? sql`upper(${students.regNo}) = v.value` : sql`${students.name} = v.value`;
  // The rows as ONE text, a flat JSON array of their five values: on PGlite handing 2,000 rows of five columns to
  // JavaScript cost more than building and parsing the text, and the text built by concatenation (names and numbers as
  // JSON strings) costs less than json_agg of arrays (docs/decisions/028-score-import-at-copy-speed.md).
  const query = sql`select coalesce('[' || string_agg(concat('"', s.id, '",', to_json(s.name), ',', to_json(s.reg_no), ',"', s.gender, '","', s.class_id, '"'), ',') || ']', '[]') as found
    from unnest(${sql.param(by.regNos ?? by.names ?? [])}::text[]) as v(value)
    cross join lateral (select ${STUDENT_COLUMNS} from ${students} where ${students.orgId} = ${ctx.plan.orgId} and ${match} and ${students.enabled} offset 0) s`;
  const [{ found }] = (await db.execute<{ found: string }>(query)).rows;
  const flat = JSON.parse(found) as string[];
  const rows: StudentRow[] = [];
  for (let i = 0; i < flat.length; i += 5) rows.push({ id: flat[i], name: flat[i + 1], reg_no: flat[i + 2], gender: flat[i + 3] as Gender, class_id: flat[i + 4] });
  return inScope(ctx, rows, byId);
}

/** One student's incoming results for a plan. */
export interface ResultInput {
  studentId: string;
  classId: string;
  grade: Grade;
  gender: Gender;
  /** Parsed raw values (cm, kg, ml, s, counts); absent = keep what is stored. */
  results: NationalResults;
}

export interface WriteOptions {
  source: 'import' | 'sync';
  userId: string;
  now: Date;
  /** Test day written on the results (YYYY-MM-DD). */
  testedOn: string;
  /** Sync only: device values may replace imported and hand-edited ones (default: they may not). */
  replaceManual?: boolean;
}

/** What a sync would change in one stored value. */
export interface DeviceChange {
  field: ResultKey;
  oldValue: number | null;
  newValue: number;
  /** Where the stored value came from (null when there is none). */
  oldSource: ValueSource | null;
  /** The stored value was imported or edited by hand: replaced only when the person allows it. */
  manual: boolean;
}

export interface StoredValues {
  raw: Partial<WideRawFields>;
  importedFields: number;
  editedFields: number;
}

/**
 * The values a sync changes in one result: each device value that differs from the stored one, marked `manual` when
 * the stored value was imported or edited by hand. `apply` holds the values to write: all changes when
 * `replaceManual`, else only those replacing device values or filling empty ones.
 */
export function deviceChanges(stored: StoredValues | undefined, incoming: NationalResults, replaceManual: boolean): { changes: DeviceChange[]; apply: NationalResults } {
  const changes: DeviceChange[] = [];
  const apply: NationalResults = {};
  for (const field of Object.keys(incoming) as ResultKey[]) {
    const newValue = incoming[field];
    if (newValue == null) continue;
    const oldValue = stored?.raw[field] ?? null;
    if (oldValue === newValue) continue;
    const oldSource = oldValue == null || !stored ? null : valueSource(stored, field);
    const manual = oldSource === 'import' || oldSource === 'manual';
    changes.push({ field, oldValue, newValue, oldSource, manual });
    if (!manual || replaceManual) apply[field] = newValue;
  }
  return { changes, apply };
}

/**
 * One result's new raw values, scored: the stored values merged with the incoming ones (a value present wins), kept
 * to the student's plan items, scored by the engine with the plan's standard, and the written fields' source masks.
 * What every writer of a plan's results does per student (writeResults, a test-day station's writeResultInTx).
 */
export function mergeAndScore(ctx: PlanContext, input: Omit<ResultInput, 'results'>, old: StoredValues | undefined, incoming: NationalResults, source: ValueSource) {
  const raw = restrictToItems(mergeRaw(old?.raw, incoming), itemsFor(ctx, input.grade, input.gender));
  const score = scoreStudent({ grade: input.grade, gender: input.gender, results: engineInputOf(raw), standard: ctx.version });
  const masks = withSource(old ?? { importedFields: 0, editedFields: 0 }, Object.keys(incoming) as ResultKey[], source);
  return { raw, score, masks };
}

const COLUMNS = getTableColumns(physiqueResults);
type ResultColumn = keyof typeof COLUMNS;
const column = (key: ResultColumn) => COLUMNS[key].name;
for (const f of WIDE_SCORE_FIELDS) if (!(f in COLUMNS)) throw new Error(`physique_results has no column for ${f}`);

/** Columns a bulk write fills, in COPY order (the id first). */
const WRITE_FIELDS: readonly ResultColumn[] = [
  'id',
  'orgId',
  'planId',
  // The partition key (docs/decisions/064-partitions-by-school-year.md): the plan's school year, set by every writer.
  'schoolYear',
  'studentId',
  'classId',
  'gradeNo',
  'className',
  'gender',
  'testedOn',
  ...(WIDE_SCORE_FIELDS as readonly ResultColumn[]),
  'importedFields',
  'editedFields',
  'source',
  'updatedBy',
  'updatedAt',
];
const WRITE_COLUMNS = WRITE_FIELDS.map(column);
const FIXED_COLUMNS = new Set([column('id'), column('orgId'), column('planId'), column('schoolYear'), column('studentId')]);
const RAW_COLUMNS = (RAW_FIELDS as readonly ResultColumn[]).map((f) => [f, column(f)] as const);
const STAGE = 'physique_write_stage';
const RESULTS = 'physique_results';
const LOGS = 'physique_result_logs';
const LOG_COLS = getTableColumns(physiqueResultLogs);
const LOG_COLUMNS = [LOG_COLS.resultId.name, LOG_COLS.schoolYear.name, LOG_COLS.action.name, LOG_COLS.byUser.name, LOG_COLS.at.name];

const q = (name: string) => `"${name}"`;
const SELECT_STORED = `select ${q(column('id'))} as id, ${q(column('studentId'))} as student_id,
  ${q(column('importedFields'))} as imported_fields, ${q(column('editedFields'))} as edited_fields, ${RAW_COLUMNS.map(([, c]) => q(c)).join(', ')}
  from ${RESULTS} where ${q(column('planId'))} = $1 and ${q(column('studentId'))} = any($2::uuid[]) and ${q(column('schoolYear'))} = $3 for update`;
const UPDATE_FROM_STAGE = `update ${RESULTS} r set ${WRITE_COLUMNS.filter((c) => !FIXED_COLUMNS.has(c))
  .map((c) => `${q(c)} = s.${q(c)}`)
  .join(', ')} from ${STAGE} s where r.${q(column('id'))} = s.${q(column('id'))} and r.${q(column('schoolYear'))} = s.${q(column('schoolYear'))}`;

type StoredRaw = { id: string; student_id: string; imported_fields: number; edited_fields: number } & Record<string, number | null>;

/** Stored values of a plan's results for some students, by student, read without a lock (the sync preview). */
export async function readStoredValues(db: DbOrTx, ctx: PlanContext, studentIds: readonly string[]): Promise<Map<string, StoredValues>> {
  const out = new Map<string, StoredValues>();
  if (studentIds.length === 0) return out;
  const rawSelection = Object.fromEntries(RAW_FIELDS.map((f) => [f, COLUMNS[f as ResultColumn]]));
  const rows = await db
    .select({ studentId: physiqueResults.studentId, importedFields: physiqueResults.importedFields, editedFields: physiqueResults.editedFields, ...rawSelection })
    .from(physiqueResults)
    .where(and(eq(physiqueResults.planId, ctx.plan.id), eq(physiqueResults.schoolYear, ctx.startYear), inArray(physiqueResults.studentId, [...studentIds])));
  for (const row of rows) {
    const values = row as unknown as Record<string, number | null>;
    const raw: Partial<WideRawFields> = {};
    for (const f of RAW_FIELDS) {
      const v = values[f];
      if (v != null) raw[f] = v;
    }
    out.set(row.studentId, { raw, importedFields: row.importedFields, editedFields: row.editedFields });
  }
  return out;
}

/**
 * Writes (inserts or rescored updates) the results of many students of one plan in ONE transaction (docs/product-rules.md#physique-results: score import):
 * stored raw values are locked and merged with the incoming ones (a value present wins), every row is scored by the
 * engine with the plan's standard and items; new results are COPYed into the table, stored ones updated from a
 * COPYed staging table, and every result gets a log row (COPY). Any failure rolls everything back. Returns the
 * number of results written.
 */
export async function writeResults(db: Db, ctx: PlanContext, inputs: readonly ResultInput[], opts: WriteOptions): Promise<number> {
  if (inputs.length === 0) return 0;
  // A caller that forgot the scope's refusal still never writes a student the plan does not admit.
  for (const input of inputs) assertAdmitted(ctx, input.studentId);
  const updatedAt = opts.now.toISOString();
  const valueSourceOf: ValueSource = opts.source === 'import' ? 'import' : 'device';
  return withBulkTransaction(db, async (s) => {
    // Lock what is stored: a manual edit waits for the import instead of being overwritten by stale values.
    const stored = new Map<string, StoredValues & { id: string }>();
    for (const row of await s.query<StoredRaw>(SELECT_STORED, [ctx.plan.id, inputs.map((i) => i.studentId), ctx.startYear])) {
      const raw: Partial<WideRawFields> = {};
      for (const [field, col] of RAW_COLUMNS) {
        const v = row[col];
        if (v != null) raw[field as keyof WideRawFields] = v;
      }
      stored.set(row.student_id, { id: row.id, raw, importedFields: row.imported_fields, editedFields: row.edited_fields });
    }

    // The class's name today is kept with the result: K12 classes are renamed as their cohort moves up.
    const classNames = new Map<string, string>();
    const classIds = [...new Set(inputs.map((i) => i.classId))];
    for (const c of await s.query<{ id: string; name: string }>(`select id, name from classes where id = any($1::uuid[])`, [classIds])) classNames.set(c.id, c.name);

    const inserts: unknown[][] = [];
    const updates: unknown[][] = [];
    const logs: unknown[][] = [];
    for (const input of inputs) {
      const old = stored.get(input.studentId);
      // A sync writes only what changes, and leaves imported and hand-edited values alone unless allowed.
      const incoming = opts.source === 'sync' ? deviceChanges(old, input.results, opts.replaceManual === true).apply : input.results;
      const fields = Object.keys(incoming) as ResultKey[];
      if (fields.length === 0) continue;
      const { raw, score, masks } = mergeAndScore(ctx, input, old, incoming, valueSourceOf);
      const id = old?.id ?? timeOrderedUuid();
      const row: unknown[] = [id, ctx.plan.orgId, ctx.plan.id, ctx.startYear, input.studentId, input.classId, input.grade, classNames.get(input.classId) ?? '', input.gender, opts.testedOn];
      for (const v of wideScoreValues(raw, score)) row.push(v);
      row.push(masks.importedFields, masks.editedFields, opts.source, opts.userId, updatedAt);
      (old ? updates : inserts).push(row);
      logs.push([id, ctx.startYear, opts.source, opts.userId, updatedAt]);
    }

    // New results go straight into the table (ids chosen here); stored ones through a staging table and one UPDATE.
    // Another writer adding the same (plan, student) meanwhile hits the unique index and rolls this write back.
    if (inserts.length > 0) await s.copyIn(RESULTS, WRITE_COLUMNS, copyLines(inserts, (r) => r));
    if (updates.length > 0) {
      await s.query(`create temp table ${STAGE} (like ${RESULTS} including defaults) on commit drop`);
      await s.copyIn(STAGE, WRITE_COLUMNS, copyLines(updates, (r) => r));
      await s.query(UPDATE_FROM_STAGE);
    }
    if (logs.length > 0) await s.copyIn(LOGS, LOG_COLUMNS, copyLines(logs, (r) => r));
    return inserts.length + updates.length;
  });
}

const RAW_KEYS = RAW_FIELDS as readonly ResultKey[];
/** Which raw fields the file brought for a row, as a bit mask in RAW_FIELDS order (to merge the row again if needed). */
function incomingMask(results: NationalResults): number {
  let mask = 0;
  for (let i = 0; i < RAW_KEYS.length; i++) if (results[RAW_KEYS[i]] != null) mask |= 1 << i;
  return mask;
}
/** The source-mask bits (value-source.ts) of the fields of an incoming mask. */
const SOURCE_BIT_OF_RAW = RAW_KEYS.map((f) => fieldBit(f));
function sourceBits(incoming: number): number {
  let bits = 0;
  for (let i = 0; i < SOURCE_BIT_OF_RAW.length; i++) if (incoming & (1 << i)) bits |= SOURCE_BIT_OF_RAW[i];
  return bits;
}

/**
 * Columns of an import's staging table, in COPY order: what differs per row; the plan's organisation, the test day,
 * who and when are the same for every row and are added by the final INSERT, the class name is joined there. The
 * stage also keeps the stored row's version the row was merged with and which fields came from the file.
 */
const STAGE_FIELDS: readonly ResultColumn[] = ['id', 'studentId', 'classId', 'gradeNo', 'gender', ...(WIDE_SCORE_FIELDS as readonly ResultColumn[]), 'importedFields', 'editedFields'];
const STAGE_COLUMNS = [...STAGE_FIELDS.map(column), 'base_xmin', 'incoming'];
const STORED_COLUMNS = [q(column('studentId')), q(column('id')), 'xmin', q(column('importedFields')), q(column('editedFields')), ...RAW_COLUMNS.map(([, c]) => q(c))];
/**
 * Stored values of some students' results as ONE text value (a line per result, comma-separated): on PGlite every
 * row and column handed back to JavaScript costs, and this read runs for every slice of an import.
 */
const SELECT_STORED_TEXT = `select string_agg(concat_ws(',', ${STORED_COLUMNS.map((c) => `coalesce(${c}::text, '')`).join(', ')}), E'\n') as t
  from ${RESULTS} where ${q(column('planId'))} = $1 and ${q(column('studentId'))} = any($2::uuid[]) and ${q(column('schoolYear'))} = $3`;
/** The same for rows to merge again inside the write transaction, locked (FOR UPDATE cannot aggregate). */
const SELECT_STORED_LOCKED = `select ${STORED_COLUMNS.join(', ')} from ${RESULTS} where ${q(column('planId'))} = $1 and ${q(column('studentId'))} = any($2::uuid[]) and ${q(column('schoolYear'))} = $3 for update`;
/** The previous raw values of a result as the import's audit entry keeps them (field names as in the API). */
const PREVIOUS_VALUES = `jsonb_strip_nulls(jsonb_build_object(${RAW_COLUMNS.map(([f, c]) => `'${f}', r.${q(c)}`).join(', ')}))`;
/**
 * The staged rows into the results: one statement, so the rollup triggers run once. In student order, so the keys on
 * (plan, student) and on the student go into their B-trees in order, not at random pages (new results' ids are
 * time-ordered for the primary key: docs/decisions/028-score-import-at-copy-speed.md).
 */
const INSERT_FROM_STAGE = (stage: string) => {
  const own = WRITE_COLUMNS.map((c) => {
    if (c === column('orgId')) return '$1::uuid';
    if (c === column('planId')) return '$2::uuid';
    if (c === column('schoolYear')) return '$6::smallint';
    if (c === column('testedOn')) return '$3::date';
    if (c === column('updatedBy')) return '$4::uuid';
    if (c === column('updatedAt')) return '$5::timestamptz';
    if (c === column('source')) return `'import'`;
    // The class's name today is kept with the result: K12 classes are renamed as their cohort moves up.
    if (c === column('className')) return 'c.name';
    return `s.${q(c)}`;
  });
  return `insert into ${RESULTS} (${WRITE_COLUMNS.map(q).join(', ')})
    select ${own.join(', ')} from ${stage} s join classes c on c.id = s.${q(column('classId'))} order by s.${q(column('studentId'))}
    on conflict (${q(column('planId'))}, ${q(column('studentId'))}, ${q(column('schoolYear'))}) do update set ${WRITE_COLUMNS.filter((c) => !FIXED_COLUMNS.has(c))
      .map((c) => `${q(c)} = excluded.${q(c)}`)
      .join(', ')}`;
};

type StoredVersioned = StoredValues & { id: string; xmin: string };

/** Audit entity of an import: one entry per import, `entity_id` the plan, `before` the previous values by result id. */
export const IMPORT_AUDIT_ENTITY = 'physiqueImport' satisfies AuditEntity;

/** Stored values by student from rows of STORED_COLUMNS (as values, or as the text lines of SELECT_STORED_TEXT). */
function storedByStudent(rows: Iterable<readonly (string | number | null)[]>): Map<string, StoredVersioned> {
  const stored = new Map<string, StoredVersioned>();
  for (const row of rows) {
    const raw: Partial<WideRawFields> = {};
    for (let i = 0; i < RAW_FIELDS.length; i++) {
      const v = row[5 + i];
      if (v != null && v !== '') raw[RAW_FIELDS[i]] = Number(v);
    }
    stored.set(String(row[0]), { id: String(row[1]), xmin: String(row[2]), importedFields: Number(row[3]), editedFields: Number(row[4]), raw });
  }
  return stored;
}

function* storedLines(text: string | null): Generator<string[]> {
  if (!text) return;
  for (const line of text.split('\n')) yield line.split(',');
}

/** Writes one slice of an import into its staging table; each input's results are already kept to the student's plan items (restrictToItems). */
export type ImportSliceWriter = (slice: readonly ResultInput[]) => Promise<void>;

export interface StagedImportOptions {
  userId: string;
  now: Date;
  /** Test day written on the results (YYYY-MM-DD). */
  testedOn: string;
  /** Kept in the audit entry beside the counts. */
  fileName: string;
  /**
   * Runs last inside the write transaction with the rows accepted (an import job marks itself done there, so the write
   * and the job's `done` commit together: docs/decisions/026-job-queue.md). Not called when nothing is written.
   */
  inWrite?: (tx: BulkSession, written: number) => Promise<void>;
  /** Called before the write transaction, once every slice is staged. */
  onStaged?: () => Promise<void>;
  /** A first import holds at most this many bytes of rows for the direct write (default HELD_BYTES), then stages them. */
  heldBytes?: number;
}

/**
 * A score import (docs/decisions/028-score-import-at-copy-speed.md): `produce` reads the file and hands the accepted
 * rows over in slices; each slice is merged with the stored values (read without a lock) and scored. None of this
 * holds a transaction, so on PGlite other requests run between the slices. Then ONE short transaction writes them.
 *
 * A plan with results when the import starts: the rows that change something are COPYed slice by slice into a temp
 * table without keys, foreign keys or triggers; the write transaction merges again (locked) the staged rows whose stored
 * result changed meanwhile, checks the references set-wise, writes one audit entry with the previous values of the rows
 * that change, and one `INSERT … SELECT … ON CONFLICT` writes them (the rollup triggers see one statement).
 *
 * A plan without results when the import starts (a first import): the slices' rows are held in memory (HeldRows). The
 * write transaction locks the plan's row (FOR UPDATE, which every other writer of the plan's results waits for: their
 * foreign-key check or the import's reference check takes it FOR KEY SHARE) and, if the plan still has no result, COPYs
 * the rows straight into physique_results, one statement, then checks their references and writes the audit entry from
 * them. If a result appeared meanwhile the held rows go through the stage as above, so it is merged, not overwritten.
 * Returns `produce`'s value and the number of rows accepted.
 */
export async function stagedImport<T>(db: Db, ctx: PlanContext, opts: StagedImportOptions, produce: (write: ImportSliceWriter) => Promise<T>): Promise<{ value: T; written: number }> {
  const updatedAt = opts.now.toISOString();
  const stage = `physique_import_${randomBytes(16).toString('hex')}`;
  const overlap = onServer(db);
  /** The stage COPY of the last slice, still running on PostgreSQL while the next slice is prepared. */
  let copying: Promise<void> = Promise.resolve();
  return withBulkConnection(db, async (conn) => {
    let staging = false;
    /** The stage: types only, no NOT NULLs, keys or defaults. */
    const makeStage = async (s: BulkSession) => {
      await s.query(`create temp table ${stage} as select ${STAGE_FIELDS.map((f) => q(column(f))).join(', ')}, null::text as base_xmin, 0 as incoming from ${RESULTS} with no data`);
      staging = true;
    };
    try {
      /** wideScoreValues' array, refilled for every row. */
      const wide: WideScoreValue[] = [];
      /**
       * Merges and scores `inputs` against `stored` (by student): the rows that change something, as the stage's COPY
       * text, or, with `held`, added to the held rows (their text without the id and the stage's last two columns).
       */
      const stageRows = (inputs: readonly ResultInput[], stored: Map<string, StoredVersioned>, held?: HeldRows) => {
        // The slice's COPY text written in this one pass, value by value into bytes (no row arrays, no strings per
        // value, no second pass): a first import formats 50,000 rows of ≈ 75 values here (docs/decisions/028-score-import-at-copy-speed.md).
        const out = held ? held.text : new CopyText();
        let count = 0;
        let accepted = 0;
        for (const input of inputs) {
          assertAdmitted(ctx, input.studentId);
          const incoming = incomingMask(input.results);
          if (incoming === 0) continue;
          accepted++;
          const bits = sourceBits(incoming);
          const old = stored.get(input.studentId);
          // A new result is the file's values, which the caller kept to the student's plan items.
          const raw = old ? restrictToItems(mergeRaw(old.raw, input.results), itemsFor(ctx, input.grade, input.gender)) : input.results;
          // withSource(…, 'import') of the file's fields, from the mask already taken.
          const importedFields = (old?.importedFields ?? 0) | bits;
          const editedFields = (old?.editedFields ?? 0) & ~bits;
          // A row that changes nothing is not written (a concurrent edit of it simply stands).
          if (old && importedFields === old.importedFields && editedFields === old.editedFields && sameRaw(old.raw, raw)) continue;
          const score = scoreStudent({ grade: input.grade, gender: input.gender, results: engineInputOf(raw), standard: ctx.version });
          out.row();
          if (!held) {
            out.ascii(old?.id ?? timeOrderedUuid());
            out.tab();
          }
          out.ascii(input.studentId);
          out.tab();
          out.ascii(input.classId);
          out.tab();
          out.number(input.grade);
          out.tab();
          out.ascii(input.gender);
          for (const v of wideScoreValues(raw, score, wide)) {
            out.tab();
            out.value(v);
          }
          out.tab();
          out.number(importedFields);
          out.tab();
          out.number(editedFields);
          if (held) held.add(input.studentId, input.classId, incoming);
          else {
            out.tab();
            out.ascii(old ? old.xmin : '\\N');
            out.tab();
            out.number(incoming);
            out.byte(10);
          }
          count++;
        }
        return { text: held ? [] : out.parts(), count, accepted };
      };
      const stageSlice = async (s: BulkSession, inputs: readonly ResultInput[], stored: Map<string, StoredVersioned>) => {
        const { text, count, accepted } = stageRows(inputs, stored);
        if (count > 0) await s.copyIn(stage, STAGE_COLUMNS, text);
        return accepted;
      };

      // A plan without results when the import starts (a first import) has nothing to merge with: its slices skip the
      // stored read and are held for the direct write; a result that appears meanwhile sends them through the stage.
      const [{ stored: planHasResults }] = await conn.query<{ stored: boolean }>(PLAN_HAS_RESULTS, [ctx.plan.id, ctx.startYear]);
      let held = planHasResults ? null : new HeldRows();
      if (!held) await makeStage(conn);
      // A held row's stage columns: no stored version, its incoming mask (few masks: one buffer each, not one per row).
      const stageTails = new Map<number, Buffer>();
      const stageTail = (_: string, incoming: number) => {
        let tail = stageTails.get(incoming);
        if (!tail) stageTails.set(incoming, (tail = Buffer.from(`\t\\N\t${incoming}\n`)));
        return tail;
      };
      const none = new Map<string, StoredVersioned>();
      let written = 0;
      const value = await produce(async (inputs) => {
        if (inputs.length === 0) return;
        if (held) {
          written += stageRows(inputs, none, held).accepted;
          if (held.bytes <= (opts.heldBytes ?? HELD_BYTES)) return;
          // Memory stays bounded however long the file: past the bound the held rows are staged and the rest follow
          // them slice by slice, still without a stored read (a result that appears meanwhile is merged again).
          await makeStage(conn);
          await conn.copyIn(stage, STAGE_COLUMNS, held.lines(stageTail));
          held = null;
          return;
        }
        const [{ t }] = planHasResults ? await conn.query<{ t: string | null }>(SELECT_STORED_TEXT, [ctx.plan.id, inputs.map((i) => i.studentId), ctx.startYear]) : [{ t: null }];
        const { text, count, accepted } = stageRows(inputs, storedByStudent(storedLines(t)));
        written += accepted;
        if (count === 0) return;
        // One COPY in flight at most. On PostgreSQL (its own process) the slice is not waited for: the server ingests
        // it while the next slice is read and scored (docs/decisions/028-score-import-at-copy-speed.md); PGlite runs in this thread.
        await copying;
        copying = conn.copyIn(stage, STAGE_COLUMNS, text);
        copying.catch(() => {}); // awaited before the next COPY, the write transaction or the stage's drop
        if (!overlap) await copying;
      });
      await copying;
      if (written === 0) return { value, written };
      await opts.onStaged?.();

      await conn.transaction(async (tx) => {
        if (held) {
          // The plan's lock, then (a statement of its own, so it sees what committed while it waited) its results.
          await tx.query(`select 1 from test_plans where id = $1 for update`, [ctx.plan.id]);
          const [{ stored }] = await tx.query<{ stored: boolean }>(PLAN_HAS_RESULTS, [ctx.plan.id, ctx.startYear]);
          if (!stored) {
            await writeHeld(tx, held, ctx, opts, written, overlap);
            await opts.inWrite?.(tx, written);
            return;
          }
          await makeStage(tx);
          await tx.copyIn(stage, STAGE_COLUMNS, held.lines(stageTail));
        }
        await mergeChangedMeanwhile(tx, stage, ctx, (inputs, stored) => stageSlice(tx, inputs, stored));
        await checkReferences(tx, stage, ctx, opts.userId, overlap);
        // One audit entry for the import, with the previous values of the rows it changes (null for a new result).
        await tx.query(
          `insert into audit_logs (at, user_id, org_id, action, entity, entity_id, before, after)
          select $6::timestamptz, $1::uuid, $2::uuid, 'import', '${IMPORT_AUDIT_ENTITY}', $3, jsonb_object_agg(s.id, case when r.id is null then null else ${PREVIOUS_VALUES} end),
            jsonb_build_object('fileName', $4::text, 'rows', $5::int, 'changed', count(*))
          from ${stage} s left join ${RESULTS} r on r.${q(column('id'))} = s.${q(column('id'))} and r.${q(column('schoolYear'))} = $7 having count(*) > 0`,
          [opts.userId, ctx.plan.orgId, ctx.plan.id, opts.fileName, written, updatedAt, ctx.startYear],
        );
        // The references are checked and locked above, set-wise: where the role may, the per-row foreign-key checks
        // of the INSERT are skipped (replica mode; the rollup triggers are ENABLE ALWAYS and still run): a superuser, or a
        // role granted SET on session_replication_role (server/db/replication-role.ts).
        const skipped = (await tx.query(SKIP_FK_TRIGGERS)).length > 0;
        await tx.query(INSERT_FROM_STAGE(stage), [ctx.plan.orgId, ctx.plan.id, opts.testedOn, opts.userId, updatedAt, ctx.startYear]);
        if (skipped) await tx.query(RESTORE_FK_TRIGGERS);
        await opts.inWrite?.(tx, written);
      });
      return { value, written };
    } finally {
      await copying.catch(() => {});
      if (staging) await conn.query(`drop table if exists ${stage}`);
    }
  });
}

/**
 * The COPY text a first import holds for its direct write, ≈ 260 bytes a row: about 95,000 rows; a longer file's rows
 * go through the stage, so the import's memory does not grow with the file (at the COPY, PGlite's
 * session copies the text twice more: its chunks into a Blob, the Blob into an ArrayBuffer).
 */
const HELD_BYTES = 24 * 1024 * 1024;

const PLAN_HAS_RESULTS = `select exists (select 1 from ${RESULTS} where ${q(column('planId'))} = $1 and ${q(column('schoolYear'))} = $2) as stored`;
/** Columns of the direct write, in COPY order: the held rows' own, then those the same for every row, the class name last. */
const DIRECT_COLUMNS = [
  ...STAGE_FIELDS.map(column),
  ...(['orgId', 'schoolYear', 'planId', 'testedOn', 'source', 'updatedBy', 'updatedAt', 'className'] as const).map(column),
];
for (const c of WRITE_COLUMNS) if (!DIRECT_COLUMNS.includes(c)) throw new Error(`the direct write misses ${c}`);

/**
 * A first import's write, inside its transaction, the plan locked and still without results: the held rows COPYed
 * straight into physique_results (one statement: the rollup and change-feed triggers run once, as for the stage's
 * INSERT), with the per-row foreign-key checks skipped where the role may; then their references checked (and locked
 * on PostgreSQL) and the audit entry written from the plan's rows, which are now exactly these. The same rows, triggers
 * and audit entry as the stage path's; a failure anywhere rolls all of it back.
 */
async function writeHeld(tx: BulkSession, held: HeldRows, ctx: PlanContext, opts: StagedImportOptions, written: number, lock: boolean): Promise<void> {
  // The class's name today is kept with the result: K12 classes are renamed as their cohort moves up.
  const names = new Map<string, string>();
  for (const c of await tx.query<{ id: string; name: string }>(`select id, name from classes where id = any($1::uuid[])`, [held.classIds()])) names.set(c.id, c.name);
  const same = `${ctx.plan.orgId}\t${ctx.startYear}\t${ctx.plan.id}\t${opts.testedOn}\timport\t${opts.userId}\t${opts.now.toISOString()}`;
  const tails = new Map<string, Buffer>();
  const tailOf = (classId: string) => {
    let tail = tails.get(classId);
    if (!tail) tails.set(classId, (tail = Buffer.from(`\t${same}\t${copyValue(names.get(classId) ?? '')}\n`)));
    return tail;
  };
  const skipped = (await tx.query(SKIP_FK_TRIGGERS)).length > 0;
  await tx.copyIn(RESULTS, DIRECT_COLUMNS, held.lines(tailOf));
  if (skipped) await tx.query(RESTORE_FK_TRIGGERS);
  const planRows = `(select ${q(column('studentId'))}, ${q(column('classId'))} from ${RESULTS} where ${q(column('planId'))} = $1 and ${q(column('schoolYear'))} = ${Number(ctx.startYear)})`;
  // The plan's rows are the held ones: their count and classes are known, so the plan's rows are read once, for their students.
  await checkReferences(tx, planRows, ctx, opts.userId, lock, { rows: held.size, classIds: held.classIds() });
  // The entry's `before` (every result id, null: all are new) parsed from one text, which costs less than building
  // the object key by key (jsonb_object_agg).
  await tx.query(
    `insert into audit_logs (at, user_id, org_id, action, entity, entity_id, before, after)
    select $6::timestamptz, $1::uuid, $2::uuid, 'import', '${IMPORT_AUDIT_ENTITY}', $3, ('{' || string_agg('"' || r.${q(column('id'))} || '":null', ',') || '}')::jsonb,
      jsonb_build_object('fileName', $4::text, 'rows', $5::int, 'changed', count(*))
    from ${RESULTS} r where r.${q(column('planId'))} = $8::uuid and r.${q(column('schoolYear'))} = $7 having count(*) > 0`,
    [opts.userId, ctx.plan.orgId, ctx.plan.id, opts.fileName, written, opts.now.toISOString(), ctx.startYear, ctx.plan.id],
  );
}

/**
 * Every reference of the staged rows, checked once for the whole stage: the plan, its organisation, the user, and the
 * students and classes, which must belong to the plan's organisation. On PostgreSQL they are locked as a foreign-key
 * check would lock them (FOR KEY SHARE: nobody deletes them before the import commits); PGlite has one session, whose
 * transaction no other statement enters, so there the check alone suffices and 50,000 student rows are not written
 * for their lock. The stage holds one row per student (the import refuses a student's second row), so its rows are
 * counted without sorting them. `stage` is the stage's name, or a parenthesised query of the rows a direct write wrote,
 * whose count and classes the caller then knows (`known`).
 */
async function checkReferences(
  tx: BulkSession,
  stage: string,
  ctx: PlanContext,
  userId: string,
  lock: boolean,
  known?: { rows: number; classIds: readonly string[] },
): Promise<void> {
  const forKeyShare = lock ? 'for key share' : '';
  const classIds = known ? `select unnest($4::uuid[])` : `select s.${q(column('classId'))} from ${stage} s`;
  const [found] = await tx.query<{ plan: number; org: number; by_user: number; students: number; staged_students: number; classes: number; staged_classes: number }>(
    `with p as (select id from test_plans where id = $1 ${forKeyShare}),
      o as (select id from orgs where id = $2 ${forKeyShare}),
      u as (select id from users where id = $3 ${forKeyShare}),
      st as (select id from students where org_id = $2 and id in (select s.${q(column('studentId'))} from ${stage} s) ${forKeyShare}),
      c as (select id from classes where org_id = $2 and id in (${classIds}) ${forKeyShare})
    select (select count(*) from p)::int as plan, (select count(*) from o)::int as org, (select count(*) from u)::int as by_user,
      (select count(*) from st)::int as students, ${known ? '$5' : `(select count(*) from ${stage} x)`}::int as staged_students,
      (select count(*) from c)::int as classes, ${known ? '$6' : `(select count(*) from (select distinct ${q(column('classId'))} from ${stage} x) d)`}::int as staged_classes`,
    known ? [ctx.plan.id, ctx.plan.orgId, userId, known.classIds, known.rows, known.classIds.length] : [ctx.plan.id, ctx.plan.orgId, userId],
  );
  if (found.plan !== 1 || found.org !== 1 || found.by_user !== 1 || found.students !== found.staged_students || found.classes !== found.staged_classes) {
    throw new Error(`import staging refers to rows that are gone: ${JSON.stringify(found)}`);
  }
}

/**
 * Staged rows whose stored result was written by someone else after the slice read it (an edit, invalid/restore, a
 * result that appeared or went): the file's values of those rows are merged again with the stored ones, now locked.
 */
async function mergeChangedMeanwhile(
  tx: BulkSession,
  stage: string,
  ctx: PlanContext,
  restage: (inputs: ResultInput[], stored: Map<string, StoredVersioned>) => Promise<number>,
): Promise<void> {
  const key = `r.${q(column('planId'))} = $1 and r.${q(column('schoolYear'))} = $2 and r.${q(column('studentId'))} = s.${q(column('studentId'))}`;
  const moved = await tx.query<{ student_id: string; class_id: string; grade_no: number; gender: Gender; incoming: number } & Record<string, number | null>>(
    `delete from ${stage} s where not exists (select 1 from ${RESULTS} r where ${key} and r.xmin::text = s.base_xmin)
      and (s.base_xmin is not null or exists (select 1 from ${RESULTS} r where ${key}))
    returning s.${q(column('studentId'))} as student_id, s.${q(column('classId'))} as class_id, s.${q(column('gradeNo'))} as grade_no, s.${q(column('gender'))} as gender, s.incoming,
      ${RAW_COLUMNS.map(([, c]) => `s.${q(c)}`).join(', ')}`,
    [ctx.plan.id, ctx.startYear],
  );
  if (moved.length === 0) return;
  const inputs: ResultInput[] = moved.map((m) => {
    const results: NationalResults = {};
    RAW_COLUMNS.forEach(([field, col], i) => {
      const v = m[col];
      if (m.incoming & (1 << i) && v != null) results[field as ResultKey] = v;
    });
    return { studentId: m.student_id, classId: m.class_id, grade: m.grade_no as Grade, gender: m.gender, results };
  });
  const locked = await tx.query<Record<string, string | number | null>>(SELECT_STORED_LOCKED, [ctx.plan.id, inputs.map((i) => i.studentId), ctx.startYear]);
  await restage(inputs, storedByStudent(locked.map((r) => Object.values(r))));
}

function sameRaw(a: Partial<WideRawFields>, b: Partial<WideRawFields>): boolean {
  for (const f of RAW_FIELDS) if ((a[f] ?? null) !== (b[f] ?? null)) return false;
  return true;
}

/**
 * One student's values into the plan's result inside the caller's transaction, written as an import writes them
 * (docs/product-rules.md#physique-year, test day: a station's confirmed value): the stored result locked, merged and
 * rescored by mergeAndScore with the import's source masks, `source` 'import', the rollup triggers fired by the
 * INSERT or UPDATE, and a log row per field (old → new) in the result's history. A concurrent first write of the same
 * (plan, student) hits the unique key and rolls the caller's transaction back.
 */
export async function writeResultInTx(
  tx: DbOrTx,
  ctx: PlanContext,
  input: ResultInput,
  opts: { userId: string; now: Date; testedOn: string },
): Promise<{ resultId: string; created: boolean }> {
  const [row] = await tx
    .select()
    .from(physiqueResults)
    .where(and(eq(physiqueResults.planId, ctx.plan.id), eq(physiqueResults.schoolYear, ctx.startYear), eq(physiqueResults.studentId, input.studentId)))
    .for('update');
  const stored = row as unknown as Record<string, number | null> | undefined;
  let old: StoredValues | undefined;
  if (row) {
    const raw: Partial<WideRawFields> = {};
    for (const f of RAW_FIELDS) {
      const v = stored![f];
      if (v != null) raw[f] = v;
    }
    old = { raw, importedFields: row.importedFields, editedFields: row.editedFields };
  }
  const { raw, score, masks } = mergeAndScore(ctx, input, old, input.results, 'import');
  const values: Record<string, unknown> = {};
  const wide = wideScoreValues(raw, score);
  WIDE_SCORE_FIELDS.forEach((f, i) => (values[f] = wide[i]));
  const [cls] = await tx.select({ name: classes.name }).from(classes).where(eq(classes.id, input.classId));
  const common = { ...values, ...masks, testedOn: opts.testedOn, source: 'import' as const, updatedBy: opts.userId, updatedAt: opts.now };
  let resultId: string;
  if (row) {
    resultId = row.id;
    await tx
      .update(physiqueResults)
      .set(common)
      .where(and(eq(physiqueResults.id, row.id), eq(physiqueResults.schoolYear, ctx.startYear)));
  } else {
    resultId = timeOrderedUuid();
    await tx.insert(physiqueResults).values({
      ...common,
      id: resultId,
      orgId: ctx.plan.orgId,
      planId: ctx.plan.id,
      schoolYear: ctx.startYear,
      studentId: input.studentId,
      classId: input.classId,
      gradeNo: input.grade,
      className: cls?.name ?? '',
      gender: input.gender,
    } as typeof physiqueResults.$inferInsert);
  }
  const logs = (Object.keys(input.results) as ResultKey[]).map((field) => ({
    resultId,
    schoolYear: ctx.startYear,
    action: 'import' as const,
    field,
    oldValue: old?.raw[field] == null ? null : String(old.raw[field]),
    newValue: input.results[field] == null ? null : String(input.results[field]),
    byUser: opts.userId,
    at: opts.now,
  }));
  if (logs.length > 0) await tx.insert(physiqueResultLogs).values(logs);
  return { resultId, created: !row };
}
