import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { rolloverCommitSchema, type RolloverCommit } from '@/domain/school/rollover';
import type { SchoolFamily } from '@/domain/menus/access';
import { audit } from '../../lib/audit';
import { requireAccess, requireActor } from '../../plugins/tenant';
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
  const r = app.withTypeProvider<ZodTypeProvider>();
  const can = requireAccess(pageKey, 'rollover');
  // One kind for both families: the job's input names the family.
  app.jobs.define('rollover', rolloverJob);

  r.get('/preview', { preValidation: can }, async (request) => ok(await rolloverPreview(app.db, await requireActor(request), family)));
  r.get('/last', { preValidation: can }, async (request) => ok(await lastRollover(app.db, await requireActor(request))));
  // Checked here so a refusal answers at once; the rollover itself runs as a job (docs/product-rules.md#jobs).
  r.post('/', { preValidation: can, schema: { body: rolloverCommitSchema } }, async (request) => {
    const actor = await requireActor(request);
    await checkRollover(app.db, actor, family, request.body);
    return ok({ id: await app.jobs.enqueue('rollover', actor, { family, body: request.body }, request.locale) });
  });
  r.post('/undo', { preValidation: can }, async (request) => {
    const actor = await requireActor(request);
    const done = await app.db.transaction(async (tx) => {
      const summary = await undoRollover(tx, actor, app.now());
      await audit(tx, actor, { action: 'undoRollover', entity: 'schoolRollover', entityId: summary.id, after: summary });
      return summary;
    });
    return ok(done, request.t(OK_MSG.saved));
  });
};
