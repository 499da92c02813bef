import { noticeReadAnswerSchema } from '@/domain/notices/notices';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pageSchema } from '@/domain/api';
import { idParamsSchema } from '@/domain/list-query';
import type { ServedBy } from '@/domain/menus/access';
import {
  inboxNoticeSchema,
  inboxQuery,
  inboxRowSchema,
  noticeDetailSchema,
  noticeFileParams,
  noticeListQuery,
  noticeReceiptsSchema,
  noticeRowSchema,
  noticeSaveSchema,
  noticeSchoolSchema,
  unreadCountSchema,
} from '@/domain/notices/notices';
import { resourceAction, SIGNED_IN } from '../../lib/action';
import { registerResource } from '../../lib/resource';
import type { Storage } from '../../lib/storage/storage';
import { requireActor } from '../../plugins/tenant';
import { sendStoredFile } from '../files/files.send';
import {
  createNotice,
  deleteNotice,
  inboxFile,
  inboxNotice,
  inboxPage,
  markRead,
  noticeById,
  noticePage,
  noticeReceipts,
  noticeSchools,
  staffReader,
  unreadCount,
  updateNotice,
} from './notices.service';

/** The publisher's notices of /api/busi/web/{admin|k12|gx}/system/notice (docs/product-rules.md#notices). */
export const noticeRoutes: FastifyPluginAsync<{ family: ServedBy<'system.notice'> }> = async (app, { family }) => {
  const key = `${family}.system.notice`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'notice',
      list: { query: noticeListQuery, handler: (db, actor, q) => noticePage(db, actor, q, app.now()) },
      get: (db, actor, id) => noticeById(db, actor, id, app.now()),
      create: { body: noticeSaveSchema, handler: (tx, actor, body) => createNotice(tx, actor, body, app.now()) },
      update: { body: noticeSaveSchema, handler: (tx, actor, id, body) => updateNotice(tx, actor, id, body, app.now()) },
      remove: (tx, actor, id) => deleteNotice(tx, actor, id, app.now()),
      response: { row: noticeRowSchema, detail: noticeDetailSchema, saved: noticeDetailSchema },
    },
    (scope) => {
      // Whom a management organisation's notice may reach: the form's school picker.
      resourceAction(scope, { method: 'GET', path: '/schools', access: [key, 'add', [key, 'edit']], answer: noticeSchoolSchema.array(), read: (db, actor) => noticeSchools(db, actor) });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/receipts',
        access: [key, 'detail'],
        params: idParamsSchema,
        answer: noticeReceiptsSchema,
        read: (db, actor, { params }) => noticeReceipts(db, actor, params.id),
      });
    },
  );
};

/**
 * The readers' side under /api/busi/web/myInfo/notices: the notices addressed to the signed-in account's organisation
 * and shown today, the unread count of the header bell, opening one (marks it read once) and its files. No page
 * permission: every signed-in member of staff reads what is addressed to them (docs/product-rules.md#notices).
 */
export const noticeInboxRoutes: FastifyPluginAsync<{ storage: Storage }> = async (app, { storage }) => {
  resourceAction(app, {
    method: 'GET',
    path: '/page',
    access: SIGNED_IN,
    summary: '我的通知公告',
    query: inboxQuery,
    answer: pageSchema(inboxRowSchema),
    read: async (db, me, { query }, { now }) => inboxPage(db, staffReader(await me.actor()), query, now),
  });
  resourceAction(app, {
    method: 'GET',
    path: '/unread-count',
    access: SIGNED_IN,
    summary: '未读通知公告数',
    answer: unreadCountSchema,
    read: async (db, me, _input, { now }) => unreadCount(db, staffReader(await me.actor()), now),
  });
  resourceAction(app, {
    method: 'GET',
    path: '/:id',
    access: SIGNED_IN,
    summary: '通知公告内容',
    params: idParamsSchema,
    answer: inboxNoticeSchema,
    read: async (db, me, { params }, { now }) => {
      const { fileIds: _files, ...notice } = await inboxNotice(db, staffReader(await me.actor()), params.id, now);
      return notice;
    },
  });
  // The receipt: audited the first time only (a later open changes nothing).
  resourceAction(app, {
    method: 'POST',
    path: '/:id/read',
    access: SIGNED_IN,
    summary: '标记通知公告已读',
    params: idParamsSchema,
    entity: 'notice',
    audit: 'read',
    answer: noticeReadAnswerSchema,
    write: async (tx, me, { params }, { now }) => {
      const done = await markRead(tx, staffReader(await me.actor()), params.id, now);
      return { after: { read: true }, audited: done.first };
    },
  });
  // A hand route: a stored file streamed with ranges and ETag (sendStoredFile). Readers are below the publisher, so the
  // file store's own read (the owner and those above it) would refuse them; the notice is what allows the read.
  app.withTypeProvider<ZodTypeProvider>().get('/:id/files/:fileId', { schema: { params: noticeFileParams } }, async (request, reply) => {
    const file = await inboxFile(app.db, staffReader(await requireActor(request)), request.params.id, request.params.fileId, app.now());
    return sendStoredFile(storage, request, reply, file, 'private, no-cache');
  });
};
