import { messagesReadAnswerSchema } from '@/domain/messages/messages';
import type { FastifyPluginAsync } from 'fastify';
import { pageSchema } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { messageListQuery, messageReadSchema, messageRowSchema, todoSummarySchema } from '@/domain/messages/messages';
import { resourceAction, SIGNED_IN } from '../../lib/action';
import { markMessagesRead, messagePage } from './messages.service';
import { todoSummary } from './todos.service';

/**
 * The personal centre's messages (/api/busi/web/myInfo/messages) and the to-dos (/api/busi/web/todos)
 * (docs/product-rules.md#to-dos-and-messages): the caller's own, behind no catalogue page (the personal centre is
 * always allowed); each to-do is computed only for a page the role may open.
 */
export const messageRoutes: FastifyPluginAsync = async (app) => {
  resourceAction(app, {
    method: 'GET',
    path: '/myInfo/messages/page',
    access: SIGNED_IN,
    summary: '我的消息',
    // The job worker writes messages, not the caller: the caller's read-your-writes cookie does not cover them.
    reads: 'primary',
    query: messageListQuery,
    answer: pageSchema(messageRowSchema),
    read: (db, me, { query }, { t }) => messagePage(db, me.userId, query, (key, params) => t(key, params ?? {})),
  });
  // Read or unread is the reader's own view of their messages, like the role in use: no operation-log row.
  resourceAction(app, {
    method: 'POST',
    path: '/myInfo/messages/read',
    access: SIGNED_IN,
    summary: '标记消息已读',
    body: messageReadSchema,
    entity: 'user',
    audit: 'update',
    message: OK_MSG.operation,
    answer: messagesReadAnswerSchema,
    write: async (tx, me, { body }, { now }) => {
      const count = await markMessagesRead(tx, me.userId, body, now);
      return { after: { count }, audited: false };
    },
  });
  resourceAction(app, {
    method: 'GET',
    path: '/todos',
    access: SIGNED_IN,
    summary: '我的待办',
    reads: 'primary',
    answer: todoSummarySchema,
    read: async (db, me, _input, { now }) => todoSummary(db, await me.actor(), now),
  });
};
