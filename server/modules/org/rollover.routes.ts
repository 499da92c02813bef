import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { rolloverCommitSchema } from '@/domain/school/rollover';
import type { SchoolFamily } from '@/domain/school/types';
import { audit } from '../../lib/audit';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { commitRollover, lastRollover, rolloverPreview, undoRollover } from './rollover.service';

/**
 * Year rollover of a school or university, under the school-year page (…/{k12|gx}/org/acayear/rollover): GET preview (writes nothing),
 * POST commit, GET last, POST undo — all behind the page's `rollover` button (docs/product-rules.md#year-rollover).
 */
export const rolloverRoutes: FastifyPluginAsync<{ family: SchoolFamily }> = async (app, { family }) => {
  const pageKey = `${family}.org.acayear`;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const can = requireAccess(pageKey, 'rollover');

  r.get('/preview', { preValidation: can }, async (request) => ok(await rolloverPreview(app.db, await requireActor(request), family)));
  r.get('/last', { preValidation: can }, async (request) => ok(await lastRollover(app.db, await requireActor(request))));
  r.post('/', { preValidation: can, schema: { body: rolloverCommitSchema } }, async (request) => {
    const actor = await requireActor(request);
    const done = await app.db.transaction(async (tx) => {
      const summary = await commitRollover(tx, actor, family, request.body, app.now());
      await audit(tx, actor, { action: 'rollover', entity: 'schoolRollover', entityId: summary.id, after: summary });
      return summary;
    });
    return ok(done, request.t(OK_MSG.saved));
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
