import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paramsOf } from '@/domain/list-query';
import { emptySchema, ok } from '@/domain/api';
import { answerSchema, asIs, kitDoc } from '../../lib/openapi';
import { PEOPLE_IMPORT_MAX_BYTES, peopleImportPreviewSchema, studentImportOptionsSchema, type PeopleImportKind } from '@/domain/people/people-import';
import { parentListQuery } from '@/domain/people/parents';
import { staffListQuery } from '@/domain/people/staff';
import { studentListQuery } from '@/domain/people/students';
import { userListQuery } from '@/domain/users/users';
import { resourceAction, type ActionContext } from '../../lib/action';
import { relativeApi } from '../../lib/resource';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { accountExport, accountExportRows, parentExport, parentExportRows, peopleTemplate, studentExport, studentExportRows, type StudentExportFilter } from './people-export.service';
import { dropImport, holdImport, takeImport } from './people-import-store';
import type { Storage } from '../../lib/storage/storage';
import { peopleImportJob, previewImport, studentImportOptions } from './people-import.service';
import type { Family } from './people-import-rows';

const translator = (t: ActionContext['t']) => (key: string, options?: Record<string, unknown>) => t(key, options ?? {});
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

/**
 * A streamed export: the workbook is read from the database while it is sent, after the read returns, so it reads the
 * primary (a replica failing mid-stream could not fall back to it).
 */
function parentExportRoute(app: FastifyInstance, key: string) {
  resourceAction(app, {
    method: 'GET',
    path: '/export',
    access: [key, 'export'],
    query: parentListQuery.partial(),
    answers: 'file',
    reads: 'primary',
    // Personal data: above the organisation's threshold it needs an approval (docs/product-rules.md#personal-data-access).
    approval: { rows: (db, actor, { query }) => parentExportRows(db, actor, query) },
    // Follows the list's shown columns (the kit's `sheet`).
    read: (db, actor, { query }, { t, now }) => parentExport(db, actor, key, query, translator(t), now),
  });
}

async function pageRoutes(app: FastifyInstance, storage: Storage, family: Family, key: string, kind: PeopleImportKind) {
  await app.register(multipart, { limits: { fileSize: PEOPLE_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  const r = app.withTypeProvider<ZodTypeProvider>();
  resourceAction(app, {
    method: 'GET',
    path: '/import/template',
    access: [key, 'import'],
    answers: 'file',
    read: (db, actor, _input, { t }) => peopleTemplate(db, actor, kind, translator(t)),
  });
  if (kind === 'student') {
    resourceAction(app, { method: 'GET', path: '/import/options', access: [key, 'import'], read: studentImportOptions, answer: studentImportOptionsSchema });
  }
  // A multipart upload: the file is kept for the commit (a write, so on the primary) and checked row by row.
  resourceAction(app, {
    method: 'POST',
    path: '/import/preview',
    access: [key, 'import'],
    summary: '导入 · 预览',
    upload: true,
    reads: 'primary',
    answer: peopleImportPreviewSchema,
    read: (db, actor, { file }, { t, now }) => previewImport(db, storage, now, actor, kind, family, file!, translator(t)),
  });
  // The commit is a job (docs/product-rules.md#jobs): the kept file or plan is handed to it once (a second commit is
  // 404), and the answer is the job's `{ id }`; its result holds the counts and the failures workbook.
  resourceAction(app, {
    method: 'POST',
    path: '/import/:importId/commit',
    access: [key, 'import'],
    summary: '导入 · 提交',
    params: importParams,
    enqueue: async (db, actor, { params }, { locale, now }) => {
      await holdImport(db, params.importId, actor, kind, family, now);
      return app.jobs.enqueue('peopleImport', actor, { kind, family, importId: params.importId }, locale);
    },
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
  // A streamed export (read while it is sent): the primary, as the parents' export.
  resourceAction(app, {
    method: 'GET',
    path: '/export',
    access: [key, 'export'],
    query: (kind === 'student' ? studentListQuery : kind === 'staff' ? staffListQuery : userListQuery).partial(),
    answers: 'file',
    reads: 'primary',
    // Personal data: above the organisation's threshold it needs an approval (docs/product-rules.md#personal-data-access).
    approval: {
      rows: (db, actor, { query }) => {
        const q = query as { keyword?: string; gradeId?: string; classId?: string; status?: string; roleId?: string; enabled?: 'true' | 'false' };
        return kind === 'student' ? studentExportRows(db, actor, q as StudentExportFilter) : accountExportRows(db, actor, kind, q);
      },
    },
    read: async (db, actor, { query }, { t, now }) => {
      const q = query as { keyword?: string; gradeId?: string; classId?: string; status?: string; roleId?: string; enabled?: 'true' | 'false' };
      // The students' export follows the list's shown columns (the kit's `sheet`); staff and accounts keep the import's layout.
      if (kind === 'student') return studentExport(db, actor, key, q as StudentExportFilter, translator(t), now);
      const { stream, fileName } = await accountExport(db, actor, kind, key, q, translator(t), now);
      return { workbook: stream, fileName };
    },
  });
}
