import { gunzipSync, gzipSync } from 'node:zlib';
import { and, asc, desc, eq } from 'drizzle-orm';
import { PEOPLE_IMPORT_MAX_ROWS, PREVIEW_REJECTED_ROWS, foldCell, peopleColumns, type PeopleImportKind, type PeopleImportPreview } from '@/domain/people/people-import';
import { PREVIEW_UPDATE_ROWS } from '@/domain/people/import-updates';
import type { Translate } from '@/domain/physique-results/export-layout';
import type { Db, DbOrTx } from '../../db/client';
import { schoolYears, semesters } from '../../db/schema/school';
import { AppError } from '../../lib/app-error';
import { failuresFile, readImportSheet, rowReason, type RowFailure } from '../../lib/import-rows';
import type { Actor } from '../../plugins/tenant';
import { dropImport, heldImport, keepImport } from './people-import-store';
import type { Storage } from '../../lib/storage/storage';
import type { JobContext, JobHandler } from '../../lib/jobs';
import type { BulkSession } from '../physique-results/bulk-session';
import { finishImport, finishImportIn } from '../files/import-job';
import { planStudents, writeStudents, type LateRefusal, type StudentPlanFile } from './people-import-students';
import { planAccounts } from './people-import-staff';
import { RAW, type Family, type ImportContext, type ImportPlan, type ParsedFile } from './people-import-rows';

/**
 * People imports (docs/product-rules.md#people-import): a dry run reads the file, checks every row with the form's
 * schema and the database, and answers what would be created, updated (each row with its changes) and rejected,
 * writing nothing. An existing record changes only when the upload allows updates (docs/product-rules.md#import-updates).
 * A student dry run keeps the checked rows under an import id and its commit writes them, re-checking only the keys
 * that decide a conflict; a staff or account file waits under its id and is read and checked again.
 */

/** Reads an uploaded workbook on the import kit: .xlsx only, at most PEOPLE_IMPORT_MAX_ROWS rows, the header found by name or alias. */
export function readPeopleFile(file: { fileName: string; buffer: Buffer }, kind: PeopleImportKind, t: Translate): Promise<ParsedFile> {
  return readImportSheet<string>(file, { columns: peopleColumns(kind), sheetRows: PEOPLE_IMPORT_MAX_ROWS, cellText: foldCell }, t);
}

async function studentContext(db: DbOrTx, actor: Actor, extra: Record<string, string>) {
  const yearId = extra.schoolYearId ?? '';
  const semesterId = extra.semesterId ?? '';
  const uuid = /^[0-9a-f-]{36}$/i;
  if (!uuid.test(yearId) || !uuid.test(semesterId)) throw new AppError(400, 'people:import.yearSemesterFirst');
  const [hit] = await db
    .select({ id: semesters.id })
    .from(semesters)
    .innerJoin(schoolYears, eq(schoolYears.id, semesters.schoolYearId))
    .where(and(eq(semesters.id, semesterId), eq(schoolYears.id, yearId), eq(schoolYears.orgId, actor.tenantOrgId)));
  if (!hit) throw new AppError(400, 'people:import.yearSemesterFirst');
}

/** The school years and semesters a student import may name (newest first; the current ones flagged). */
export async function studentImportOptions(db: DbOrTx, actor: Actor) {
  const rows = await db
    .select({ id: schoolYears.id, academicYear: schoolYears.academicYear, current: schoolYears.current, semesterId: semesters.id, code: semesters.code, semesterCurrent: semesters.current })
    .from(schoolYears)
    .leftJoin(semesters, eq(semesters.schoolYearId, schoolYears.id))
    .where(eq(schoolYears.orgId, actor.tenantOrgId))
    .orderBy(desc(schoolYears.startYear), asc(semesters.code));
  const years = new Map<string, { id: string; academicYear: string; current: boolean; semesters: { id: string; code: number; current: boolean }[] }>();
  for (const r of rows) {
    const year = years.get(r.id) ?? { id: r.id, academicYear: r.academicYear, current: r.current, semesters: [] };
    years.set(r.id, year);
    if (r.semesterId) year.semesters.push({ id: r.semesterId, code: r.code!, current: Boolean(r.semesterCurrent) });
  }
  return { schoolYears: [...years.values()] };
}

async function planOf(kind: PeopleImportKind, file: ParsedFile, ctx: ImportContext): Promise<ImportPlan & { plan?: StudentPlanFile }> {
  if (kind === 'student') {
    await studentContext(ctx.db, ctx.actor, ctx.extra);
    return planStudents(file, ctx);
  }
  return planAccounts(kind, file, ctx);
}

/** The context field that marks a kept student plan (its blob is gzipped JSON, not the uploaded workbook). */
const PLAN_MARK = 'checkedPlan';

function contextOf(db: DbOrTx, actor: Actor, family: Family, t: Translate, extra: Record<string, string>, onProgress?: ImportContext['onProgress']): ImportContext {
  return { db, actor, family, t, extra, onProgress };
}

