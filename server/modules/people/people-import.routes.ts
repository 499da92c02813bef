import multipart from '@fastify/multipart';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paramsOf } from '@/domain/list-query';
import { emptySchema, ok } from '@/domain/api';
import { answerSchema, asIs, kitDoc } from '../../lib/openapi';
import { jobStartedSchema } from '@/domain/jobs';
import { PEOPLE_IMPORT_MAX_BYTES, peopleImportPreviewSchema, studentImportOptionsSchema, type PeopleImportKind } from '@/domain/people/people-import';
import { parentListQuery } from '@/domain/people/parents';
import { staffListQuery } from '@/domain/people/staff';
import { studentListQuery } from '@/domain/people/students';
import { userListQuery } from '@/domain/users/users';
import { resourceAction } from '../../lib/action';
import { relativeApi } from '../../lib/resource';
import { XLSX_MIME, sendXlsx, uploadedFile } from '../../lib/spreadsheet/http';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { accountExport, parentExport, peopleTemplate, studentExport } from './people-export.service';
import { dropImport, holdImport, takeImport } from './people-import-store';
import type { Storage } from '../../lib/storage/storage';
import { peopleImportJob, previewImport, studentImportOptions } from './people-import.service';
import type { Family } from './people-import-rows';

const translator = (request: FastifyRequest) => (key: string, options?: Record<string, unknown>) => request.t(key, options ?? {});
const importParams = paramsOf('importId');

/** The pages whose people can be imported and exported, per family. */
const PAGES: Record<Family, { key: string; kind: PeopleImportKind }[]> = {
  admin: [{ key: 'admin.user.user', kind: 'user' }],
  k12: [
    { key: 'k12.user.student', kind: 'student' },
    { key: 'k12.user.teacher', kind: 'staff' },
  ],
  gx: [
    { key: 'gx.user.student', kind: 'student' },
    { key: 'gx.user.teacher', kind: 'staff' },
  ],
};

/**
 * Templates, dry-run imports and streamed exports of students (with parents), staff and accounts
 * (docs/product-rules.md#people-import), under each page's API prefix beside its list routes.
 */
export const peopleImportRoutes: FastifyPluginAsync<{ family: Family; storage: Storage }> = async (app, { family, storage }) => {
  // One kind for every family and page: the job's input names them.
  app.jobs.define('peopleImport', peopleImportJob(storage));
  for (const page of PAGES[family]) await app.register(async (scope) => pageRoutes(scope, storage, family, page.key, page.kind), { prefix: relativeApi(page.key, family) });
  // Parents come in with their children's rows (the student import); their own page only exports.
  if (family === 'k12') await app.register(async (scope) => parentExportRoute(scope, 'k12.user.parent'), { prefix: relativeApi('k12.user.parent', family) });
};

// TODO(kitopts): the kit's file-download answer (a streamed workbook).
function parentExportRoute(app: FastifyInstance, key: string) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/export', { preValidation: requireAccess(key, 'export'), schema: { querystring: parentListQuery.partial() } }, async (request, reply) => {
      const { stream, fileName } = await parentExport(app.db, await requireActor(request), key, request.query, translator(request));
      return sendStream(reply, stream, fileName);
    });
}

function sendStream(reply: FastifyReply, stream: Readable, fileName: string) {
  return reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .header('cache-control', 'no-store')
    .send(stream);
}

async function pageRoutes(app: FastifyInstance, storage: Storage, family: Family, key: string, kind: PeopleImportKind) {
  await app.register(multipart, { limits: { fileSize: PEOPLE_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Hand routes where the action kit does not fit: a workbook download, a multipart upload, a job enqueued with the
  // request's locale, the discard of that upload, and streamed exports. TODO(kitopts): the kit's file-download answer
  // (template, exports), `multipart` (preview) and `enqueue` (commit) options.
  r.get('/import/template', { preValidation: requireAccess(key, 'import') }, async (request, reply) => {
    const { workbook, fileName } = await peopleTemplate(app.db, await requireActor(request), kind, translator(request));
    return sendXlsx(reply, workbook, fileName);
  });
  if (kind === 'student') {
    resourceAction(app, { method: 'GET', path: '/import/options', access: [key, 'import'], read: studentImportOptions, answer: studentImportOptionsSchema });
  }
  // A multipart upload: the file is kept for the commit and checked row by row.
  // TODO(kitopts): `multipart` (an upload) makes this a resourceAction.
  r.post('/import/preview', { preValidation: requireAccess(key, 'import'), serializerCompiler: asIs, schema: { ...kitDoc(key, 'import', '导入 · 预览'), response: answerSchema(peopleImportPreviewSchema) } }, async (request) =>
    ok(await previewImport(app.db, storage, app.now(), await requireActor(request), kind, family, await uploadedFile(request), translator(request))),
  );
  // The commit is a job (docs/product-rules.md#jobs): the kept file or plan is handed to it once (a second commit is
  // 404), and the answer is the job's `{ id }`; its result holds the counts and the failures workbook.
  // TODO(kitopts): `enqueue` (a job with the request's locale) makes this a resourceAction.
  r.post('/import/:importId/commit', { preValidation: requireAccess(key, 'import'), serializerCompiler: asIs, schema: { ...kitDoc(key, 'import', '导入 · 提交'), params: importParams, response: answerSchema(jobStartedSchema) } }, async (request) => {
    const actor = await requireActor(request);
    await holdImport(app.db, request.params.importId, actor, kind, family, app.now());
    return ok({ id: await app.jobs.enqueue('peopleImport', actor, { kind, family, importId: request.params.importId }, request.locale) });
  });
  // The discard of a kept upload (its row and its blob in the file store; nothing audited, as nothing was imported), whose
  // unknown or expired id answers the import's own 404 message. A hand route: it writes no audit row and removes a blob
  // of the file store, which the action kit's audited transaction does not cover.
  r.delete('/import/:importId', { preValidation: requireAccess(key, 'import'), serializerCompiler: asIs, schema: { ...kitDoc(key, 'import', '导入 · 放弃'), params: importParams, response: answerSchema(emptySchema) } }, async (request) => {
    const actor = await requireActor(request);
    await takeImport(app.db, storage, request.params.importId, actor, kind, family, app.now());
    await dropImport(app.db, storage, request.params.importId);
    return ok(null);
  });
  // A streamed workbook, not an envelope.
  r.get(
    '/export',
    { preValidation: requireAccess(key, 'export'), schema: { querystring: (kind === 'student' ? studentListQuery : kind === 'staff' ? staffListQuery : userListQuery).partial() } },
    async (request, reply) => {
      const actor = await requireActor(request);
      const q = request.query as { keyword?: string; gradeId?: string; classId?: string; status?: string; roleId?: string; enabled?: 'true' | 'false' };
      const { stream, fileName } = kind === 'student' ? await studentExport(app.db, actor, key, q, translator(request)) : await accountExport(app.db, actor, kind, key, q, translator(request));
      return sendStream(reply, stream, fileName);
    },
  );
}
