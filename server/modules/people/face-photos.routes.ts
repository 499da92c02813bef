import type { FastifyPluginAsync } from 'fastify';
import { facePhotoAppliedSchema, facePhotoApplySchema, facePhotoMatchResultSchema, facePhotoMatchSchema, type FacePhotoKind } from '@/domain/people/face-photos';
import { resourceAction } from '../../lib/action';
import { relativeApi } from '../../lib/resource';
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
  for (const kind of Object.keys(PAGE) as FacePhotoKind[]) {
    const key = `${family}.${PAGE[kind]}`;
    const base = `${relativeApi(key, family)}/facePhotos`;
    // A read sent as a POST: the file names of a batch may be too many for a query string.
    resourceAction(app, {
      method: 'POST',
      path: `${base}/match`,
      access: [key, 'edit'],
      body: facePhotoMatchSchema,
      read: (db, actor, { body }) => facePhotoMatches(db, actor, kind, body.names),
      answer: facePhotoMatchResultSchema,
    });
    // The service writes the batch's one audit row (its entity is the kind, with every person's before and after).
    resourceAction(app, {
      method: 'POST',
      path: `${base}/apply`,
      access: [key, 'edit'],
      body: facePhotoApplySchema,
      entity: kind,
      audit: 'facePhotos',
      answer: facePhotoAppliedSchema,
      write: async (tx, actor, { body }) => ({ after: await applyFacePhotos(tx, actor, kind, body), audited: false }),
    });
  }
};
