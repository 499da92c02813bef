import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { RECORD_IMPORT_MAX_BYTES } from '@/domain/meets/record-import';
import { recordListQuery } from '@/domain/meets/records';
import { resourceAction, type ActionContext } from '../../lib/action';
import { importRecords, recordExport, recordExportRows, recordTemplate } from './record-import.service';

const translator = (t: ActionContext['t']) => (key: string, options?: Record<string, unknown>) => t(key, options ?? {});

/**
 * Export, template and import of the records workbook (docs/product-rules.md#meets), in a scope of their own
 * (multipart): workbooks in and out, not envelopes.
 */
export async function recordIoRoutes(app: FastifyInstance, key: string) {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: RECORD_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
    resourceAction(scope, {
      method: 'GET',
      path: '/export',
      access: [key, 'export'],
      query: recordListQuery,
      answers: 'file',
      // Each record names its holder and mark (docs/product-rules.md#personal-data-access).
      approval: { rows: (db, actor, { query }) => recordExportRows(db, actor, query) },
      read: (db, actor, { query }, { t }) => recordExport(db, actor, query, translator(t)),
    });
    resourceAction(scope, { method: 'GET', path: '/import/template', access: [key, 'import'], answers: 'file', read: async (_db, _actor, _input, { t }) => recordTemplate(translator(t)) });
    // The import writes (in its own transaction), so on the primary, not the read handle; it answers the result workbook.
    resourceAction(scope, {
      method: 'POST',
      path: '/import',
      access: [key, 'import'],
      upload: true,
      answers: 'file',
      // The import writes (in its own transaction, with its audit row), so it runs on the primary.
      reads: 'primary',
      read: async (db, actor, { file }, { t }) => {
        const { workbook, fileName, success, failure } = await importRecords(db, actor, file!, translator(t));
        return { workbook, fileName, headers: { 'x-import-success': String(success), 'x-import-failure': String(failure) } };
      },
    });
  });
}
