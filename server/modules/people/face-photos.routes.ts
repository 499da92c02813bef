import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { facePhotoApplySchema, facePhotoMatchSchema, type FacePhotoKind } from '@/domain/people/face-photos';
import { relativeApi } from '../../lib/resource';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { applyFacePhotos, facePhotoMatches } from './face-photos.service';
import type { SchoolFamily } from '@/domain/menus/access';

/** The page whose edit button a batch of each kind needs. */
const PAGE: Record<FacePhotoKind, string> = { staff: 'user.teacher', student: 'user.student' };

/**
 * Batch face photos (docs/product-rules.md#face-photos) under the staff and student pages of /api/busi/web/{k12|gx}:
 * `POST …/facePhotos/match` (file names → matched, ambiguous, unmatched; writes nothing) and `POST …/facePhotos/apply`
 * (the confirmed photos, one transaction). The files themselves go to the file store first (purpose `face`).
 */
export const facePhotoRoutes: FastifyPluginAsync<{ family: SchoolFamily }> = async (app, { family }) => {
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const kind of Object.keys(PAGE) as FacePhotoKind[]) {
    const key = `${family}.${PAGE[kind]}`;
    const base = `${relativeApi(key, family)}/facePhotos`;
    r.post(`${base}/match`, { preValidation: requireAccess(key, 'edit'), schema: { body: facePhotoMatchSchema } }, async (request) =>
      ok(await facePhotoMatches(app.db, await requireActor(request), kind, request.body.names)),
    );
    r.post(`${base}/apply`, { preValidation: requireAccess(key, 'edit'), schema: { body: facePhotoApplySchema } }, async (request) => {
      const actor = await requireActor(request);
      const applied = await app.db.transaction((tx) => applyFacePhotos(tx, actor, kind, request.body));
      return ok(applied, request.t(OK_MSG.saved));
    });
  }
};
