import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { UUID_PATTERN } from '@/domain/list-query';
import { pageApi, type Family } from '@/domain/menus/access';
import { customName } from '@/domain/menus/customize';
import { permissionTree } from '@/domain/roles/permission-tree';
import { roleCandidateQuery, roleListQuery, roleManagementKey, roleMemberListQuery, roleMembersAddSchema, roleSaveSchema } from '@/domain/roles/roles';
import { audit } from '../../lib/audit';
import { menuCustoms } from '../../lib/menu-custom';
import { notFound, resourceRoutes } from '../../lib/resource';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { addRoleMembers, createRole, deleteRole, removeRoleMember, roleById, roleCandidates, roleMemberPage, rolePage, updateRole } from './role.service';

const idOr404 = (id: string) => {
  if (!UUID_PATTERN.test(id)) throw notFound();
  return id;
};
const roleIdParams = z.object({ id: z.string().max(64) });
const memberParams = z.object({ id: z.string().max(64), accountId: z.string().max(64) });

/**
 * Roles of /api/busi/web/{admin|k12|gx}/role (docs/product-rules.md#roles): the resource, plus its members
 * (accounts of the organisation) under the page's 'members' button.
 */
export const roleRoutes: FastifyPluginAsync<{ family: Family }> = async (app, { family }) => {
  app.addHook('onRequest', app.authenticate);
  const key = roleManagementKey(family);
  await app.register(
    async (scope) => {
      resourceRoutes(scope, {
        key,
        entity: 'role',
        list: { query: roleListQuery, handler: rolePage },
        get: roleById,
        create: { body: roleSaveSchema, handler: (tx, actor, body) => createRole(tx, actor, family, body) },
        update: { body: roleSaveSchema, handler: (tx, actor, id, body) => updateRole(tx, actor, family, id, body) },
        remove: deleteRole,
      });
      const r = scope.withTypeProvider<ZodTypeProvider>();
      // The role editor's permission tree with the platform operators' names, order and hidden marks
      // (docs/product-rules.md#menu-management), in the request's language.
      r.get('/menu-tree', { preValidation: requireAccess(key, 'view') }, async (request) => {
        const custom = await menuCustoms(app.db);
        const hidden = request.t('roles:hiddenMenu');
        return ok(
          permissionTree(
            family,
            {
              entry: (e, c) => {
                const name = customName(c?.names, request.locale) ?? request.t(`menu:${e.i18nKey}`, { defaultValue: e.name });
                return c?.hidden ? `${name} ${hidden}` : name;
              },
              button: (b) => request.t(`menu:${b.i18nKey}`, { defaultValue: b.name }),
            },
            custom,
          ),
        );
      });
      const members = requireAccess(key, 'members');
      r.get('/:id/members', { preValidation: members, schema: { params: roleIdParams, querystring: roleMemberListQuery } }, async (request) =>
        ok(await roleMemberPage(app.db, await requireActor(request), idOr404(request.params.id), request.query)),
      );
      r.get('/:id/candidates', { preValidation: members, schema: { params: roleIdParams, querystring: roleCandidateQuery } }, async (request) =>
        ok(await roleCandidates(app.db, await requireActor(request), idOr404(request.params.id), request.query.keyword)),
      );
      r.post('/:id/members', { preValidation: members, schema: { params: roleIdParams, body: roleMembersAddSchema } }, async (request) => {
        const actor = await requireActor(request);
        const roleId = idOr404(request.params.id);
        const added = await app.db.transaction(async (tx) => {
          const rows = await addRoleMembers(tx, actor, roleId, request.body.accountIds);
          await audit(tx, actor, { action: 'addMembers', entity: 'role', entityId: roleId, after: { added: rows } });
          return rows;
        });
        return ok(added, request.t(OK_MSG.saved));
      });
      r.delete('/:id/members/:accountId', { preValidation: members, schema: { params: memberParams } }, async (request) => {
        const actor = await requireActor(request);
        const roleId = idOr404(request.params.id);
        const accountId = idOr404(request.params.accountId);
        await app.db.transaction(async (tx) => {
          const removed = await removeRoleMember(tx, actor, roleId, accountId);
          await audit(tx, actor, { action: 'removeMember', entity: 'role', entityId: roleId, before: { removed } });
        });
        return ok(null, request.t(OK_MSG.deleted));
      });
    },
    { prefix: pageApi(key).slice(`/api/busi/web/${family}`.length) },
  );
};
