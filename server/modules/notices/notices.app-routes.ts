import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema as envelope, ok, pageSchema } from '@/domain/api';
import { idParamsSchema } from '@/domain/list-query';
import { inboxNoticeSchema, inboxQuery, inboxRowSchema, noticeFileParams } from '@/domain/notices/notices';
import { audit } from '../../lib/audit';
import type { Storage } from '../../lib/storage/storage';
import { sendStoredFile } from '../files/files.send';
import { inboxFile, inboxNotice, inboxPage, markRead, parentReader } from './notices.service';

/**
 * The app API's notices (`/api/v1/app/notices`, docs/product-rules.md#notices), registered in the signed-in app scope
 * of server/modules/ingest/ingest.routes.ts (which sets `request.appIdentity`): a parent reads the notices a school of
 * one of its children also addressed to parents, within their window. A student's own account reads none here.
 */
const audienceText =
  'Notices a school (K12 or university) published to its staff and also to its students\' parents, shown today (Asia/Shanghai days from `showFrom` to `showUntil`), for the schools of the caller\'s children. Drafts, notices outside their window, staff-only notices and district notices are never listed.';

export const noticeAppRoutes: FastifyPluginAsync<{ storage: Storage }> = async (scope, { storage }) => {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  const security = [{ app: [] }];
  r.get(
    '/notices',
    {
      schema: {
        tags: ['app'],
        summary: "The notices addressed to the parent: pinned first, then the newest window first, each with the caller's read flag",
        description: `${audienceText} \`unread=true\` lists only those the caller has not opened; \`title\` filters by a part of the title.`,
        security,
        querystring: inboxQuery,
        response: { 200: envelope(pageSchema(inboxRowSchema)) },
      },
    },
    async (request) => ok(await inboxPage(scope.db, parentReader(request.appIdentity!), request.query, scope.now())),
  );
  r.get(
    '/notices/:id',
    {
      schema: {
        tags: ['app'],
        summary: 'Open one notice (marks it read, once)',
        description: `${audienceText} The first open is kept as the caller's read receipt (the publisher sees the parents' read count); later opens change nothing. A notice not addressed to the caller answers 404. Attachments and pictures of the text are read from \`/api/v1/app/notices/{id}/files/{fileId}\`.`,
        security,
        params: idParamsSchema,
        response: { 200: envelope(inboxNoticeSchema) },
      },
    },
    async (request) => {
      const reader = parentReader(request.appIdentity!);
      const now = scope.now();
      await scope.db.transaction(async (tx) => {
        const done = await markRead(tx, reader, request.params.id, now);
        // The receipt is audited the first time only, as the console's inbox does.
        if (done.first) {
          const actor = { userId: reader.userId, accountId: null as unknown as string, tenantOrgId: done.orgId };
          await audit(tx, actor, { action: 'read', entity: 'notice', entityId: request.params.id, entityName: done.title, after: { read: true } });
        }
      });
      const { fileIds: _files, ...notice } = await inboxNotice(scope.db, reader, request.params.id, now);
      return ok(notice);
    },
  );
  // A stored file streamed with ranges and ETag, as the console's inbox serves it: the notice is what allows the read.
  r.get(
    '/notices/:id/files/:fileId',
    {
      schema: {
        tags: ['app'],
        summary: 'A file of a notice addressed to the parent (an attachment or a picture of its text)',
        description: 'The bytes, with `Range` and `ETag` support. A file not of that notice, or a notice not addressed to the caller: 404.',
        security,
        params: noticeFileParams,
      },
    },
    async (request, reply) => {
      const file = await inboxFile(scope.db, parentReader(request.appIdentity!), request.params.id, request.params.fileId, scope.now());
      return sendStoredFile(storage, request, reply, file, 'private, no-cache');
    },
  );
};
