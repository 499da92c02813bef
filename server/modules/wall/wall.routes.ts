import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { DC_MSG } from '@/domain/data-center/messages';
import { isWallScene, MEET_BOARD_SCENE, wallSceneParams as sceneParams, wallTokenParams as tokenParams } from '@/domain/wall/wall';
import type { MeetBoardView } from '@/domain/meets/board';
import type { DistrictOverview } from '@/domain/data-center/district';
import { AppError } from '../../lib/app-error';
import { BOARD_CACHE_MS, createSceneCache, linkOfToken, meetBoardScene, wallConfig, wallScene } from './wall.service';

/** Requests per minute per IP: a room of walls refreshing every 30 s stays far below it; a meet board (two calls every 5 s) uses 24. */
const SCREEN_PER_MINUTE = 240;


/**
 * /api/screen/:token/… (docs/product-rules.md#wall-display): the wall display's only API. No session, no organisation header: the token
 * names the organisation and the playlist, and these two read-only routes are all it opens.
 */
export const wallRoutes: FastifyPluginAsyncZod = async (app) => {
  const cache = createSceneCache();
  const boards = createSceneCache<MeetBoardView>(BOARD_CACHE_MS);
  const districts = createSceneCache<DistrictOverview>();
  const limit = { rateLimit: { max: SCREEN_PER_MINUTE, timeWindow: '1 minute' } };

  app.addHook('onSend', async (_request, reply) => {
    // Figures of a school must not sit in shared caches.
    reply.header('cache-control', 'no-store');
  });

  app.get('/:token/config', { schema: { params: tokenParams }, config: limit }, async (request) => {
    const now = app.now();
    return ok(wallConfig(await linkOfToken(app.db, request.params.token, now), now));
  });

  app.get('/:token/scene/:scene', { schema: { params: sceneParams }, config: limit }, async (request) => {
    const now = app.now();
    const link = await linkOfToken(app.db, request.params.token, now);
    const { scene } = request.params;
    if (!isWallScene(scene)) throw new AppError(404, DC_MSG.sceneNotInPlaylist);
    // The wall reads from the replica when there is one (server/plugins/replica.ts).
    if (scene === MEET_BOARD_SCENE) return ok(await app.readWith(request, (db) => meetBoardScene(db, link, now, boards)));
    return ok(await app.readWith(request, (db) => wallScene(db, link, scene, now, cache, districts)));
  });
};
