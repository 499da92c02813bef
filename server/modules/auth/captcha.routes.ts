import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { captchaQuerySchema } from '@/domain/auth/schemas';
import type { ModuleOptions } from '../module-options';
import { issueCaptcha } from './captcha.service';

/**
 * GET /api/code?randomStr= → the captcha image itself (docs/product-rules.md#calls).
 * A hand route: public (before sign-in), outside the console scope the action kit serves.
 */
export const captchaRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, opts) => {
  app.get(
    '/code',
    {
      schema: { querystring: captchaQuerySchema },
      config: { rateLimit: { max: opts.limits.captchaPerMinute, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const svg = await issueCaptcha(app.db, app.now(), request.query.randomStr, opts.captchaFixed);
      return reply.header('cache-control', 'no-store').type('image/svg+xml').send(svg);
    },
  );
};
