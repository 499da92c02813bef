import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema as idParams } from '@/domain/list-query';
import { OK_MSG } from '@/domain/errors';
import type { ServedBy } from '@/domain/menus/access';
import { reportReleaseSchema } from '@/domain/parent-reports/parent-reports';
import { resourceAction } from '../../lib/action';
import { releaseReports, reportReleasesOf, withdrawReports } from './report-release.service';

/**
 * Releasing a plan's reports to the families (docs/product-rules.md#physique-year, "Reports parents read"), beside the
 * test plan routes under …/organizeTest/testManage: the released plans, release (notifies the app accounts) and
 * withdraw, both with the catalogue's `release` button and audited on the plan.
 */
export const reportReleaseRoutes: FastifyPluginAsyncZod<{ family: ServedBy<'test.testManage'> }> = async (app, { family }) => {
  const page = `${family}.test.testManage`;
  resourceAction(app, {
    method: 'GET',
    path: '/releases',
    access: [page, 'view'],
    answer: reportReleaseSchema.array(),
    summary: 'The plans whose reports are released to the families',
    read: (db, a) => reportReleasesOf(db, a),
  });
  resourceAction(app, {
    method: 'POST',
    path: '/release/:id',
    access: [page, 'release'],
    params: idParams,
    entity: 'testPlan',
    audit: 'publish',
    message: OK_MSG.operation,
    answer: reportReleaseSchema,
    summary: "Release an ended plan's reports to its students and their parents (notifies their app accounts)",
    write: (tx, a, { params }, { now }) => releaseReports(tx, a, params.id, now),
  });
  resourceAction(app, {
    method: 'POST',
    path: '/withdraw/:id',
    access: [page, 'release'],
    params: idParams,
    entity: 'testPlan',
    audit: 'unpublish',
    message: OK_MSG.operation,
    answers: 'nothing',
    summary: "Withdraw a plan's released reports (and the notifications of the release)",
    write: (tx, a, { params }) => withdrawReports(tx, a, params.id),
  });
};
