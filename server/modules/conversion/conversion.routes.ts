import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { conversionListQuery, conversionRowSchema, conversionSaveSchema } from '@/domain/conversion/conversion';
import { CONVERSION_IMPORT_MAX_BYTES } from '@/domain/conversion/conversion-import';
import type { ServedBy } from '@/domain/menus/access';
import { resourceAction, type ActionContext } from '../../lib/action';
import { registerResource } from '../../lib/resource';
import { importConversion, conversionTemplate } from './conversion-import.service';
import { conversionById, conversionPage, createConversion, deleteConversion, updateConversion } from './conversion.service';

const translator = (t: ActionContext['t']) => (key: string, options?: Record<string, unknown>) => t(key, options ?? {});

/**
 * A district's 中考体育 conversion tables (docs/product-rules.md#physique-year: 中考体育 conversion) under
 * /api/busi/web/admin/physiqueManage/conversion: list, get, add (a new version), edit (an unused version), delete (an
 * unused version), and the import of a table as a new version (template, upload).
 */
export const conversionRoutes: FastifyPluginAsync<{ family: ServedBy<'test.conversion'> }> = async (app, { family }) => {
  const key = `${family}.test.conversion`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'conversionTable',
      list: { query: conversionListQuery, handler: conversionPage },
      get: conversionById,
      create: { body: conversionSaveSchema, handler: createConversion },
      update: { body: conversionSaveSchema, handler: updateConversion },
      remove: deleteConversion,
      response: { row: conversionRowSchema, detail: conversionRowSchema, saved: conversionRowSchema },
    },
    (scope) => {
      // Workbooks in and out (multipart), in a scope of their own.
      void scope.register(async (io) => {
        await io.register(multipart, { limits: { fileSize: CONVERSION_IMPORT_MAX_BYTES, files: 1, fields: 8, parts: 9 } });
        resourceAction(io, { method: 'GET', path: '/import/template', access: [key, 'import'], answers: 'file', read: async (_db, _actor, _input, { t }) => conversionTemplate(translator(t)) });
        resourceAction(io, {
          method: 'POST',
          path: '/import',
          access: [key, 'import'],
          upload: true,
          answers: 'file',
          // The import writes (in its own transaction, with its audit row), so it runs on the primary.
          reads: 'primary',
          read: async (db, actor, { file }, { t }) => {
            const { workbook, fileName, success, failure } = await importConversion(db, actor, file!, translator(t));
            return { workbook, fileName, headers: { 'x-import-success': String(success), 'x-import-failure': String(failure) } };
          },
        });
      });
    },
  );
};
