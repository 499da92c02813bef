import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AuditAction, AuditEntity } from '@/domain/platform/audit';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { bannerListQuery, bannerMoveSchema, bannerSaveSchema, bannerStatusSchema, carouselQuery } from '@/domain/content/banners';
import { lessonResourceListQuery, lessonResourceSaveSchema, libraryListQuery } from '@/domain/content/lesson-resources';
import { wikiListQuery, wikiPublishSchema, wikiSaveSchema } from '@/domain/content/wiki';
import { OK_MSG } from '@/domain/errors';
import { idParamsSchema } from '@/domain/list-query';
import type { Family, SchoolFamily, ServedBy } from '@/domain/menus/access';
import type { Tx } from '../../db/client';
import { audit } from '../../lib/audit';
import { registerResource, uuidOr404, type Change } from '../../lib/resource';
import type { Storage } from '../../lib/storage/storage';
import { requireAccess, requireActor, type Actor } from '../../plugins/tenant';
import { sendStoredFile, thumbnailOf } from '../files/files.send';
import { bannerById, bannerPage, carousel, createBanner, deleteBanner, moveBanner, setBannerEnabled, updateBanner } from './banner.service';
import {
  copyFromLibrary,
  createLessonResource,
  deleteLessonResource,
  lessonResourceById,
  lessonResourcePage,
  libraryCover,
  libraryPage,
  updateLessonResource,
} from './lesson-resource.service';
import { createWiki, deleteWiki, publishWiki, updateWiki, wikiById, wikiPage } from './wiki.service';

/** A write of a resource's own route (not list/get/save/delete): one transaction with its audit row. */
async function auditedWrite<T>(app: FastifyInstance, actor: Actor, entity: AuditEntity, action: AuditAction, id: string, write: (tx: Tx) => Promise<Change<T>>): Promise<T> {
  return app.db.transaction(async (tx) => {
    const change = await write(tx);
    await audit(tx, actor, { action, entity, entityId: id, before: change.before, after: change.after });
    return change.after;
  });
}

/** Banners of /api/busi/web/{admin|k12|gx}/banner/bannerConfig (docs/product-rules.md#banners). */
export const bannerRoutes: FastifyPluginAsync<{ family: Family }> = async (app, { family }) => {
  app.addHook('onRequest', app.authenticate);
  const key = `${family}.banner.bannerConfig`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'banner',
      list: { query: bannerListQuery, handler: bannerPage },
      get: bannerById,
      create: { body: bannerSaveSchema, handler: (tx, actor, body) => createBanner(tx, actor, body, app.now()) },
      update: { body: bannerSaveSchema, handler: (tx, actor, id, body) => updateBanner(tx, actor, id, body, app.now()) },
      remove: deleteBanner,
    },
    (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      r.put('/:id/status', { preValidation: requireAccess(key, 'status'), schema: { params: idParamsSchema, body: bannerStatusSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = uuidOr404(request.params.id);
        const row = await auditedWrite(app, actor, 'banner', 'status', id, (tx) => setBannerEnabled(tx, actor, id, request.body.enabled, request.body.version, app.now()));
        return ok(row, request.t(OK_MSG.saved));
      });
      r.put('/:id/move', { preValidation: requireAccess(key, 'sort'), schema: { params: idParamsSchema, body: bannerMoveSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = uuidOr404(request.params.id);
        const row = await auditedWrite(app, actor, 'banner', 'move', id, (tx) => moveBanner(tx, actor, id, request.body, app.now()));
        return ok(row, request.t(OK_MSG.saved));
      });
    },
  );
};

/** The public carousel of the login screen and the landing page: /api/oper/web/cs/banner/carousel. */
export const carouselRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/carousel', { schema: { querystring: carouselQuery } }, async (request) => ok(await carousel(app.db, request.query.orgId, request.query.position)));
};

/** School wiki of /api/busi/web/{k12|gx}/wikiManagement/schoolWiki (docs/product-rules.md#wiki). */
export const wikiRoutes: FastifyPluginAsync<{ family: SchoolFamily }> = async (app, { family }) => {
  app.addHook('onRequest', app.authenticate);
  const key = `${family}.wiki.schoolWiki`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'wiki',
      list: { query: wikiListQuery, handler: wikiPage },
      get: wikiById,
      create: { body: wikiSaveSchema, handler: (tx, actor, body) => createWiki(tx, actor, body, app.now()) },
      update: { body: wikiSaveSchema, handler: (tx, actor, id, body) => updateWiki(tx, actor, id, body, app.now()) },
      remove: deleteWiki,
    },
    (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      r.put('/:id/publish', { preValidation: requireAccess(key, 'edit'), schema: { params: idParamsSchema, body: wikiPublishSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = uuidOr404(request.params.id);
        const row = await auditedWrite(app, actor, 'wiki', request.body.published ? 'publish' : 'unpublish', id, (tx) =>
          publishWiki(tx, actor, id, request.body.published, request.body.version, app.now()),
        );
        return ok(row, request.t(OK_MSG.saved));
      });
    },
  );
};

/**
 * Lesson resources (docs/product-rules.md#lesson-resources): a school's own list (k12 lessonAssistant/lessonResourceList,
 * with the library it browses and copies from) and a management organisation's library (admin lessonAssistant/resourceList).
 */
export const lessonResourceRoutes: FastifyPluginAsync<{ family: ServedBy<'lesson.lessonResource' | 'lesson.resourceLibrary'>; storage: Storage }> = async (app, { family, storage }) => {
  app.addHook('onRequest', app.authenticate);
  const key = family === 'admin' ? 'admin.lesson.resourceLibrary' : 'k12.lesson.lessonResource';
  await registerResource(
    app,
    family,
    {
      key,
      entity: family === 'admin' ? 'libraryResource' : 'lessonResource',
      list: { query: lessonResourceListQuery, handler: lessonResourcePage },
      get: lessonResourceById,
      create: { body: lessonResourceSaveSchema, handler: (tx, actor, body) => createLessonResource(tx, actor, body, app.now()) },
      update: { body: lessonResourceSaveSchema, handler: (tx, actor, id, body) => updateLessonResource(tx, actor, id, body, app.now()) },
      remove: deleteLessonResource,
    },
    family === 'admin'
      ? undefined
      : (scope) => {
          const r = scope.withTypeProvider<ZodTypeProvider>();
          r.get('/library/page', { preValidation: requireAccess(key, 'view'), schema: { querystring: libraryListQuery } }, async (request) =>
            ok(await libraryPage(app.db, await requireActor(request), request.query)),
          );
          // The cover's thumbnail; no-cache so a changed cover shows at once (the ETag answers 304 while it stays).
          r.get('/library/:id/cover', { preValidation: requireAccess(key, 'view'), schema: { params: idParamsSchema } }, async (request, reply) => {
            const file = await libraryCover(app.db, await requireActor(request), uuidOr404(request.params.id));
            return sendStoredFile(storage, request, reply, thumbnailOf(file), 'private, no-cache');
          });
          // A copy is a new resource of the school: the add button's permission.
          r.post('/library/:id/copy', { preValidation: requireAccess(key, 'add'), schema: { params: idParamsSchema } }, async (request) => {
            const actor = await requireActor(request);
            const id = uuidOr404(request.params.id);
            const row = await app.db.transaction(async (tx) => {
              const copy = await copyFromLibrary(tx, actor, id, app.now());
              await audit(tx, actor, { action: 'copy', entity: 'lessonResource', entityId: copy.id, after: copy });
              return copy;
            });
            return ok(row, request.t(OK_MSG.saved));
          });
        },
  );
};
