import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { simpleInfo } from './tenant-org.service';

const simpleInfoQuery = z.object({ orgId: z.string().max(64).optional() });

/** /api/oper/web/cs/tenantOrg: public organisation branding (docs/product-rules.md#branding, #calls). */
export const tenantOrgRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/getSimpleInfo', { schema: { querystring: simpleInfoQuery } }, async (request) =>
    ok(await simpleInfo(app.db, request.query.orgId, request.t('common:appName'))),
  );
};
