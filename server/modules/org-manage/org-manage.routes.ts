import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { currentOrgSaveSchema } from '@/domain/org/current-org';
import { orgCreateSchema, orgListQuery, orgStatusSchema, orgUpdateSchema } from '@/domain/org/orgs';
import { idParamsSchema } from '@/domain/list-query';
import { departmentCandidateQuery, departmentListQuery, departmentMemberListQuery, departmentMembersAddSchema, departmentSaveSchema } from '@/domain/org/departments';
import { audit } from '../../lib/audit';
import { isUuid } from '../../lib/ids';
import { registerLinked } from '../../lib/linked';
import { notFound, registerResource, relativeApi, resourceRoutes } from '../../lib/resource';
import { requireAccess, requireActor, type Actor } from '../../plugins/tenant';
import { currentOrg, updateCurrentOrg } from './current-org.service';
import {
  addDepartmentMembers,
  createDepartment,
  deleteDepartment,
  departmentById,
  departmentCandidates,
  departmentMemberPage,
  departmentTree,
  removeDepartmentMembers,
  updateDepartment,
} from './departments.service';
import { orgWorkbook } from './orgs.export';
import { createOrg, orgDetail, orgTree, setOrgStatus, updateOrg } from './orgs.service';
import type { Family } from '@/domain/menus/access';

/** Organisation management of /api/busi/web/{admin|k12|gx}: the own organisation (currentOrg). */
export const orgManageRoutes: FastifyPluginAsync<{ family: Family }> = async (app, { family }) => {
  app.addHook('onRequest', app.authenticate);

  await app.register(async (r0) => {
    const r = r0.withTypeProvider<ZodTypeProvider>();
    const key = `${family}.org.currentOrg`;
    // '/' reads the signed-in organisation; '/:id' is the same record by id (the form kit's calls): another id is 404.
    const own = (actor: Actor, id?: string) => {
      if (id !== undefined && id !== actor.tenantOrgId) throw notFound();
      return actor;
    };
    r.get('/', { preValidation: requireAccess(key, 'view') }, async (request) => ok(await currentOrg(app.db, await requireActor(request))));
    r.get('/:id', { preValidation: requireAccess(key, 'view'), schema: { params: idParamsSchema } }, async (request) =>
      ok(await currentOrg(app.db, own(await requireActor(request), request.params.id))),
    );
    r.put('/:id', { preValidation: requireAccess(key, 'edit'), schema: { params: idParamsSchema, body: currentOrgSaveSchema } }, async (request) => {
      const actor = own(await requireActor(request), request.params.id);
      const saved = await app.db.transaction(async (tx) => {
        const change = await updateCurrentOrg(tx, actor, request.body);
        await audit(tx, actor, { action: 'update', entity: 'org', entityId: actor.tenantOrgId, before: change.before, after: change.after });
        return change.after;
      });
      return ok(saved, request.t(OK_MSG.saved));
    });
  }, { prefix: relativeApi(`${family}.org.currentOrg`, family) });

  if (family !== 'admin') return;
  // Organisations below the management organisation: a tree, schools created with their administrator, status.
  await app.register(async (r0) => {
    const r = r0.withTypeProvider<ZodTypeProvider>();
    const key = 'admin.org.orgInfo';
    r.get('/tree', { preValidation: requireAccess(key, 'view'), schema: { querystring: orgListQuery } }, async (request) =>
      ok(await orgTree(app.db, await requireActor(request), request.query)),
    );
    r.get('/export', { preValidation: requireAccess(key, 'export'), schema: { querystring: orgListQuery } }, async (request, reply) => {
      const rows = await orgTree(app.db, await requireActor(request), request.query);
      const file = orgWorkbook(rows, request.t);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(request.t('orgManage:orgs.exportName'))}.xlsx`)
        .send(file);
    });
    r.put('/:id/status', { preValidation: requireAccess(key, 'status'), schema: { params: idParamsSchema, body: orgStatusSchema } }, async (request) => {
      const actor = await requireActor(request);
      if (!isUuid(request.params.id)) throw notFound();
      const saved = await app.db.transaction(async (tx) => {
        const change = await setOrgStatus(tx, actor, request.params.id, request.body, app.now());
        await audit(tx, actor, { action: 'status', entity: 'org', entityId: request.params.id, before: change.before, after: { ...change.after, changed: change.changed } });
        return change.after;
      });
      return ok(saved, request.t(OK_MSG.saved));
    });
    resourceRoutes(r0, {
      key,
      entity: 'org',
      get: orgDetail,
      create: { body: orgCreateSchema, handler: createOrg },
      update: { body: orgUpdateSchema, handler: updateOrg },
    });
  }, { prefix: relativeApi('admin.org.orgInfo', 'admin') });

  // Departments of the management organisation, a tree, with their members.
  const deptKey = 'admin.org.department';
  await registerResource(
    app,
    'admin',
    {
      key: deptKey,
      entity: 'department',
      get: departmentById,
      create: { body: departmentSaveSchema, handler: createDepartment },
      update: { body: departmentSaveSchema, handler: updateDepartment },
      remove: deleteDepartment,
    },
    (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      r.get('/tree', { preValidation: requireAccess(deptKey, 'view'), schema: { querystring: departmentListQuery } }, async (request) =>
        ok(await departmentTree(app.db, await requireActor(request), request.query)),
      );
    },
  );
  await registerLinked(app, 'admin', {
    key: deptKey,
    action: 'members',
    entity: 'department',
    path: 'members',
    owner: departmentById,
    members: { query: departmentMemberListQuery, handler: departmentMemberPage },
    candidates: { query: departmentCandidateQuery, handler: departmentCandidates },
    link: { body: departmentMembersAddSchema, ids: 'accountIds', audit: 'addMembers', handler: addDepartmentMembers },
    unlink: { audit: 'removeMember', handler: removeDepartmentMembers },
  });
};
