import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptySchema, ok } from '@/domain/api';
import { changePasswordRequestSchema, profileFormSchema, switchOrgSchema, switchRoleSchema } from '@/domain/auth/schemas';
import { menuTreeSchema, uInfoSchema } from '@/domain/auth/answers';
import { OK_MSG } from '@/domain/errors';
import { resourceAction, SIGNED_IN } from '../../lib/action';
import { answerSchema, asIs } from '../../lib/openapi';
import type { ModuleOptions } from '../module-options';
import { editAccount, editUser, getUInfo, menuTreeOf, switchOrg, switchRole } from './my-info.service';

/**
 * /api/busi/web/myInfo: the personal centre and account/role switching (docs/product-rules.md#screens-and-routes, #accounts-in-use, #calls).
 * Signed-in users only; no page permission (the personal centre is always allowed, docs/product-rules.md#screens-and-routes),
 * and a user without any role still reads their own info.
 */
export const myInfoRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, opts) => {
  const title = (t: (key: string) => string) => t('common:appName');

  resourceAction(app, {
    method: 'GET',
    path: '/getUInfo',
    access: SIGNED_IN,
    summary: '当前用户信息',
    // It may write (marking a membership present) and must see the user's last switch: the primary.
    reads: 'primary',
    answer: uInfoSchema,
    read: (db, me, _input, { t, locale }) => getUInfo(db, me.userId, title(t), locale),
  });
  // A read sent as a POST: the menu tree of one of the user's roles, in the caller's language.
  resourceAction(app, {
    method: 'POST',
    path: '/menu',
    access: SIGNED_IN,
    summary: '角色菜单',
    answer: menuTreeSchema,
    body: switchRoleSchema,
    read: (db, me, { body }, { locale }) => menuTreeOf(db, me.userId, body, locale),
  });

  // Switching answers the user info as it is after the switch, read in the same transaction. Not an operation-log
  // record (the account and role in use are the session's choice): the kit writes no audit row.
  const ownWrite = { method: 'POST', access: SIGNED_IN, entity: 'user', audit: 'update', message: OK_MSG.operation, answer: uInfoSchema } as const;
  resourceAction(app, {
    ...ownWrite,
    path: '/switchRole',
    summary: '切换角色',
    body: switchRoleSchema,
    write: async (tx, me, { body }, { t, locale }) => {
      await switchRole(tx, me.userId, body);
      return { after: undefined, audited: false, answer: await getUInfo(tx, me.userId, title(t), locale) };
    },
  });
  resourceAction(app, {
    ...ownWrite,
    path: '/switchOrg',
    summary: '切换账号',
    body: switchOrgSchema,
    write: async (tx, me, { body }, { t, locale }) => {
      await switchOrg(tx, me.userId, body);
      return { after: undefined, audited: false, answer: await getUInfo(tx, me.userId, title(t), locale) };
    },
  });

  // The profile is the user's own, not an operation-log record (as before the kit): no audit row.
  resourceAction(app, {
    ...ownWrite,
    path: '/editUser',
    summary: '修改个人资料',
    body: profileFormSchema,
    message: OK_MSG.saved,
    write: async (tx, me, { body }, { t, locale, now }) => {
      await editUser(tx, me.userId, now, body);
      return { after: undefined, audited: false, answer: await getUInfo(tx, me.userId, title(t), locale) };
    },
  });

  // A hand route: a wrong current password must stay counted (committed) while the request fails, which the kit's one
  // transaction would roll back with the error.
  // Guessing the current password is limited per IP like sign-in, besides the per-account lock it shares with sign-in.
  const editAccountLimit = { rateLimit: { max: opts.limits.loginPerMinute, timeWindow: '1 minute' } };
  app.post('/editAccount', { serializerCompiler: asIs, schema: { summary: '修改密码', body: changePasswordRequestSchema, response: answerSchema(emptySchema) }, config: editAccountLimit }, async (request) => {
    await editAccount(app.db, request.session!, app.now(), request.body);
    return ok(null, request.t(OK_MSG.saved));
  });
};
