import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { boardLinkCreateSchema } from '@/domain/meets/board';
import { idParamsSchema } from '@/domain/list-query';
import { audit } from '../../lib/audit';
import { uuidOr404 } from '../../lib/resource';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { createMeetBoardLink, listMeetBoardLinks, revokeMeetBoardLink } from '../data-center/screen-link.service';
import type { SchoolFamily } from '@/domain/menus/access';

const SCORE = 'single.sportsMeet.score';
const linkParams = z.object({ id: z.string().max(64), linkId: z.string().max(64) });

/**
 * A meet's board links, under /api/busi/web/{k12|gx}/sportsMeet/:id/boardLinks (docs/product-rules.md#meets): wall
 * links (the screen-link kit of the data centre) that show the meet's live board without a sign-in. A link puts the
 * results before anyone at the screen, so it takes both the board ('screen') and publishing results ('audit').
 */
export const meetBoardLinkRoutes: FastifyPluginAsync<{ family: SchoolFamily }> = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = [requireAccess(SCORE, 'screen'), requireAccess(SCORE, 'audit')];

  r.get('/sportsMeet/:id/boardLinks', { preValidation: guard, schema: { params: idParamsSchema } }, async (request) =>
    ok(await listMeetBoardLinks(app.db, await requireActor(request), uuidOr404(request.params.id))),
  );
  r.post('/sportsMeet/:id/boardLinks', { preValidation: guard, schema: { params: idParamsSchema, body: boardLinkCreateSchema } }, async (request) => {
    const actor = await requireActor(request);
    const meetId = uuidOr404(request.params.id);
    const created = await app.db.transaction(async (tx) => {
      const link = await createMeetBoardLink(tx, actor, meetId, request.body, app.now());
      await audit(tx, actor, { action: 'createBoardLink', entity: 'meet', entityId: meetId, after: { id: link.id, name: link.name, expiresAt: link.expiresAt } });
      return link;
    });
    return ok(created, request.t(OK_MSG.saved));
  });
  r.delete('/sportsMeet/:id/boardLinks/:linkId', { preValidation: guard, schema: { params: linkParams } }, async (request) => {
    const actor = await requireActor(request);
    const meetId = uuidOr404(request.params.id);
    const row = await app.db.transaction(async (tx) => {
      const link = await revokeMeetBoardLink(tx, actor, meetId, request.params.linkId, app.now());
      await audit(tx, actor, { action: 'revokeBoardLink', entity: 'meet', entityId: meetId, after: { id: link.id, revokedAt: link.revokedAt } });
      return link;
    });
    return ok(row);
  });
};
