import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { simpleInfoQuery } from '@/domain/org-manage/current-org';
import { simpleInfo } from './tenant-org.service';


/**
 * /api/oper/web/cs/tenantOrg: public organisation branding (docs/product-rules.md#branding, #calls).
 * A hand route: public (the sign-in page reads it), outside the console scope the action kit serves.
 */
export const tenantOrgRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/getSimpleInfo', { schema: { querystring: simpleInfoQuery } }, async (request) =>
    ok(await simpleInfo(app.db, request.query.orgId, request.t('common:appName'))),
  );
};
