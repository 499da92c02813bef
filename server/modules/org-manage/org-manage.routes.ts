import type { FastifyPluginAsync } from 'fastify';
import { currentOrgSaveSchema, currentOrgSchema } from '@/domain/org-manage/current-org';
import { orgCreateSchema, orgDetailSchema, orgListQuery, orgRowSchema, orgRowsSchema, orgStatusSchema, orgUpdateSchema } from '@/domain/org-manage/orgs';
import { idParamsSchema } from '@/domain/list-query';
import {
  departmentCandidateQuery,
  departmentListQuery,
  departmentMemberListQuery,
  departmentMemberSchema,
  departmentMembersAddSchema,
  departmentRowSchema,
  departmentRowsSchema,
  departmentSaveSchema,
} from '@/domain/org-manage/departments';
import { resourceAction } from '../../lib/action';
import { registerLinked } from '../../lib/linked';
import { notFound, registerResource, relativeApi, resourceRoutes } from '../../lib/resource';
import type { Actor } from '../../plugins/tenant';
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

  await app.register(async (scope) => {
    const key = `${family}.org.currentOrg`;
    // '/' reads the signed-in organisation; '/:id' is the same record by id (the form kit's calls): another id is 404.
    const own = (actor: Actor, id?: string) => {
      if (id !== undefined && id !== actor.tenantOrgId) throw notFound();
      return actor;
    };
    resourceAction(scope, { method: 'GET', path: '/', access: [key, 'view'], read: (db, actor) => currentOrg(db, actor), answer: currentOrgSchema });
    resourceAction(scope, {
      method: 'GET',
      path: '/:id',
      access: [key, 'view'],
      params: idParamsSchema,
      read: (db, actor, { params }) => currentOrg(db, own(actor, params.id)),
      answer: currentOrgSchema,
    });
    resourceAction(scope, {
      method: 'PUT',
      path: '/:id',
      access: [key, 'edit'],
      params: idParamsSchema,
      body: currentOrgSaveSchema,
      entity: 'org',
      audit: 'update',
      answer: currentOrgSchema,
      write: async (tx, actor, { params, body }) => ({ ...(await updateCurrentOrg(tx, own(actor, params.id), body)), entityId: actor.tenantOrgId }),
    });
  }, { prefix: relativeApi(`${family}.org.currentOrg`, family) });

  if (family !== 'admin') return;
  // Organisations below the management organisation: a tree, schools created with their administrator, status.
  await app.register(async (r0) => {
    const key = 'admin.org.orgInfo';
    resourceAction(r0, { method: 'GET', path: '/tree', access: [key, 'view'], query: orgListQuery, read: (db, actor, { query }) => orgTree(db, actor, query), answer: orgRowsSchema });
    resourceAction(r0, {
      method: 'GET',
      path: '/export',
      access: [key, 'export'],
      query: orgListQuery,
      answers: 'file',
      read: async (db, actor, { query }, { t }) => ({ workbook: orgWorkbook(await orgTree(db, actor, query), t), fileName: `${t('orgManage:orgs.exportName')}.xlsx` }),
    });
    resourceAction(r0, {
      method: 'PUT',
      path: '/:id/status',
      access: [key, 'status'],
      params: idParamsSchema,
      body: orgStatusSchema,
      entity: 'org',
      audit: 'status',
      answer: orgRowSchema,
      // The audit row also names every organisation the change reached; the answer is the row.
      write: async (tx, actor, { params, body }) => {
        const change = await setOrgStatus(tx, actor, params.id, body, app.now());
        return { before: change.before, after: { ...change.after, changed: change.changed }, answer: change.after };
      },
    });
    resourceRoutes(r0, {
      key,
      entity: 'org',
      get: orgDetail,
      create: { body: orgCreateSchema, handler: createOrg },
      update: { body: orgUpdateSchema, handler: updateOrg },
      response: { detail: orgDetailSchema, saved: orgDetailSchema },
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
      response: { detail: departmentRowSchema, saved: departmentRowSchema },
    },
    (scope) =>
      resourceAction(scope, {
        method: 'GET',
        path: '/tree',
        access: [deptKey, 'view'],
        query: departmentListQuery,
        read: (db, actor, { query }) => departmentTree(db, actor, query),
        answer: departmentRowsSchema,
      }),
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
    response: { member: departmentMemberSchema, candidate: departmentMemberSchema },
  });
};
