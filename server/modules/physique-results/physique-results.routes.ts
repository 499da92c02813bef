import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema, paramsOf } from '@/domain/list-query';
import { ok, pageSchema } from '@/domain/api';
import { resultDetailSchema, scoreSearchPageSchema, studentReportSchema, syncPreviewSchema, syncSummarySchema, testRecordRowSchema } from '@/domain/physique-results/answers';
import { ERR } from '@/domain/errors';
import { pageAccess, type Family } from '@/domain/menus/access';
import { getCatalogEntry, type ButtonAction } from '@/domain/menus/catalog';
import type { Translate } from '@/domain/physique-results/export-layout';
import {
  changedCountSchema,
  editRawBodySchema,
  idsBodySchema,
  reportQuerySchema,
  SCORE_IMPORT_MAX_BYTES,
  scoreFilterSchema,
  type ScoreFilter,
  scoreSearchQuerySchema,
  syncBodySchema,
  templateQuerySchema,
  testRecordFilterSchema,
  testRecordQuerySchema,
} from '@/domain/physique-results/schemas';
import { buffer } from 'node:stream/consumers';
import { resourceAction, type Access, type ActionContext } from '../../lib/action';
import { AppError } from '../../lib/app-error';
import { answerSchema, asIs } from '../../lib/openapi';
import type { JobContext, JobHandler } from '../../lib/jobs';
import { finishImport, finishImportIn } from '../files/import-job';
import { dropImport, heldImport, holdImport, keepImport } from '../people/people-import-store';
import { assertPlanOpen, getPlanInScope, jobRunningError, lockPlanInScope, runningPlanJob } from '../test-plans/test-plans.service';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { jobs } from '../../db/schema/jobs';
import type { Storage } from '../../lib/storage/storage';
import { saveUpload } from '../files/files.service';
import { CLASS_SCOPE_TABLES, classScopeOf } from '../../lib/data-scope';
import { orgs } from '../../db/schema/orgs';
import { physiqueResultCounts, physiqueResults } from '../../db/schema/physique';
import { physiqueExemptions } from '../../db/schema/physique-year';
import { schoolYears, students } from '../../db/schema/school';
import { testPlans } from '../../db/schema/test-plans';
import type { DbOrTx } from '../../db/client';
import { requirePermission, requireScope, type Actor } from '../../plugins/tenant';
import { importScores } from './physique-import.service';
import { exportRecords, recordPage, setRecordsInvalid } from './physique-records.service';
import { studentReport } from './physique-report.service';
import { checkScoreExport, editRawValue, exportScores, exportUpload, resultDetail, scoreExportRows, searchResults, setResultsInvalid, uploadExportRows, type Caller } from './physique-results.service';
import { previewSync, syncPlan } from './physique-sync.service';
import { planStudentRows, planTemplateWorkbook, signUpWorkbook, templateWorkbook } from './physique-template.service';
import { canWriteScores } from '@/domain/physique-results/write-access';

export interface PhysiqueRoutesOptions {
  /** Route family (docs/product-rules.md#families): K12 schools, universities, or a management organisation (read-only). */
  family: Family;
  /** Where the score export job keeps its workbook. */
  storage: Storage;
}

/**
 * The score export job (docs/product-rules.md#jobs): the workbook is written batch by batch (the bar follows the rows),
 * kept in the file store and referenced by the job in its `done` transaction; it downloads from the job.
 */
function scoreExportJob(storage: Storage): JobHandler<{ family: Family; filter: ScoreFilter }> {
  return async ({ db, actor, input, t, now, progress, finish }) => {
    await progress(0, 0, 'jobs:stage.reading');
    const who: Caller = { family: input.family, tenantOrgId: actor.tenantOrgId, userId: actor.userId, classScope: await classScopeOf(db, actor) };
    const translate: Translate = (key, options) => t(key, options ?? {});
    const { workbook, fileName, total } = await exportScores(db, who, input.filter, translate, now(), (done, all) => progress(done, all, 'jobs:stage.exporting'));
    const bytes = await buffer(workbook);
    await progress(total, total, 'jobs:stage.saving');
    await finish(async (tx) => {
      const file = await saveUpload(tx, storage, { orgId: actor.tenantOrgId, userId: actor.userId }, 'attachment', fileName, bytes, now());
      return { fileId: file.id, fileName: file.name, counts: { rows: total }, messageKey: 'jobs:result.physiqueExport', messageParams: { count: total } };
    });
  };
}

