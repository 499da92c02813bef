import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema as meetParams } from '@/domain/list-query';
import { entryListQuery } from '@/domain/meets/entries';
import { ENTRY_IMPORT_MAX_BYTES } from '@/domain/meets/entry-import';
import { sendXlsx, uploadedFile } from '../../lib/spreadsheet/http';
import { uuidOr404 } from '../../lib/resource';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { entryExport, entryTemplate, importEntries } from './entry-import.service';

const translator = (request: FastifyRequest) => (key: string, options?: Record<string, unknown>) => request.t(key, options ?? {});

/**
 * Export, template and import of a meet's sign-up workbook (docs/product-rules.md#meets), in a scope of their own
 * (multipart). Hand routes: workbooks in and out, not envelopes.
 * TODO(kitopts): actions answering a file (xlsx) and taking a multipart upload.
 */
export async function entryIoRoutes(app: FastifyInstance, key: string) {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: ENTRY_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.get('/:id/entries/export', { preValidation: requireAccess(key, 'export'), schema: { params: meetParams, querystring: entryListQuery.omit({ meetId: true }) } }, async (request, reply) => {
      const { workbook, fileName } = await scope.readWith(request, async (db) => entryExport(db, await requireActor(request), uuidOr404(request.params.id), request.query, translator(request)));
      return sendXlsx(reply, workbook, fileName);
    });
    r.get('/:id/entries/import/template', { preValidation: requireAccess(key, 'import'), schema: { params: meetParams } }, async (request, reply) => {
      const { workbook, fileName } = await entryTemplate(scope.db, await requireActor(request), uuidOr404(request.params.id), translator(request));
      return sendXlsx(reply, workbook, fileName);
    });
    r.post('/:id/entries/import', { preValidation: requireAccess(key, 'import'), schema: { params: meetParams } }, async (request, reply) => {
      const outcome = await importEntries(scope.db, await requireActor(request), uuidOr404(request.params.id), await uploadedFile(request), translator(request), scope.now());
      reply.header('x-import-success', String(outcome.success)).header('x-import-failure', String(outcome.failure));
      return sendXlsx(reply, outcome.workbook, outcome.fileName);
    });
  });
}
