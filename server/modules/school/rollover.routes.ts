import type { FastifyPluginAsync } from 'fastify';
import { rolloverCommitSchema, rolloverPreviewSchema, rolloverSummarySchema, type RolloverCommit } from '@/domain/school/rollover';
import type { SchoolFamily } from '@/domain/menus/access';
import { resourceAction } from '../../lib/action';
import { audit } from '../../lib/audit';
import type { JobHandler } from '../../lib/jobs';
import { checkRollover, commitRollover, lastRollover, rolloverPreview, undoRollover } from './rollover.service';

/**
 * The rollover job: the same checks again, then the rollover, its audit entry and the job's `done` in one transaction
 * (docs/product-rules.md#jobs). It writes nothing before that transaction, so its progress is a step, not a count.
 */
const rolloverJob: JobHandler<{ family: SchoolFamily; body: RolloverCommit }> = async ({ actor, input, now, progress, finish }) => {
  await progress(0, 1, 'jobs:stage.rollingOver');
  await finish(async (tx) => {
    const summary = await commitRollover(tx, actor, input.family, input.body, now());
    await audit(tx, actor, { action: 'rollover', entity: 'schoolRollover', entityId: summary.id, after: summary });
    return {
      counts: { moved: summary.moved, graduated: summary.graduated, enteringClasses: summary.enteringClasses },
      messageKey: 'jobs:result.rollover',
      messageParams: { from: summary.fromYear, to: summary.toYear },
    };
  });
};

/**
 * Year rollover of a school or university, under the school-year page (…/{k12|gx}/org/acayear/rollover): GET preview (writes nothing),
 * POST commit (a job: answers its `{ id }`), GET last, POST undo — all behind the page's `rollover` button
 * (docs/product-rules.md#year-rollover).
 */
export const rolloverRoutes: FastifyPluginAsync<{ family: SchoolFamily }> = async (app, { family }) => {
  const pageKey = `${family}.org.acayear`;
  // One kind for both families: the job's input names the family.
  app.jobs.define('rollover', rolloverJob);

  const can = [pageKey, 'rollover'] as const;
  resourceAction(app, { method: 'GET', path: '/preview', access: can, read: (db, actor) => rolloverPreview(db, actor, family), answer: rolloverPreviewSchema });
  resourceAction(app, { method: 'GET', path: '/last', access: can, read: lastRollover, answer: rolloverSummarySchema.nullable() });
  // The rollover runs as a job (docs/product-rules.md#jobs), checked here first so a refusal answers at once.
  resourceAction(app, {
    method: 'POST',
    path: '/',
    access: can,
    summary: '学年升级 · 提交',
    body: rolloverCommitSchema,
    enqueue: async (db, actor, { body }, { locale }) => {
      await checkRollover(db, actor, family, body);
      return app.jobs.enqueue('rollover', actor, { family, body }, locale);
    },
  });
  resourceAction(app, {
    method: 'POST',
    path: '/undo',
    access: can,
    entity: 'schoolRollover',
    audit: 'undoRollover',
    answer: rolloverSummarySchema,
    write: async (tx, actor) => {
      const summary = await undoRollover(tx, actor, app.now());
      return { after: summary, entityId: summary.id };
    },
  });
};