/**
 * The score import job (docs/product-rules.md#jobs, docs/decisions/028-score-import-at-copy-speed.md): the kept file is
 * read, checked and staged slice by slice (the bar follows the rows), and the job's `done` commits inside the import's
 * one write transaction with the failures workbook's row, so a retry after a dead process writes once or not at all.
 */
function scoreImportJob(storage: Storage): JobHandler<{ family: Family; planId: string; importId: string }> {
  return async (ctx) => {
    const { db, actor, input, t, now, progress } = ctx;
    await progress(0, 0, 'jobs:stage.reading');
    const file = await heldImport(db, storage, input.importId, actor, 'physiqueScores');
    let committed = false;
    try {
      const outcome = await importScores(db, {
        tenantOrgId: actor.tenantOrgId,
        userId: actor.userId,
        planId: input.planId,
        fileName: file.fileName,
        buffer: file.buffer,
        now: now(),
        t: (key, options) => t(key, options ?? {}),
        classScope: await classScopeOf(db, actor),
        onProgress: (done, total, stage) => progress(done, total, `jobs:stage.${stage}`),
        inWrite: async (tx, o) => {
          await finishImportIn(ctx as JobContext<unknown>, storage, (text, params) => tx.query(text, params), o);
          committed = true;
        },
      });
      // Nothing written (every row refused or unchanged): the workbook and the `done` through finish.
      if (!committed) await finishImport(ctx as JobContext<unknown>, storage, async () => outcome);
    } finally {
      await dropImport(db, storage, input.importId);
    }
  };
}

const planParams = paramsOf('planId');
const idParams = idParamsSchema;
const studentParams = paramsOf('studentId');

/**
 * Permission codes of catalogue pages (or their buttons) through the access module; a page the family lacks adds
 * nothing, so a guard over several screens only names the ones that exist in this family.
 */
function codes(family: Family, ...refs: [page: string, action?: ButtonAction][]): string[] {
  const out: string[] = [];
  for (const [page, action] of refs) {
    const key = getCatalogEntry(`${family}.${page}`) ? `${family}.${page}` : page;
    if (getCatalogEntry(key)?.kind !== 'page') continue;
    const access = pageAccess(key);
    const code = action ? access.buttons[action] : access.view;
    if (code) out.push(code);
  }
  return out;
}

/** The same refs as a kit access (docs/adding-a-screen.md#actions): the pages and buttons this family has, or null. */
function accessOf(family: Family, ...refs: [page: string, action?: ButtonAction][]): Access | null {
  const found: (readonly [string, ButtonAction | 'view'])[] = [];
  for (const [page, action] of refs) {
    const key = getCatalogEntry(`${family}.${page}`) ? `${family}.${page}` : page;
    if (getCatalogEntry(key)?.kind !== 'page') continue;
    const access = pageAccess(key);
    if (action ? access.buttons[action] : access.view) found.push([key, action ?? 'view']);
  }
  const [first, ...alternatives] = found;
  return first ? [first[0], first[1], ...alternatives] : null;
}

/**
 * Physique results of /api/busi/web/{k12|gx|admin} (docs/product-rules.md#physique-results): score import and sync, score search, the results
 * screen with edits and the national upload file, invalid/restore, test records and the student report. Every
 * route runs auth → tenant scope → permission code → validation → service.
 */
/** What the score list reads (server/plugins/read-cache.ts): its pages are kept until one of these changes. */
// physique_exemptions: a row's 免测/缓测 badge (resultSelection.exemption).
const SCORE_LIST_READS = { readsTables: [...CLASS_SCOPE_TABLES, orgs, physiqueResults, physiqueResultCounts, physiqueExemptions, schoolYears, students, testPlans] };

