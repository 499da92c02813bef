import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { dataCenterFilterSchema, idParamsSchema, studentListQuerySchema } from '@/domain/data-center/filters';
import { screenLinkCreateSchema } from '@/domain/wall/wall';
import { ERR } from '@/domain/errors';
import { resourceAction } from '../../lib/action';
import { AppError } from '../../lib/app-error';
import { requirePermission, requireScope } from '../../plugins/tenant';
import type { Family } from '@/domain/menus/access';
import { CLASS_SCOPE_TABLES, classScopeOf } from '../../lib/data-scope';
import { dcGradeRoster, dcRollups, dcRoster, dcSchoolRollups } from '../../db/schema/data-center';
import { orgs } from '../../db/schema/orgs';
import { physiqueResults } from '../../db/schema/physique';
import { colleges, grades, majors, schoolYears, students } from '../../db/schema/school';
import { testPlans } from '../../db/schema/test-plans';
import { dataCenterCodes, screenLinkAccess } from './data-center.permissions';
import type { Viewer } from './data-center.scope';
import { classList, classView, collegeList, dataCenterOptions, gradeView, schoolView, studentList, studentView } from './data-center.service';
import { createScreenLink, listScreenLinks, revokeScreenLink } from './screen-link.service';

export interface DataCenterRoutesOptions {
  family: Family;
}

/**
 * /api/busi/web/{k12|gx|admin}/dataCenter (docs/product-rules.md#data-centre): one request per view, scoped to the
 * tenant organisation (a bureau: its schools), guarded by the catalogue's codes.
 */
/** What every view reads (server/plugins/read-cache.ts): its answers are kept until one of these changes. */
const READS = { readsTables: [...CLASS_SCOPE_TABLES, dcRollups, dcSchoolRollups, dcRoster, dcGradeRoster, orgs, physiqueResults, colleges, grades, majors, schoolYears, students, testPlans] };

export const dataCenterRoutes: FastifyPluginAsyncZod<DataCenterRoutesOptions> = async (app, { family }) => {
  const can = dataCenterCodes(family);
  const tenant = async (request: FastifyRequest) => (await requireScope(request)).tenantOrgId;
  /** The tenant and the classes the role's data scope covers (docs/product-rules.md#data-scopes). */
  const viewer = async (request: FastifyRequest): Promise<Viewer> => {
    const scope = await requireScope(request);
    return { tenantOrgId: scope.tenantOrgId, classScope: await classScopeOf(app.db, scope) };
  };
  const userId = (request: FastifyRequest) => {
    if (!request.session) throw new AppError(401, ERR.sessionExpired);
    return request.session.userId;
  };

  // The views stay hand routes: they carry the read cache's `config.readsTables` (server/plugins/read-cache.ts), which
  // `resourceAction` has no way to pass.
  app.get(
    '/filters',
    {
      preValidation: requirePermission(can.school, ...[can.grade, can.college, can.class, can.student].filter((c): c is string => !!c)),
      schema: { querystring: dataCenterFilterSchema.pick({ orgId: true }) },
      config: READS,
    },
    async (request) => ok(await app.readWith(request, async (db) => dataCenterOptions(db, family, await viewer(request), request.query))),
  );
  app.get('/school', { preValidation: requirePermission(can.school), config: READS, schema: { querystring: dataCenterFilterSchema } }, async (request) =>
    ok(await app.readWith(request, async (db) => schoolView(db, family, await viewer(request), request.query))),
  );
  app.get('/grade', { preValidation: requirePermission(can.grade), config: READS, schema: { querystring: dataCenterFilterSchema } }, async (request) =>
    ok(await app.readWith(request, async (db) => gradeView(db, family, await viewer(request), request.query))),
  );
  // Universities: colleges side by side (the answer has the class list's shape, one row per college).
  if (can.college) {
    app.get('/college', { preValidation: requirePermission(can.college), config: READS, schema: { querystring: dataCenterFilterSchema } }, async (request) =>
      ok(await app.readWith(request, async (db) => collegeList(db, family, await viewer(request), request.query))),
    );
  }
  app.get('/class', { preValidation: requirePermission(can.class), config: READS, schema: { querystring: dataCenterFilterSchema } }, async (request) =>
    ok(await app.readWith(request, async (db) => classList(db, family, await viewer(request), request.query))),
  );
  app.get(
    '/class/:id',
    { preValidation: requirePermission(can.classDetail), config: READS, schema: { params: idParamsSchema, querystring: dataCenterFilterSchema } },
    async (request) => ok(await app.readWith(request, async (db) => classView(db, family, await viewer(request), request.params.id, request.query))),
  );
  app.get('/student', { preValidation: requirePermission(can.student), config: READS, schema: { querystring: studentListQuerySchema } }, async (request) =>
    ok(await app.readWith(request, async (db) => studentList(db, family, await viewer(request), request.query))),
  );
  app.get('/student/:id', { preValidation: requirePermission(can.studentDetail), config: READS, schema: { params: idParamsSchema } }, async (request) =>
    ok(await app.readWith(request, async (db) => studentView(db, family, await viewer(request), request.params.id))),
  );

  resourceAction(app, { method: 'GET', path: '/screenLink', access: screenLinkAccess(family), read: (db, actor) => listScreenLinks(db, family, actor.tenantOrgId) });
  // Creating and revoking stay hand routes: the action kit writes an audit row per write, and a screen link has no audit
  // entity (the link row itself keeps who created and revoked it); an audit row would be new behaviour.
  app.post('/screenLink', { preValidation: requirePermission(can.screenLink), schema: { body: screenLinkCreateSchema } }, async (request) =>
    ok(await createScreenLink(app.db, family, await tenant(request), userId(request), request.body)),
  );
  app.delete('/screenLink/:id', { preValidation: requirePermission(can.screenLink), schema: { params: idParamsSchema } }, async (request) =>
    ok(await revokeScreenLink(app.db, family, await tenant(request), userId(request), request.params.id, app.now())),
  );
};
