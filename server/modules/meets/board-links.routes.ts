import type { FastifyPluginAsync } from 'fastify';
import { boardLinkCreateSchema, boardLinkCreatedSchema, boardLinkListSchema, boardLinkRowSchema } from '@/domain/meets/board';
import { idParamsSchema, idParamsWith } from '@/domain/list-query';
import { resourceAction, type Access } from '../../lib/action';
import { createMeetBoardLink, listMeetBoardLinks, revokeMeetBoardLink } from '../data-center/screen-link.service';
import type { SchoolFamily } from '@/domain/menus/access';

const SCORE = 'single.sportsMeet.score';

/**
 * A meet's board links, under /api/busi/web/{k12|gx}/sportsMeet/:id/boardLinks (docs/product-rules.md#meets): wall
 * links (the screen-link kit of the data centre) that show the meet's live board without a sign-in. A link puts the
 * results before anyone at the screen, so it takes both the board ('screen') and publishing results ('audit').
 */
export const meetBoardLinkRoutes: FastifyPluginAsync<{ family: SchoolFamily }> = async (app) => {
  const access: Access[] = [
    [SCORE, 'screen'],
    [SCORE, 'audit'],
  ];
  resourceAction(app, {
    method: 'GET',
    path: '/sportsMeet/:id/boardLinks',
    access,
    params: idParamsSchema,
    answer: boardLinkListSchema,
    read: (db, actor, { params }) => listMeetBoardLinks(db, actor, params.id),
  });
  resourceAction(app, {
    method: 'POST',
    path: '/sportsMeet/:id/boardLinks',
    access,
    params: idParamsSchema,
    body: boardLinkCreateSchema,
    entity: 'meet',
    audit: 'createBoardLink',
    answer: boardLinkCreatedSchema,
    write: async (tx, actor, { params, body }) => {
      const link = await createMeetBoardLink(tx, actor, params.id, body, app.now());
      return { after: { id: link.id, name: link.name, expiresAt: link.expiresAt }, answer: link };
    },
  });
  resourceAction(app, {
    method: 'DELETE',
    path: '/sportsMeet/:id/boardLinks/:linkId',
    access,
    params: idParamsWith('linkId'),
    entity: 'meet',
    audit: 'revokeBoardLink',
    answer: boardLinkRowSchema,
    message: null,
    write: async (tx, actor, { params }) => {
      const link = await revokeMeetBoardLink(tx, actor, params.id, params.linkId, app.now());
      return { after: { id: link.id, revokedAt: link.revokedAt }, answer: link };
    },
  });
};
