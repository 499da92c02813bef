import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { bannerListQuery, bannerMoveSchema, bannerRowSchema, bannerSaveSchema, bannerStatusSchema, carouselQuery } from '@/domain/content/banners';
import { lessonResourceListQuery, lessonResourceRowSchema, lessonResourceSaveSchema, libraryListQuery, libraryRowSchema } from '@/domain/content/lesson-resources';
import { pageSchema } from '@/domain/api';
import { wikiEntrySchema, wikiListQuery, wikiPublishSchema, wikiRowSchema, wikiSaveSchema } from '@/domain/content/wiki';
import { idParamsSchema } from '@/domain/list-query';
import type { Family, SchoolFamily, ServedBy } from '@/domain/menus/access';
import { resourceAction } from '../../lib/action';
import { registerResource, uuidOr404 } from '../../lib/resource';
import type { Storage } from '../../lib/storage/storage';
import { requireAccess, requireActor } from '../../plugins/tenant';
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

/** Banners of /api/busi/web/{admin|k12|gx}/banner/bannerConfig (docs/product-rules.md#banners). */
export const bannerRoutes: FastifyPluginAsync<{ family: Family }> = async (app, { family }) => {
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
      response: { row: bannerRowSchema, detail: bannerRowSchema, saved: bannerRowSchema },
    },
    (scope) => {
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/status',
        access: [key, 'status'],
        params: idParamsSchema,
        body: bannerStatusSchema,
        entity: 'banner',
        audit: 'status',
        answer: bannerRowSchema,
        write: (tx, actor, { params, body }) => setBannerEnabled(tx, actor, params.id, body.enabled, body.version, app.now()),
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/move',
        access: [key, 'sort'],
        params: idParamsSchema,
        body: bannerMoveSchema,
        entity: 'banner',
        audit: 'move',
        answer: bannerRowSchema,
        write: (tx, actor, { params, body }) => moveBanner(tx, actor, params.id, body, app.now()),
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
      response: { row: wikiRowSchema, detail: wikiEntrySchema, saved: wikiEntrySchema },
    },
    (scope) =>
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/publish',
        access: [key, 'edit'],
        params: idParamsSchema,
        body: wikiPublishSchema,
        entity: 'wiki',
        audit: ({ body }) => (body.published ? 'publish' : 'unpublish'),
        answer: wikiRowSchema,
        write: (tx, actor, { params, body }) => publishWiki(tx, actor, params.id, body.published, body.version, app.now()),
      }),
  );
};

/**
 * Lesson resources (docs/product-rules.md#lesson-resources): a school's own list (k12 lessonAssistant/lessonResourceList,
 * with the library it browses and copies from) and a management organisation's library (admin lessonAssistant/resourceList).
 */
export const lessonResourceRoutes: FastifyPluginAsync<{ family: ServedBy<'lesson.lessonResource' | 'lesson.resourceLibrary'>; storage: Storage }> = async (app, { family, storage }) => {
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
      response: { row: lessonResourceRowSchema, detail: lessonResourceRowSchema, saved: lessonResourceRowSchema },
    },
    family === 'admin'
      ? undefined
      : (scope) => {
          resourceAction(scope, { method: 'GET', path: '/library/page', access: [key, 'view'], query: libraryListQuery, answer: pageSchema(libraryRowSchema), read: (db, actor, { query }) => libraryPage(db, actor, query) });
          // The cover's thumbnail; no-cache so a changed cover shows at once (the ETag answers 304 while it stays).
          // A hand route: a stored file streamed with ranges, ETag and 304 (sendStoredFile), which a kit file answer does not do.
          scope.withTypeProvider<ZodTypeProvider>().get('/library/:id/cover', { preValidation: requireAccess(key, 'view'), schema: { params: idParamsSchema } }, async (request, reply) => {
            const file = await libraryCover(app.db, await requireActor(request), uuidOr404(request.params.id));
            return sendStoredFile(storage, request, reply, thumbnailOf(file), 'private, no-cache');
          });
          // A copy is a new resource of the school: the add button's permission.
          resourceAction(scope, {
            method: 'POST',
            path: '/library/:id/copy',
            access: [key, 'add'],
            params: idParamsSchema,
            entity: 'lessonResource',
            audit: 'copy',
            answer: lessonResourceRowSchema,
            write: async (tx, actor, { params }) => {
              const copy = await copyFromLibrary(tx, actor, params.id, app.now());
              return { after: copy, entityId: copy.id };
            },
          });
        },
  );
};
