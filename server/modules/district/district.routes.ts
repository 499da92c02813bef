import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { dataCenterFilterSchema } from '@/domain/data-center/filters';
import { classScopeOf } from '../../lib/data-scope';
import { relativeApi } from '../../lib/resource';
import { requireAccess, requireScope } from '../../plugins/tenant';
import { districtOverview } from './district.service';

const OVERVIEW = 'admin.dataCenter.overview';

/** GET /api/busi/web/admin/dataCenter/overview (docs/product-rules.md#district-overview): one request for the whole screen. */
export const districtRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    relativeApi(OVERVIEW, 'admin'),
    { preValidation: requireAccess(OVERVIEW), schema: { querystring: dataCenterFilterSchema.pick({ schoolYear: true, semesterCode: true, planId: true, gender: true }) } },
    async (request) => {
      const scope = await requireScope(request);
      return ok(await app.readWith(request, async (db) => districtOverview(db, { tenantOrgId: scope.tenantOrgId, classScope: await classScopeOf(db, scope) }, request.query)));
    },
  );
};
