import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SchoolFamily } from '@/domain/menus/access';
import { gradeRowsSchema } from '@/domain/school/grades';
import { schoolYearRowsSchema } from '@/domain/school/school-years';
import { resourceAction } from '../../lib/action';
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
  const classes = `${family}.org.class`;
  const grades = `${family}.org.grade`;
  const years = `${family}.org.acayear`;
  const students = `${family}.user.student`;

  // Classes (org/class page and :id) are the class resource of server/modules/org.

  // Students (user/student page and :id) are the student resource of server/modules/people.

  // Staff (user/teacher) are the staff resource of server/modules/people.

  // Dictionaries several screens filter by (docs/product-rules.md#grades, #school-years).
  resourceAction(app, {
    method: 'GET',
    path: '/org/grade/list',
    access: [grades, 'view', [classes, 'view'], [students, 'view']],
    read: (db, actor) => gradeList(db, actor.tenantOrgId),
    answer: gradeRowsSchema,
  });
  resourceAction(app, {
    method: 'GET',
    path: '/org/acayear/list',
    access: [years, 'view', [students, 'view']],
    read: (db, actor) => schoolYearList(db, actor.tenantOrgId),
    answer: schoolYearRowsSchema,
  });
};
