import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataCenterFilterSchema } from '@/domain/data-center/filters';
import { districtOverviewSchema } from '@/domain/data-center/district';
import { resourceAction } from '../../lib/action';
import { classScopeOf } from '../../lib/data-scope';
import { relativeApi } from '../../lib/resource';
import { districtOverview } from './district.service';

const OVERVIEW = 'admin.dataCenter.overview';

/** GET /api/busi/web/admin/dataCenter/overview (docs/product-rules.md#district-overview): one request for the whole screen. */
export const districtRoutes: FastifyPluginAsyncZod = async (app) => {
  resourceAction(app, {
    method: 'GET',
    path: relativeApi(OVERVIEW, 'admin'),
    access: [OVERVIEW, 'view'],
    query: dataCenterFilterSchema.pick({ schoolYear: true, semesterCode: true, planId: true, gender: true }),
    answer: districtOverviewSchema,
    read: async (db, actor, { query }) => districtOverview(db, { tenantOrgId: actor.tenantOrgId, classScope: await classScopeOf(db, actor) }, query),
  });
};
