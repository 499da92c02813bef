import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { changePasswordRequestSchema, profileFormSchema, switchOrgSchema, switchRoleSchema } from '@/domain/auth/schemas';
import { menuTreeSchema, uInfoSchema } from '@/domain/auth/answers';
import { OK_MSG } from '@/domain/errors';
import { resourceAction, SIGNED_IN } from '../../lib/action';
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

  // Hand routes: each answers the user info as read after its service's own transaction commits, and none is an
  // operation-log record (the account and role in use are the session's choice; the profile and password are the
  // user's own, not yet audit-logged).

  app.post('/switchRole', { schema: { body: switchRoleSchema } }, async (request) => {
    const { userId } = request.session!;
    await switchRole(app.db, userId, request.body);
    return ok(await getUInfo(app.db, userId, title(request.t), request.locale), request.t(OK_MSG.operation));
  });

  app.post('/switchOrg', { schema: { body: switchOrgSchema } }, async (request) => {
    const { userId } = request.session!;
    await switchOrg(app.db, userId, request.body);
    return ok(await getUInfo(app.db, userId, title(request.t), request.locale), request.t(OK_MSG.operation));
  });

  app.post('/editUser', { schema: { body: profileFormSchema } }, async (request) => {
    const { userId } = request.session!;
    await editUser(app.db, userId, app.now(), request.body);
    return ok(await getUInfo(app.db, userId, title(request.t), request.locale), request.t(OK_MSG.saved));
  });

  // Guessing the current password is limited per IP like sign-in, besides the per-account lock it shares with sign-in.
  const editAccountLimit = { rateLimit: { max: opts.limits.loginPerMinute, timeWindow: '1 minute' } };
  app.post('/editAccount', { schema: { body: changePasswordRequestSchema }, config: editAccountLimit }, async (request) => {
    await editAccount(app.db, request.session!, app.now(), request.body);
    return ok(null, request.t(OK_MSG.saved));
  });
};
