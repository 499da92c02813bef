import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataCenterFilterSchema, idParamsSchema, studentListQuerySchema } from '@/domain/data-center/filters';
import { classListViewSchema, classViewSchema, dataCenterOptionsSchema, gradeViewSchema, schoolViewSchema, studentListPageSchema, studentViewSchema } from '@/domain/data-center/types';
import { screenLinkCreateSchema, screenLinkCreatedSchema, screenLinkRowSchema } from '@/domain/wall/wall';
import type { Family } from '@/domain/menus/access';
import { resourceAction, type Access, type ActionContext } from '../../lib/action';
import { CLASS_SCOPE_TABLES, classScopeOf } from '../../lib/data-scope';
import type { DbOrTx } from '../../db/client';
import type { Actor } from '../../plugins/tenant';
import { dcGradeDistributions, dcGradeRoster, dcRollups, dcRoster, dcSchoolRollups } from '../../db/schema/data-center';
import { orgs } from '../../db/schema/orgs';
import { physiqueResults } from '../../db/schema/physique';
import { colleges, grades, majors, schoolYears, students } from '../../db/schema/school';
import { testPlans } from '../../db/schema/test-plans';
import { dataCenterAccess, screenLinkAccess } from './data-center.permissions';
import type { Viewer } from './data-center.scope';
import { loadCardQuery, loadCardSchema } from '@/domain/lesson-load/reports';
import { lessonLoadClassWeeks, lessonLoads, lessonLoadSchoolDays } from '../../db/schema/lesson-load';
import { semesters } from '../../db/schema/school';
import { loadCard } from '../lesson-load/summary.service';
import { classList, classView, collegeList, dataCenterOptions, gradeView, schoolView, studentList, studentView } from './data-center.service';
import { createScreenLink, listScreenLinks, revokeScreenLink } from './screen-link.service';

export interface DataCenterRoutesOptions {
  family: Family;
}

/** What every view reads (server/plugins/read-cache.ts): its answers are kept until one of these changes. */
const READS = { readsTables: [...CLASS_SCOPE_TABLES, dcRollups, dcSchoolRollups, dcRoster, dcGradeRoster, dcGradeDistributions, orgs, physiqueResults, colleges, grades, majors, schoolYears, students, testPlans] };

/**
 * /api/busi/web/{k12|gx|admin}/dataCenter (docs/product-rules.md#data-centre): one request per view, scoped to the
 * tenant organisation (a bureau: its schools), guarded by the catalogue's pages (dataCenterAccess).
 */
export const dataCenterRoutes: FastifyPluginAsyncZod<DataCenterRoutesOptions> = async (app, { family }) => {
  const can = dataCenterAccess(family);
  /** The tenant and the classes the role's data scope covers (docs/product-rules.md#data-scopes). */
  const viewer = async (db: DbOrTx, actor: Actor, ctx: ActionContext): Promise<Viewer> => ({ tenantOrgId: actor.tenantOrgId, classScope: await classScopeOf(db, actor), changes: ctx.changes() });
  const anyView: Access = [can.school[0], can.school[1], ...[can.grade, can.college, can.class, can.student].filter((a): a is Access => !!a).map(([k, a]) => [k, a] as const)];

  resourceAction(app, {
    method: 'GET',
    path: '/filters',
    access: anyView,
    config: READS,
    query: dataCenterFilterSchema.pick({ orgId: true }),
    answer: dataCenterOptionsSchema,
    read: async (db, actor, { query }, ctx) => dataCenterOptions(db, family, await viewer(db, actor, ctx), query),
  });
  const view = { method: 'GET', config: READS, query: dataCenterFilterSchema } as const;
  resourceAction(app, { ...view, path: '/school', access: can.school, answer: schoolViewSchema, read: async (db, actor, { query }, ctx) => schoolView(db, family, await viewer(db, actor, ctx), query) });
  resourceAction(app, { ...view, path: '/grade', access: can.grade, answer: gradeViewSchema, read: async (db, actor, { query }, ctx) => gradeView(db, family, await viewer(db, actor, ctx), query) });
  // Universities: colleges side by side (the answer has the class list's shape, one row per college).
  if (can.college) resourceAction(app, { ...view, path: '/college', access: can.college, answer: classListViewSchema, read: async (db, actor, { query }, ctx) => collegeList(db, family, await viewer(db, actor, ctx), query) });
  resourceAction(app, { ...view, path: '/class', access: can.class, answer: classListViewSchema, read: async (db, actor, { query }, ctx) => classList(db, family, await viewer(db, actor, ctx), query) });
  resourceAction(app, {
    ...view,
    path: '/class/:id',
    access: can.classDetail,
    params: idParamsSchema,
    answer: classViewSchema,
    read: async (db, actor, { params, query }, ctx) => classView(db, family, await viewer(db, actor, ctx), params.id, query),
  });
  resourceAction(app, {
    method: 'GET',
    path: '/student',
    access: can.student,
    config: READS,
    query: studentListQuerySchema,
    answer: studentListPageSchema,
    read: async (db, actor, { query }, ctx) => studentList(db, family, await viewer(db, actor, ctx), query),
  });
  resourceAction(app, {
    method: 'GET',
    path: '/student/:id',
    access: can.studentDetail,
    config: READS,
    params: idParamsSchema,
    answer: studentViewSchema,
    read: async (db, actor, { params }, ctx) => studentView(db, family, await viewer(db, actor, ctx), params.id),
  });

  // The lesson-load card of the school, grade and class views (docs/product-rules.md#lesson-load: reports): its own
  // request, so a view's answer stays as it is and the card is kept until a lesson's figures change.
  resourceAction(app, {
    method: 'GET',
    path: '/lessonLoad',
    access: anyView,
    config: { readsTables: [...CLASS_SCOPE_TABLES, lessonLoads, lessonLoadSchoolDays, lessonLoadClassWeeks, grades, orgs, semesters, schoolYears] },
    query: loadCardQuery,
    answer: loadCardSchema,
    summary: "This term's lesson load of the school, a grade or a class: lessons measured, share meeting the targets, densities, weekly trend",
    read: (db, actor, { query }, { now }) => loadCard(db, actor, query, now),
  });

  resourceAction(app, { method: 'GET', path: '/screenLink', access: screenLinkAccess(family), answer: screenLinkRowSchema.array(), read: (db, actor) => listScreenLinks(db, family, actor.tenantOrgId) });
  // The link row keeps who created and revoked it; the audit row puts it in the operation log (never its token).
  resourceAction(app, {
    method: 'POST',
    path: '/screenLink',
    access: can.screenLink,
    body: screenLinkCreateSchema,
    answer: screenLinkCreatedSchema,
    entity: 'screenLink',
    audit: 'create',
    message: null,
    write: async (tx, actor, { body }) => {
      const created = await createScreenLink(tx, family, actor.tenantOrgId, actor.userId, body);
      const { token: _token, path: _path, ...row } = created;
      return { after: row, entityId: created.id, answer: created };
    },
  });
  resourceAction(app, {
    method: 'DELETE',
    path: '/screenLink/:id',
    access: can.screenLink,
    params: idParamsSchema,
    answer: screenLinkRowSchema,
    entity: 'screenLink',
    audit: 'revoke',
    message: null,
    write: async (tx, actor, { params }, { now }) => {
      const { row, changed } = await revokeScreenLink(tx, family, actor.tenantOrgId, actor.userId, params.id, now);
      // Revoking a revoked link changes nothing and logs nothing.
      return { after: row, audited: changed };
    },
  });
};
