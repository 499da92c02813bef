import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { changePasswordRequestSchema, profileFormSchema, switchOrgSchema, switchRoleSchema } from '@/domain/auth/schemas';
import { OK_MSG } from '@/domain/errors';
import type { ModuleOptions } from '../module-options';
import { editAccount, editUser, getUInfo, menuTreeOf, switchOrg, switchRole } from './my-info.service';

/**
 * /api/busi/web/myInfo: the personal centre and account/role switching (docs/product-rules.md#screens-and-routes, #accounts-in-use, #calls).
 * Signed-in users only; no page permission (the personal centre is always allowed, docs/product-rules.md#screens-and-routes).
 * Hand routes: `resourceAction` requires a catalogue page permission, which "signed in" is not; and they act on the
 * request's own session and language (user info, menu in the request's locale), which a declared action does not see.
 */
export const myInfoRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, opts) => {
  const title = (t: (key: string) => string) => t('common:appName');

  app.get('/getUInfo', async (request) => ok(await getUInfo(app.db, request.session!.userId, title(request.t), request.locale)));

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

  app.post('/menu', { schema: { body: switchRoleSchema } }, async (request) =>
    ok(await menuTreeOf(app.db, request.session!.userId, request.body, request.locale)),
  );

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
