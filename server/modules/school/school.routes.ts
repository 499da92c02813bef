import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, pageQuerySchema } from '@/domain/api';
import { requirePermission, requireScope } from '../../plugins/tenant';
import { pageAccess } from '@/domain/menus/access';
import { optionalIdFilter, optionalTextFilter } from '../../lib/query';
import { gradeList, schoolYearList, studentById, studentPage } from './school.service';

export interface SchoolRoutesOptions {
  /** The route family whose permission codes guard these reads (docs/product-rules.md#families): K12 schools or universities. */
  family: 'k12' | 'gx';
}

const studentPageQuery = pageQuerySchema.extend({ classId: optionalIdFilter, name: optionalTextFilter, regNo: optionalTextFilter });
const idParams = z.object({ id: z.string().max(64) });

/**
 * School core reads of /api/busi/web/{k12|gx} (docs/product-rules.md#menus-and-permissions, #tenancy): every route runs
 * auth → tenant scope → permission code → validation, and reads only the scope's organisation.
 */
export const schoolRoutes: FastifyPluginAsyncZod<SchoolRoutesOptions> = async (app, { family }) => {
  const can = {
    classes: pageAccess(`${family}.org.class`).view,
    grades: pageAccess(`${family}.org.grade`).view,
    years: pageAccess(`${family}.org.acayear`).view,
    students: pageAccess(`${family}.user.student`).view,
  };
  app.addHook('onRequest', app.authenticate);
  const tenant = async (request: Parameters<typeof requireScope>[0]) => (await requireScope(request)).tenantOrgId;

  // Classes (org/class page and :id) are the class resource of server/modules/org.

  app.get('/user/student/page', { preValidation: requirePermission(can.students), schema: { querystring: studentPageQuery } }, async (request) =>
    ok(await studentPage(app.db, await tenant(request), request.query)),
  );
  app.get('/user/student/:id', { preValidation: requirePermission(can.students), schema: { params: idParams } }, async (request) =>
    ok(await studentById(app.db, await tenant(request), request.params.id)),
  );

  // Staff (user/teacher) are the staff resource of server/modules/people.

  // Dictionaries several screens filter by (docs/product-rules.md#grades, #school-years).
  app.get('/org/grade/list', { preValidation: requirePermission(can.grades, can.classes, can.students) }, async (request) =>
    ok(await gradeList(app.db, await tenant(request))),
  );
  app.get('/org/acayear/list', { preValidation: requirePermission(can.years, can.students) }, async (request) =>
    ok(await schoolYearList(app.db, await tenant(request))),
  );
};
