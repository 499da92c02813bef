import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { allowsUpdates } from '@/domain/people/import-updates';
import { CLASS_IMPORT_MAX_BYTES, classImportQuery } from '@/domain/school/class-import';
import { classDetailSchema, classFormOptionsSchema, classListQuery, classSaveSchema } from '@/domain/school/classes';
import { collegeDetailSchema, collegeListQuery, collegeSaveSchema, majorDetailSchema, majorFormOptionsSchema, majorListQuery, majorSaveSchema } from '@/domain/school/colleges';
import { gradeDetailSchema, gradeFormOptionsSchema, gradeListQuery, gradeSaveSchema } from '@/domain/school/grades';
import { schoolYearDetailSchema, schoolYearListQuery, schoolYearSaveSchema } from '@/domain/school/school-years';
import { resourceAction, type ActionContext } from '../../lib/action';
import { registerResource, relativeApi } from '../../lib/resource';
import { sendXlsx, uploadedFile } from '../../lib/spreadsheet/http';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { classExport, classTemplate, importClasses } from './class-import.service';
import { classById, classFormOptions, classPage, createClass, deleteClass, updateClass } from './class.service';
import { collegeById, collegeOptions, collegePage, createCollege, createMajor, deleteCollege, deleteMajor, majorById, majorPage, updateCollege, updateMajor } from './college.service';
import { createGrade, deleteGrade, gradeById, gradeFormOptions, gradePage, updateGrade } from './grade.service';
import { rolloverRoutes } from './rollover.routes';
import { createSchoolYear, deleteSchoolYear, schoolYearById, schoolYearPage, updateSchoolYear } from './school-year.service';
import type { SchoolFamily } from '@/domain/menus/access';

/**
 * School structure of /api/busi/web/{k12|gx}: school years with semesters (org/acayear), grades (org/grade), classes
 * (org/class) and, at universities, colleges and majors — each a resource declaration on the server kit
 * (server/lib/resource.ts).
 */
const translator = (t: ActionContext['t']) => (key: string, options?: Record<string, unknown>) => t(key, options ?? {});

export const orgRoutes: FastifyPluginAsync<{ family: SchoolFamily }> = async (app, { family }) => {

  await registerResource(app, family, {
    key: `${family}.org.acayear`,
    entity: 'schoolYear',
    list: { query: schoolYearListQuery, handler: (db, actor, q) => schoolYearPage(db, actor, q, app.now()) },
    get: (db, actor, id) => schoolYearById(db, actor, id, app.now()),
    create: { body: schoolYearSaveSchema, handler: (tx, actor, body) => createSchoolYear(tx, actor, body, app.now()) },
    update: { body: schoolYearSaveSchema, handler: (tx, actor, id, body) => updateSchoolYear(tx, actor, id, body, app.now()) },
    remove: (tx, actor, id) => deleteSchoolYear(tx, actor, id, app.now()),
    response: { row: schoolYearDetailSchema, detail: schoolYearDetailSchema, saved: schoolYearDetailSchema },
  });
  // Year rollover (docs/product-rules.md#year-rollover): a university's classes graduate by their major's length.
  await app.register(rolloverRoutes, { prefix: `${relativeApi(`${family}.org.acayear`, family)}/rollover`, family });

  const classKey = `${family}.org.class`;
  await registerResource(
    app,
    family,
    {
      key: classKey,
      entity: 'class',
      list: { query: classListQuery, handler: classPage },
      get: classById,
      create: { body: classSaveSchema, handler: createClass },
      update: { body: classSaveSchema, handler: updateClass },
      remove: deleteClass,
      // The list answers the detail's fields too (the screen edits from its row).
      response: { row: classDetailSchema, detail: classDetailSchema, saved: classDetailSchema },
    },
    (scope) => {
      resourceAction(scope, { method: 'GET', path: '/options', access: [classKey, 'view'], read: classFormOptions, answer: classFormOptionsSchema });
      // Import and export of the class workbook (docs/product-rules.md#class-import).
      void scope.register(multipart, { limits: { fileSize: CLASS_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
      const r = scope.withTypeProvider<ZodTypeProvider>();
      resourceAction(scope, {
        method: 'GET',
        path: '/export',
        access: [classKey, 'export'],
        query: classListQuery,
        answers: 'file',
        read: (db, actor, { query }, { t }) => classExport(db, actor, family, query, translator(t)),
      });
      resourceAction(scope, { method: 'GET', path: '/import/template', access: [classKey, 'import'], answers: 'file', read: async (_db, _actor, _input, { t }) => classTemplate(family, translator(t)) });
      // A hand route: by its query it answers the envelope (`?dryRun=1`) or the result workbook, which no one declaration
      // does (a kit read answers one or the other), and the import kit (server/lib/import-rows.ts) runs its own transaction.
      // `?dryRun=1` answers what the import would do (counts, refused rows, each update) and writes nothing.
      r.post('/import', { preValidation: requireAccess(classKey, 'import'), schema: { querystring: classImportQuery } }, async (request, reply) => {
        const upload = await uploadedFile(request);
        const dryRun = request.query.dryRun === '1';
        const outcome = await importClasses(app.db, await requireActor(request), family, upload, translator(request.t), { dryRun, updateExisting: allowsUpdates(upload.fields) });
        if (dryRun) return ok(outcome.preview);
        reply.header('x-import-success', String(outcome.success)).header('x-import-failure', String(outcome.failure));
        return sendXlsx(reply, outcome.workbook, outcome.fileName);
      });
    },
  );

  await registerResource(
    app,
    family,
    {
      key: `${family}.org.grade`,
      entity: 'grade',
      list: { query: gradeListQuery, handler: gradePage },
      get: gradeById,
      create: { body: gradeSaveSchema, handler: createGrade },
      update: { body: gradeSaveSchema, handler: updateGrade },
      remove: deleteGrade,
      response: { row: gradeDetailSchema, detail: gradeDetailSchema, saved: gradeDetailSchema },
    },
    (scope) => resourceAction(scope, { method: 'GET', path: '/options', access: [`${family}.org.grade`, 'view'], read: gradeFormOptions, answer: gradeFormOptionsSchema }),
  );

  if (family !== 'gx') return;
  await registerResource(app, family, {
    key: 'gx.org.college',
    entity: 'college',
    list: { query: collegeListQuery, handler: collegePage },
    get: collegeById,
    create: { body: collegeSaveSchema, handler: createCollege },
    update: { body: collegeSaveSchema, handler: updateCollege },
    remove: deleteCollege,
    response: { row: collegeDetailSchema, detail: collegeDetailSchema, saved: collegeDetailSchema },
  });
  await registerResource(
    app,
    family,
    {
      key: 'gx.org.major',
      entity: 'major',
      list: { query: majorListQuery, handler: majorPage },
      get: majorById,
      create: { body: majorSaveSchema, handler: createMajor },
      update: { body: majorSaveSchema, handler: updateMajor },
      remove: deleteMajor,
      response: { row: majorDetailSchema, detail: majorDetailSchema, saved: majorDetailSchema },
    },
    (scope) =>
      resourceAction(scope, { method: 'GET', path: '/options', access: ['gx.org.major', 'view'], read: async (db, actor) => ({ colleges: await collegeOptions(db, actor) }), answer: majorFormOptionsSchema }),
  );
};
