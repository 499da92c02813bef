import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { emptySchema, ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { MENU_MANAGEMENT_KEY, menuCustomRowSchema, menuCustomSaveSchema, menuResetCountSchema, menuFamilyQuery, menuKeyParams as keyParams, menuMoveSchema } from '@/domain/menus/customize';
import { answerSchema, asIs } from '../../lib/openapi';
import { requireActor, requirePermission } from '../../plugins/tenant';
import { assertPlatformOperator, menuCustomRow, menuCustomTree, moveMenu, resetMenu, resetMenuFamily, saveMenuCustom } from './menus.service';

/**
 * /api/busi/web/menuManagement (docs/product-rules.md#menu-management): the menu trees of every family with the
 * platform operators' changes over the catalogue. Every route: signed in, the menu-management permission, and a
 * platform operator (403 otherwise).
 * Hand routes: their access is a standalone screen's permission (a catalogue top route, not a page, so `resourceAction`'s
 * `Access` cannot name it) plus being a platform operator; the action kit expresses neither.
 */
export const menuRoutes: FastifyPluginAsync = async (app) => {
  const permitted = requirePermission(getCatalogEntry(MENU_MANAGEMENT_KEY)!.permission);
  const operator = async (request: FastifyRequest) => {
    await permitted(request);
    await assertPlatformOperator(app.db, await requireActor(request));
  };
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/tree', { preValidation: operator, serializerCompiler: asIs, schema: { querystring: menuFamilyQuery, response: answerSchema(menuCustomRowSchema.array()) } }, async (request) => ok(await menuCustomTree(app.db, request.query.family)));

  r.get('/:key', { preValidation: operator, serializerCompiler: asIs, schema: { params: keyParams, response: answerSchema(menuCustomRowSchema) } }, async (request) => ok(await menuCustomRow(app.db, request.params.key)));

  r.put('/:key', { preValidation: operator, serializerCompiler: asIs, schema: { params: keyParams, body: menuCustomSaveSchema, response: answerSchema(menuCustomRowSchema) } }, async (request) => {
    const actor = await requireActor(request);
    const row = await app.db.transaction((tx) => saveMenuCustom(tx, actor, request.params.key, request.body));
    return ok(row, request.t(OK_MSG.saved));
  });

  r.post('/:key/move', { preValidation: operator, serializerCompiler: asIs, schema: { params: keyParams, body: menuMoveSchema, response: answerSchema(emptySchema) } }, async (request) => {
    const actor = await requireActor(request);
    await app.db.transaction((tx) => moveMenu(tx, actor, request.params.key, request.body.direction));
    return ok(null, request.t(OK_MSG.saved));
  });

  r.post('/:key/reset', { preValidation: operator, serializerCompiler: asIs, schema: { params: keyParams, response: answerSchema(menuCustomRowSchema) } }, async (request) => {
    const actor = await requireActor(request);
    const row = await app.db.transaction((tx) => resetMenu(tx, actor, request.params.key));
    return ok(row, request.t(OK_MSG.saved));
  });

  r.post('/reset', { preValidation: operator, serializerCompiler: asIs, schema: { body: menuFamilyQuery, response: answerSchema(menuResetCountSchema) } }, async (request) => {
    const actor = await requireActor(request);
    const count = await app.db.transaction((tx) => resetMenuFamily(tx, actor, request.body.family));
    return ok({ count }, request.t(OK_MSG.saved));
  });
};
