import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { loginWireSchema, refreshRequestSchema } from '@/domain/auth/schemas';
import type { ModuleOptions } from '../module-options';
import { loginTotpRequestSchema } from '@/domain/security/two-factor';
import { login, loginTotp, refresh, revokeSession } from './sso.service';

/**
 * /api/sso: sign-in, token refresh, sign-out (docs/product-rules.md#calls).
 * Hand routes: they come before (or end) a session, outside the console scope whose sign-in the action kit assumes.
 */
export const ssoRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, opts) => {
  app.post(
    '/login',
    {
      schema: { body: loginWireSchema },
      config: { rateLimit: { max: opts.limits.loginPerMinute, timeWindow: '1 minute' } },
    },
    async (request) => {
      const meta = { ip: request.ip, userAgent: request.headers['user-agent'] };
      return ok(await login(app.db, app.now(), request.body, meta));
    },
  );

  // The code step of a two-factor sign-in (docs/product-rules.md#sign-in-security), limited like the password step.
  app.post(
    '/login/totp',
    {
      schema: { body: loginTotpRequestSchema },
      config: { rateLimit: { max: opts.limits.loginPerMinute, timeWindow: '1 minute' } },
    },
    async (request) => {
      const meta = { ip: request.ip, userAgent: request.headers['user-agent'] };
      return ok(await loginTotp(app.db, app.now(), request.body, meta));
    },
  );

  app.post(
    '/oauth/token',
    {
      schema: { body: refreshRequestSchema },
      config: { rateLimit: { max: opts.limits.loginPerMinute, timeWindow: '1 minute' } },
    },
    async (request) => ok(await refresh(app.db, app.now(), request.body.refresh_token)),
  );

  app.post('/oauth/logout', { onRequest: app.authenticate }, async (request) => {
    await revokeSession(app.db, app.now(), request.session!.sessionId);
    return ok(null);
  });
};
