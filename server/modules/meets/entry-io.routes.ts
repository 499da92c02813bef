import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { idParamsSchema as meetParams } from '@/domain/list-query';
import { entryListQuery } from '@/domain/meets/entries';
import { ENTRY_IMPORT_MAX_BYTES } from '@/domain/meets/entry-import';
import { resourceAction, type ActionContext } from '../../lib/action';
import { entryExport, entryTemplate, importEntries } from './entry-import.service';
import { entryPage } from './entry.service';

const translator = (t: ActionContext['t']) => (key: string, options?: Record<string, unknown>) => t(key, options ?? {});

/**
 * Export, template and import of a meet's sign-up workbook (docs/product-rules.md#meets), in a scope of their own
 * (multipart): workbooks in and out, not envelopes.
 */
export async function entryIoRoutes(app: FastifyInstance, key: string) {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: ENTRY_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
    resourceAction(scope, {
      method: 'GET',
      path: '/:id/entries/export',
      access: [key, 'export'],
      params: meetParams,
      query: entryListQuery.omit({ meetId: true }),
      answers: 'file',
      // Athletes' entries (docs/product-rules.md#personal-data-access).
      approval: { rows: async (db, actor, { params, query }) => (await entryPage(db, actor, params.id, { ...query, current: 1, size: 1 })).total },
      read: (db, actor, { params, query }, { t }) => entryExport(db, actor, params.id, query, translator(t)),
    });
    resourceAction(scope, {
      method: 'GET',
      path: '/:id/entries/import/template',
      access: [key, 'import'],
      params: meetParams,
      answers: 'file',
      read: (db, actor, { params }, { t }) => entryTemplate(db, actor, params.id, translator(t)),
    });
    // The import writes (in its own transaction), so on the primary, not the read handle; it answers the result workbook.
    resourceAction(scope, {
      method: 'POST',
      path: '/:id/entries/import',
      access: [key, 'import'],
      params: meetParams,
      upload: true,
      answers: 'file',
      // The import writes (in its own transaction, with its audit row), so it runs on the primary.
      reads: 'primary',
      read: async (db, actor, { params, file }, { t, now }) => {
        const { workbook, fileName, success, failure } = await importEntries(db, actor, params.id, file!, translator(t), now);
        return { workbook, fileName, headers: { 'x-import-success': String(success), 'x-import-failure': String(failure) } };
      },
    });
  });
}