export const physiqueRoutes: FastifyPluginAsyncZod<PhysiqueRoutesOptions> = async (app, { family, storage }) => {
  // One kind for the three families: the job's input names the family.
  app.jobs.define('physiqueExport', scoreExportJob(storage));
  app.jobs.define('physiqueImport', scoreImportJob(storage));
  await app.register(multipart, { limits: { fileSize: SCORE_IMPORT_MAX_BYTES, files: 1, fields: 20, parts: 25 } });

  const caller = async (request: FastifyRequest): Promise<Caller> => {
    const scope = await requireScope(request);
    if (!request.session) throw new AppError(401, ERR.sessionExpired);
    return { family, tenantOrgId: scope.tenantOrgId, userId: request.session.userId, classScope: await classScopeOf(app.db, scope) };
  };
  /** Registers a route only when the family's catalogue has one of the permissions (e.g. no results screen for gx). */
  const guard = (list: string[]) => (list.length > 0 ? requirePermission(list[0], ...list.slice(1)) : null);
  const readOnly = !canWriteScores(family);
  /** Who reads, for the declared actions: the actor in the family, with the class scope of its data scope. */
  const callerOf = async (db: DbOrTx, actor: Actor): Promise<Caller> => ({ family, tenantOrgId: actor.tenantOrgId, userId: actor.userId, classScope: await classScopeOf(db, actor) });
  const reads = {
    sync: accessOf(family, ['test.testManage', 'import'], ['test.testResult', 'sync']),
    results: accessOf(family, ['test.testResult']),
    records: accessOf(family, ['sportData.testRecord']),
    report: accessOf(family, ['test.scoreSearch'], ['test.testResult'], ['dataCenter.student', 'detail'], ['single.scoreReport'], ['single.scoreReportK12']),
  };

  /** Who reads and writes in the declared actions, with the class scope of the role's data scope. */
  const can = {
    import: accessOf(family, ['test.testManage', 'import'], ['test.testResult', 'import']),
    template: accessOf(family, ['test.testManage', 'import'], ['test.testManage'], ['test.testResult', 'import']),
    search: accessOf(family, ['test.scoreSearch']),
    searchExport: accessOf(family, ['test.scoreSearch', 'export']),
    searchInvalid: accessOf(family, ['test.scoreSearch', 'invalid'], ['test.testResult', 'report']),
    searchValid: accessOf(family, ['test.scoreSearch', 'valid'], ['test.testResult', 'report']),
    resultEdit: accessOf(family, ['test.testResult', 'report']),
    resultExport: accessOf(family, ['test.testResult', 'export'], ['test.testResult', 'report']),
    recordExport: accessOf(family, ['sportData.testRecord', 'export']),
    recordInvalid: accessOf(family, ['sportData.testRecord', 'invalid']),
    recordValid: accessOf(family, ['sportData.testRecord', 'valid']),
  };
  const translate = (t: ActionContext['t']): Translate => (key, options) => t(key, options ?? {});

  // ---- score import and sync (docs/product-rules.md#physique-results: score import; docs/product-rules.md#plan-states) ------------
  if (can.import && !readOnly) {
    // The file waits in the store and the answer is the job's `{ id }`; what can be refused at once (not .xlsx, plan out
    // of scope or ended) is, and the rest (rows, a busy plan) is the job's outcome; the job audits the import.
    resourceAction(app, {
      method: 'POST',
      path: '/organizeTest/testManage/import/:planId',
      access: can.import,
      params: planParams,
      upload: true,
      enqueue: async (db, actor, { params, file }, { locale, now }) => {
        const { fileName, buffer } = file!;
        if (!/\.xlsx$/i.test(fileName.trim())) throw new AppError(400, ERR.onlyExcel);
        const { planId } = params;
        assertPlanOpen(await getPlanInScope(db, actor.tenantOrgId, planId), now);
        const kept = await keepImport(db, storage, actor, { kind: 'physiqueScores', family, fileName, buffer, context: { planId } }, now);
        try {
          await holdImport(db, kept.id, actor, 'physiqueScores', family, now);
          // Imports of a plan go one at a time (docs/product-rules.md#plan-states): refused at once while a sync or an
          // import runs or one waits in the queue or has just been taken (a job woken at once is `running` before its
          // import takes the plan's job lock); the plan row's lock orders two requests at the same moment.
          return await app.jobs.enqueue('physiqueImport', actor, { family, planId, importId: kept.id }, locale, async (tx) => {
            const plan = await lockPlanInScope(tx, actor.tenantOrgId, planId);
            assertPlanOpen(plan, app.now());
            const running = await runningPlanJob(tx, plan.id, app.now());
            if (running) throw jobRunningError(running.kind);
            const [waiting] = await tx
              .select({ id: jobs.id })
              .from(jobs)
              .where(and(eq(jobs.kind, 'physiqueImport'), inArray(jobs.state, ['queued', 'running']), sql`${jobs.input}->>'planId' = ${planId}`))
              .limit(1);
            if (waiting) throw jobRunningError('import');
          });
        } catch (error) {
          await dropImport(db, storage, kept.id);
          throw error;
        }
      },
    });
  }
  if (can.template && !readOnly) {
    resourceAction(app, {
      method: 'GET',
      path: '/organizeTest/testManage/import/template',
      access: can.template,
      query: templateQuerySchema,
      answers: 'file',
      summary: '成绩导入模板',
      // A plan's template lists its students (docs/product-rules.md#personal-data-access); the blank one names nobody.
      approval: { rows: async (db, actor, { query }) => (query.planId ? planStudentRows(db, actor.tenantOrgId, query.planId) : 0) },
      read: async (db, actor, { query }, { t }) =>
        query.planId ? planTemplateWorkbook(db, actor.tenantOrgId, query.planId, translate(t)) : templateWorkbook(translate(t), query.sample === true),
    });
    resourceAction(app, {
      method: 'GET',
      path: '/organizeTest/testManage/signUp/export/:planId',
      access: can.template,
      params: planParams,
      answers: 'file',
      summary: '报名名单',
      approval: { rows: (db, actor, { params }) => planStudentRows(db, actor.tenantOrgId, params.planId) },
      read: (db, actor, { params }, { t }) => signUpWorkbook(db, actor.tenantOrgId, params.planId, translate(t)),
    });
  }
  const syncGuard = guard(codes(family, ['test.testManage', 'import'], ['test.testResult', 'sync']));
  if (syncGuard && !readOnly) {
    // A read sent as a POST (it counts what a sync would write; it writes nothing).
    resourceAction(app, {
      method: 'POST',
      path: '/organizeTest/testManage/sync/:planId/preview',
      access: reads.sync!,
      params: planParams,
      answer: syncPreviewSchema,
      read: async (db, actor, { params }) => previewSync(db, { tenantOrgId: actor.tenantOrgId, planId: params.planId, now: app.now(), classScope: await classScopeOf(db, actor) }),
    });
    // A hand route: a sync takes the plan's job lock and records its outcome in transactions of its own (a failed sync
    // stays recorded), so it cannot run inside the action kit's one transaction.
    app.post('/organizeTest/testManage/sync/:planId', { preValidation: syncGuard, serializerCompiler: asIs, schema: { params: planParams, body: syncBodySchema, response: answerSchema(syncSummarySchema) } }, async (request) => {
      const who = await caller(request);
      const { replaceManual } = request.body;
      return ok(await syncPlan(app.db, { tenantOrgId: who.tenantOrgId, userId: who.userId, planId: request.params.planId, now: app.now(), replaceManual, classScope: who.classScope }));
    });
  }

  // ---- score search (organizeTest/scoreSearch) -------------------------------------------------------------------
  if (can.search) {
    resourceAction(app, {
      method: 'GET',
      path: '/organizeTest/scoreSearch/page',
      access: can.search,
      config: SCORE_LIST_READS,
      query: scoreSearchQuerySchema,
      answer: scoreSearchPageSchema,
      read: async (db, actor, { query }, ctx) => searchResults(db, await callerOf(db, actor), query, ctx.changes()),
    });
  }
  if (can.searchExport) {
    // A job (docs/product-rules.md#jobs): too many rows answers at once, else the job's `{ id }`; the file downloads from the job.
    resourceAction(app, {
      method: 'POST',
      path: '/organizeTest/scoreSearch/export',
      access: can.searchExport,
      body: scoreFilterSchema,
      // Students' results (docs/product-rules.md#personal-data-access): above the threshold the start is refused and
      // the approved file is the job's workbook, built at the download.
      approval: {
        rows: async (db, actor, { body }) => scoreExportRows(db, await callerOf(db, actor), body),
        file: async (db, actor, { body }, { t, now }) => {
          const { workbook, fileName } = await exportScores(db, await callerOf(db, actor), body, translate(t), now);
          return { workbook, fileName };
        },
      },
      enqueue: async (db, actor, { body }, { locale }) => {
        await checkScoreExport(db, await callerOf(db, actor), body);
        return app.jobs.enqueue('physiqueExport', actor, { family, filter: body }, locale);
      },
    });
  }
  // Each result also keeps these changes in its own change log (physique_result_logs, the result detail's history); the
  // kit adds one audit row per result changed.
  if (!readOnly) {
    for (const [path, access, invalid] of [
      ['/organizeTest/scoreSearch/invalid', can.searchInvalid, true],
      ['/organizeTest/scoreSearch/valid', can.searchValid, false],
      ['/physiqueManage/testResult/invalid', reads.results ? can.searchInvalid : null, true],
      ['/physiqueManage/testResult/valid', reads.results ? can.searchValid : null, false],
    ] as const) {
      if (!access) continue;
      resourceAction(app, {
        method: 'POST',
        path,
        access,
        body: idsBodySchema,
        entity: 'physiqueResult',
        audit: invalid ? 'invalid' : 'valid',
        message: null,
        answer: changedCountSchema,
        write: async (tx, actor, { body }, { now }) => {
          const { changed, ids } = await setResultsInvalid(tx, await callerOf(tx, actor), body.ids, invalid, now);
          return { after: { invalid }, entityIds: ids, answer: { changed } };
        },
      });
    }
  }

  // ---- results and the upload file (physiqueManage/testResult, editUpReport) -----------------------------------------
  if (reads.results) {
    resourceAction(app, {
      method: 'GET',
      path: '/physiqueManage/testResult/page',
      access: reads.results,
      query: scoreSearchQuerySchema,
      answer: scoreSearchPageSchema,
      read: async (db, actor, { query }, ctx) => searchResults(db, await callerOf(db, actor), query, ctx.changes()),
    });
    resourceAction(app, {
      method: 'GET',
      path: '/physiqueManage/testResult/:id',
      access: reads.results,
      params: idParams,
      answer: resultDetailSchema,
      read: async (db, actor, { params }) => resultDetail(db, await callerOf(db, actor), params.id),
    });
  }
  if (can.resultEdit && !readOnly) {
    // The result's own change log keeps the old and new value; the audit row names the field and the value entered.
    resourceAction(app, {
      method: 'POST',
      path: '/physiqueManage/testResult/editUpReport/:id',
      access: can.resultEdit,
      params: idParams,
      body: editRawBodySchema,
      entity: 'physiqueResult',
      audit: 'update',
      message: null,
      answer: resultDetailSchema,
      write: async (tx, actor, { params, body }, { now }) => ({ after: body, answer: await editRawValue(tx, await callerOf(tx, actor), params.id, body, now) }),
    });
  }
  if (can.resultExport) {
    resourceAction(app, {
      method: 'GET',
      path: '/physiqueManage/testResult/export',
      access: can.resultExport,
      query: scoreFilterSchema,
      answers: 'file',
      summary: '上报文件',
      // Students' identities and results (docs/product-rules.md#personal-data-access): one row per student.
      approval: { rows: async (db, actor, { query }) => uploadExportRows(db, await callerOf(db, actor), query) },
      read: async (db, actor, { query }, { t, now }) => exportUpload(db, await callerOf(db, actor), query, translate(t), now),
    });
  }

  // ---- test records (selfTest/testRecord) ---------------------------------------------------------------------------
  if (reads.records) {
    resourceAction(app, {
      method: 'GET',
      path: '/selfTest/testRecord/page',
      access: reads.records,
      query: testRecordQuerySchema,
      answer: pageSchema(testRecordRowSchema),
      read: async (db, actor, { query }) => recordPage(db, await callerOf(db, actor), query),
    });
  }
  if (can.recordExport) {
    resourceAction(app, {
      method: 'GET',
      path: '/selfTest/testRecord/export',
      access: can.recordExport,
      query: testRecordFilterSchema,
      answers: 'file',
      approval: { rows: async (db, actor, { query }) => (await recordPage(db, await callerOf(db, actor), { ...query, current: 1, size: 1 })).total },
      read: async (db, actor, { query }, { t, now }) => exportRecords(db, await callerOf(db, actor), query, translate(t), now),
    });
  }
  // A test record keeps who set it invalid and when on the record itself; the kit adds one audit row per record changed.
  if (!readOnly) {
    for (const [path, access, invalid] of [
      ['/selfTest/testRecord/invalid', can.recordInvalid, true],
      ['/selfTest/testRecord/valid', can.recordValid, false],
    ] as const) {
      if (!access) continue;
      resourceAction(app, {
        method: 'POST',
        path,
        access,
        body: idsBodySchema,
        entity: 'testRecord',
        audit: invalid ? 'invalid' : 'valid',
        message: null,
        answer: changedCountSchema,
        write: async (tx, actor, { body }, { now }) => {
          const { changed, ids } = await setRecordsInvalid(tx, await callerOf(tx, actor), body.ids, invalid, now);
          return { after: { invalid }, entityIds: ids, answer: { changed } };
        },
      });
    }
  }

  // ---- the student report (docs/product-rules.md#physique-results: student report) --------------------------------------------------
  if (reads.report) {
    resourceAction(app, {
      method: 'GET',
      path: '/physique/report/:studentId',
      access: reads.report,
      params: studentParams,
      query: reportQuerySchema,
      answer: studentReportSchema,
      read: async (db, actor, { params, query }) => studentReport(db, await callerOf(db, actor), params.studentId, query),
    });
  }
};
