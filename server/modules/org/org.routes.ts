import type { FastifyPluginAsync } from 'fastify';
import { ok } from '@/domain/api';
import { classListQuery, classSaveSchema } from '@/domain/school/classes';
import { collegeListQuery, collegeSaveSchema, majorListQuery, majorSaveSchema } from '@/domain/school/colleges';
import { gradeListQuery, gradeSaveSchema } from '@/domain/school/grades';
import { schoolYearListQuery, schoolYearSaveSchema } from '@/domain/school/school-years';
import { registerResource } from '../../lib/resource';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { classById, classFormOptions, classPage, createClass, deleteClass, updateClass } from './class.service';
import { collegeById, collegeOptions, collegePage, createCollege, createMajor, deleteCollege, deleteMajor, majorById, majorPage, updateCollege, updateMajor } from './college.service';
import { createGrade, deleteGrade, gradeById, gradePage, updateGrade } from './grade.service';
import { createSchoolYear, deleteSchoolYear, schoolYearById, schoolYearPage, updateSchoolYear } from './school-year.service';

/**
 * School structure of /api/busi/web/{k12|gx}: school years with semesters (org/acayear), grades (org/grade), classes
 * (org/class) and, at universities, colleges and majors — each a resource declaration on the server kit
 * (server/lib/resource.ts).
 */
export const orgRoutes: FastifyPluginAsync<{ family: 'k12' | 'gx' }> = async (app, { family }) => {
  app.addHook('onRequest', app.authenticate);

  await registerResource(app, family, {
    key: `${family}.org.acayear`,
    entity: 'schoolYear',
    list: { query: schoolYearListQuery, handler: (db, actor, q) => schoolYearPage(db, actor, q, app.now()) },
    get: (db, actor, id) => schoolYearById(db, actor, id, app.now()),
    create: { body: schoolYearSaveSchema, handler: (tx, actor, body) => createSchoolYear(tx, actor, body, app.now()) },
    update: { body: schoolYearSaveSchema, handler: (tx, actor, id, body) => updateSchoolYear(tx, actor, id, body, app.now()) },
    remove: (tx, actor, id) => deleteSchoolYear(tx, actor, id, app.now()),
  });

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
    },
    (scope) => scope.get('/options', { preValidation: requireAccess(classKey, 'view') }, async (request) => ok(await classFormOptions(app.db, await requireActor(request)))),
  );

  await registerResource(app, family, {
    key: `${family}.org.grade`,
    entity: 'grade',
    list: { query: gradeListQuery, handler: gradePage },
    get: gradeById,
    create: { body: gradeSaveSchema, handler: createGrade },
    update: { body: gradeSaveSchema, handler: updateGrade },
    remove: deleteGrade,
  });

  if (family !== 'gx') return;
  await registerResource(app, family, {
    key: 'gx.org.college',
    entity: 'college',
    list: { query: collegeListQuery, handler: collegePage },
    get: collegeById,
    create: { body: collegeSaveSchema, handler: createCollege },
    update: { body: collegeSaveSchema, handler: updateCollege },
    remove: deleteCollege,
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
    },
    (scope) => scope.get('/options', { preValidation: requireAccess('gx.org.major', 'view') }, async (request) => ok({ colleges: await collegeOptions(app.db, await requireActor(request)) })),
  );
};