/** The dry run: counts and the first refused rows; nothing is written. The file waits for its commit under `importId`. */
export async function previewImport(
  db: Db,
  storage: Storage,
  now: Date,
  actor: Actor,
  kind: PeopleImportKind,
  family: Family,
  upload: { fileName: string; buffer: Buffer; fields: Record<string, string> },
  t: Translate,
): Promise<PeopleImportPreview> {
  const file = await readPeopleFile(upload, kind, t);
  const plan = await planOf(kind, file, contextOf(db, actor, family, t, upload.fields));
  // A student import keeps what it checked, so the commit neither reads nor checks the file again.
  const kept = plan.plan
    ? await keepImport(db, storage, actor, { kind, family, fileName: upload.fileName, buffer: gzipSync(JSON.stringify(plan.plan), { level: 1 }), context: { ...upload.fields, [PLAN_MARK]: '1' } }, now)
    : await keepImport(db, storage, actor, { kind, family, fileName: upload.fileName, buffer: upload.buffer, context: upload.fields }, now);
  return {
    importId: kept.id,
    fileName: upload.fileName,
    rows: file.rows.length,
    create: plan.create,
    update: plan.update,
    unchanged: plan.unchanged ?? 0,
    updates: (plan.updates ?? []).slice(0, PREVIEW_UPDATE_ROWS),
    rejected: plan.rejected.length,
    ...(plan.parentsCreate === undefined ? {} : { parentsCreate: plan.parentsCreate, parentsUpdate: plan.parentsUpdate }),
    failures: plan.rejected.slice(0, PREVIEW_REJECTED_ROWS).map((r) => ({ row: r.row, reason: r.reason })),
    expiresAt: kept.expiresAt.toISOString(),
  };
}

/** Failed rows the workbook lists one by one (the rest are counted on a last line). */
const FAILED_ROWS_LISTED = 2000;

/**
 * The commit of a people import as a job (docs/product-rules.md#jobs): the file or plan the commit handed over
 * (holdImport), checked again for staff and accounts (someone may have changed the data since the dry run), the
 * accepted rows written in one transaction by natural key (学籍号, mobile, login account) together with the job's `done`
 * and the failures workbook's row, so a retry after a dead process writes once or not at all. Any write error rolls
 * everything back. The kept file goes when the job ends (not when its process dies: a retry reads it).
 */
export function peopleImportJob(storage: Storage): JobHandler<{ kind: PeopleImportKind; family: Family; importId: string }> {
  return async (job) => {
    const { db, actor, input, progress } = job;
    const { kind, family, importId } = input;
    const t: Translate = (key, options) => job.t(key, options ?? {});
    await progress(0, 0, 'jobs:stage.reading');
    const pending = await heldImport(db, storage, importId, actor, kind);
    try {
      if (kind === 'student') {
        let committed = false;
        const outcome = await commitStudentPlan(
          db,
          actor,
          family,
          pending.buffer,
          pending.context,
          t,
          async (s, o) => {
            await finishImportIn(job as JobContext<unknown>, storage, (text, params) => s.query(text, params), o);
            committed = true;
          },
          (done, total) => progress(done, total, 'jobs:stage.writing'),
        );
        // Nothing written (every row refused at the last check): the workbook and the `done` through finish.
        if (!committed) await finishImport(job as JobContext<unknown>, storage, async () => outcome);
        return;
      }
      const file = await readPeopleFile(pending, kind, t);
      const done = await planOf(kind, file, contextOf(db, actor, family, t, pending.context, (n, total) => progress(n, total, 'jobs:stage.checking')));
      await progress(file.rows.length, file.rows.length, 'jobs:stage.writing');
      await finishImport(job as JobContext<unknown>, storage, async (tx) => {
        await done.write(tx);
        const success = done.create + done.update;
        const result = failuresFile(file, { t, fileName: t(`people:import.fileName.${kind}`, RAW), success, failures: done.rejected, listed: FAILED_ROWS_LISTED });
        return { ...result, success, failure: done.rejected.length };
      });
    } finally {
      await dropImport(db, storage, importId);
    }
  };
}

/** What a commit leaves: the counts and the failures workbook. */
interface Outcome {
  workbook: Buffer;
  fileName: string;
  success: number;
  failure: number;
}

/**
 * The student commit (docs/product-rules.md#import-updates): the rows the dry run checked, written with only the
 * conflict keys checked again in the transaction (writeStudents, which runs `inWrite` last inside it); rows refused
 * there join the dry run's refused rows in the failures workbook.
 */
async function commitStudentPlan(
  db: Db,
  actor: Actor,
  family: Family,
  blob: Buffer,
  context: Record<string, string>,
  t: Translate,
  inWrite: (s: BulkSession, outcome: Outcome) => Promise<void>,
  onProgress: (done: number, total: number) => Promise<void>,
): Promise<Outcome> {
  if (context[PLAN_MARK] !== '1') throw new AppError(404, 'people:import.expired');
  const plan = JSON.parse(gunzipSync(blob).toString('utf8')) as StudentPlanFile;
  const ctx = contextOf(db, actor, family, t, context);
  // The rows are written set-wise in one transaction: progress is its start (the job's `done` is its end).
  await onProgress(0, plan.students.length);
  const outcomeOf = (written: number, late: LateRefusal[]): Outcome => {
    const header = (key: string) => peopleColumns('student').find((c) => c.key === key)!.header;
    const refused: RowFailure[] = [
      ...plan.rejected,
      ...late.map((l) => ({ row: l.row, cells: plan.cells[l.row] ?? [], reason: rowReason(t, l.row, header(l.field), l.message) })),
    ].sort((a, b) => a.row - b.row);
    const result = failuresFile(
      { header: plan.header, index: {}, columns: [] },
      { t, fileName: t('people:import.fileName.student', RAW), success: written, failures: refused, listed: FAILED_ROWS_LISTED, textColumns: plan.textColumns },
    );
    return { ...result, success: written, failure: refused.length };
  };
  const { written, late } = await writeStudents(db, ctx, plan, (s, w) => inWrite(s, outcomeOf(w.written, w.late)));
  return outcomeOf(written, late);
}
