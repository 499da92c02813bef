import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { requirePermission, requireScope } from '../../plugins/tenant';
import { pageAccess, type SchoolFamily } from '@/domain/menus/access';
import { gradeList, schoolYearList } from './school.service';

export interface SchoolRoutesOptions {
  /** The route family whose permission codes guard these reads (docs/product-rules.md#families): K12 schools or universities. */
  family: SchoolFamily;
}


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

  // Students (user/student page and :id) are the student resource of server/modules/people.

  // Staff (user/teacher) are the staff resource of server/modules/people.

  // Dictionaries several screens filter by (docs/product-rules.md#grades, #school-years).
  app.get('/org/grade/list', { preValidation: requirePermission(can.grades, can.classes, can.students) }, async (request) =>
    ok(await gradeList(app.db, await tenant(request))),
  );
  app.get('/org/acayear/list', { preValidation: requirePermission(can.years, can.students) }, async (request) =>
    ok(await schoolYearList(app.db, await tenant(request))),
  );
};
