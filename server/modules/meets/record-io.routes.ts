import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RECORD_IMPORT_MAX_BYTES } from '@/domain/meets/record-import';
import { recordListQuery } from '@/domain/meets/records';
import { sendXlsx, uploadedFile } from '../../lib/spreadsheet/http';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { importRecords, recordExport, recordTemplate } from './record-import.service';

const translator = (request: FastifyRequest) => (key: string, options?: Record<string, unknown>) => request.t(key, options ?? {});

/**
 * Export, template and import of the records workbook (docs/product-rules.md#meets), in a scope of their own
 * (multipart). Hand routes: workbooks in and out, not envelopes.
 * TODO(kitopts): actions answering a file (xlsx) and taking a multipart upload.
 */
export async function recordIoRoutes(app: FastifyInstance, key: string) {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: RECORD_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.get('/export', { preValidation: requireAccess(key, 'export'), schema: { querystring: recordListQuery } }, async (request, reply) => {
      const { workbook, fileName } = await scope.readWith(request, async (db) => recordExport(db, await requireActor(request), request.query, translator(request)));
      return sendXlsx(reply, workbook, fileName);
    });
    r.get('/import/template', { preValidation: requireAccess(key, 'import') }, async (request, reply) => {
      const { workbook, fileName } = recordTemplate(translator(request));
      return sendXlsx(reply, workbook, fileName);
    });
    r.post('/import', { preValidation: requireAccess(key, 'import') }, async (request, reply) => {
      const outcome = await importRecords(scope.db, await requireActor(request), await uploadedFile(request), translator(request));
      reply.header('x-import-success', String(outcome.success)).header('x-import-failure', String(outcome.failure));
      return sendXlsx(reply, outcome.workbook, outcome.fileName);
    });
  });
}
