import type { FastifyPluginAsync } from 'fastify';
import { pageApi, type Family } from '@/domain/menus/access';
import { classListQuery, classSaveSchema } from '@/domain/school/classes';
import { schoolYearListQuery, schoolYearSaveSchema } from '@/domain/school/school-years';
import { resourceRoutes } from '../../lib/resource';
import { ok } from '@/domain/api';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { classById, classFormOptions, classPage, createClass, deleteClass, updateClass } from './class.service';
import { collegeListQuery, collegeSaveSchema, majorListQuery, majorSaveSchema } from '@/domain/school/colleges';
import { collegeById, collegeOptions, collegePage, createCollege, createMajor, deleteCollege, deleteMajor, majorById, majorPage, updateCollege, updateMajor } from './college.service';
import { gradeListQuery, gradeSaveSchema } from '@/domain/school/grades';
import { createGrade, deleteGrade, gradeById, gradePage, updateGrade } from './grade.service';
import { createSchoolYear, deleteSchoolYear, schoolYearById, schoolYearPage, updateSchoolYear } from './school-year.service';

/** The API prefix of a catalogue page, relative to the family base the plugin is registered under. */
export const relativeApi = (key: string, family: Family) => pageApi(key).slice(`/api/busi/web/${family}`.length);

/**
 * School structure of /api/busi/web/{k12|gx}: school years with semesters (org/acayear) and classes (org/class), each
 * a resource declaration on the server kit (server/lib/resource.ts).
 */
export const orgRoutes: FastifyPluginAsync<{ family: 'k12' | 'gx' }> = async (app, { family }) => {
  app.addHook('onRequest', app.authenticate);

  await app.register(async (acayear) => {
    resourceRoutes(acayear, {
      key: `${family}.org.acayear`,
      entity: 'schoolYear',
      list: { query: schoolYearListQuery, handler: (db, actor, q) => schoolYearPage(db, actor, q, app.now()) },
      get: (db, actor, id) => schoolYearById(db, actor, id, app.now()),
      create: { body: schoolYearSaveSchema, handler: (tx, actor, body) => createSchoolYear(tx, actor, body, app.now()) },
      update: { body: schoolYearSaveSchema, handler: (tx, actor, id, body) => updateSchoolYear(tx, actor, id, body, app.now()) },
      remove: (tx, actor, id) => deleteSchoolYear(tx, actor, id, app.now()),
    });
  }, { prefix: relativeApi(`${family}.org.acayear`, family) });

  await app.register(async (klass) => {
    const key = `${family}.org.class`;
    // Before the resource's '/:id'; static paths win in the router anyway.
    klass.get('/options', { preValidation: requireAccess(key, 'view') }, async (request) => ok(await classFormOptions(app.db, await requireActor(request))));
    resourceRoutes(klass, {
      key: `${family}.org.class`,
      entity: 'class',
      list: { query: classListQuery, handler: classPage },
      get: classById,
      create: { body: classSaveSchema, handler: createClass },
      update: { body: classSaveSchema, handler: updateClass },
      remove: deleteClass,
    });
  }, { prefix: relativeApi(`${family}.org.class`, family) });

  await app.register(async (grade) => {
    resourceRoutes(grade, {
      key: `${family}.org.grade`,
      entity: 'grade',
      list: { query: gradeListQuery, handler: gradePage },
      get: gradeById,
      create: { body: gradeSaveSchema, handler: createGrade },
      update: { body: gradeSaveSchema, handler: updateGrade },
      remove: deleteGrade,
    });
  }, { prefix: relativeApi(`${family}.org.grade`, family) });

  if (family !== 'gx') return;
  await app.register(async (college) => {
    resourceRoutes(college, {
      key: 'gx.org.college',
      entity: 'college',
      list: { query: collegeListQuery, handler: collegePage },
      get: collegeById,
      create: { body: collegeSaveSchema, handler: createCollege },
      update: { body: collegeSaveSchema, handler: updateCollege },
      remove: deleteCollege,
    });
  }, { prefix: relativeApi('gx.org.college', family) });

  await app.register(async (major) => {
    major.get('/options', { preValidation: requireAccess('gx.org.major', 'view') }, async (request) => ok({ colleges: await collegeOptions(app.db, await requireActor(request)) }));
    resourceRoutes(major, {
      key: 'gx.org.major',
      entity: 'major',
      list: { query: majorListQuery, handler: majorPage },
      get: majorById,
      create: { body: majorSaveSchema, handler: createMajor },
      update: { body: majorSaveSchema, handler: updateMajor },
      remove: deleteMajor,
    });
  }, { prefix: relativeApi('gx.org.major', family) });
};
