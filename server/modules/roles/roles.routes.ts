import type { FastifyPluginAsync } from 'fastify';
import { pageApi, type Family } from '@/domain/menus/access';
import { customName } from '@/domain/menus/custom-name';
import { permissionTree, permissionTreeSchema } from '@/domain/roles/permission-tree';
import {
  roleCandidateQuery,
  roleDetailSchema,
  roleListQuery,
  roleManagementKey,
  roleMemberListQuery,
  roleMemberSchema,
  roleMembersAddSchema,
  roleRowSchema,
  roleSaveSchema,
} from '@/domain/roles/roles';
import { menuCustoms } from '../../lib/menu-custom';
import { registerLinked } from '../../lib/linked';
import { resourceAction } from '../../lib/action';
import { resourceRoutes } from '../../lib/resource';
import { addRoleMembers, createRole, deleteRole, removeRoleMembers, roleById, roleCandidates, roleMemberPage, rolePage, roleRow, updateRole } from './roles.service';

/**
 * Roles of /api/busi/web/{admin|k12|gx}/role (docs/product-rules.md#roles): the resource, plus its members
 * (accounts of the organisation) under the page's 'members' button.
 */
export const roleRoutes: FastifyPluginAsync<{ family: Family }> = async (app, { family }) => {
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
        response: { row: roleRowSchema, detail: roleDetailSchema, saved: roleDetailSchema },
      });
      // The role editor's permission tree with the platform operators' names, order and hidden marks
      // (docs/product-rules.md#menu-management), in the caller's language.
      resourceAction(scope, {
        method: 'GET',
        path: '/menu-tree',
        access: [key, 'view'],
        summary: '权限树',
        answer: permissionTreeSchema,
        read: async (db, _actor, _input, { t, locale }) => {
          const custom = await menuCustoms(db);
          const hidden = t('roles:hiddenMenu');
          return permissionTree(
            family,
            {
              entry: (e, c) => {
                const name = customName(c?.names, locale) ?? t(`menus:${e.i18nKey}`, { defaultValue: e.name });
                return c?.hidden ? `${name} ${hidden}` : name;
              },
              button: (b) => t(`menus:${b.i18nKey}`, { defaultValue: b.name }),
            },
            custom,
          );
        },
      });
    },
    { prefix: pageApi(key).slice(`/api/busi/web/${family}`.length) },
  );
  // The members screen (…/role/members/:id): accounts of the organisation holding the role.
  await registerLinked(app, family, {
    key,
    action: 'members',
    entity: 'role',
    path: 'members',
    owner: roleRow,
    members: { query: roleMemberListQuery, handler: roleMemberPage },
    candidates: { query: roleCandidateQuery, handler: roleCandidates },
    link: { body: roleMembersAddSchema, ids: 'accountIds', audit: 'addMembers', handler: addRoleMembers },
    unlink: { audit: 'removeMember', handler: removeRoleMembers },
    response: { member: roleMemberSchema, candidate: roleMemberSchema },
  });
};
