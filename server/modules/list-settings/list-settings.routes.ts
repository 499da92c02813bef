import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listKeyBodySchema, listSettingsAnswerSchema, listSettingsEntrySchema, saveListSettingsSchema } from '@/domain/list-settings/list-settings';
import { resourceAction, SIGNED_IN } from '../../lib/action';
import { resetSettings, saveSettings, settingsOf } from './list-settings.service';

/**
 * /api/busi/web/listSettings: the signed-in user's column settings of the console's lists (hidden, order, pinned,
 * density; docs/decisions/049-list-settings-on-the-server.md). The caller's own data, no catalogue page: a user only
 * ever reads and writes their own rows (the session's user id, never one from the request). A preference, not an
 * operation of the organisation, so no operation-log row (as the personal centre's profile).
 */
export const listSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  resourceAction(app, {
    method: 'GET',
    path: '/',
    access: SIGNED_IN,
    summary: '我的列表设置',
    // The user's own last save, perhaps a moment ago from this browser: the primary.
    reads: 'primary',
    answer: listSettingsAnswerSchema,
    read: (db, me) => settingsOf(db, me.userId),
  });
  resourceAction(app, {
    method: 'POST',
    path: '/save',
    access: SIGNED_IN,
    summary: '保存列表设置',
    body: saveListSettingsSchema,
    entity: 'user',
    audit: 'update',
    message: null,
    answer: listSettingsEntrySchema,
    write: async (tx, me, { body }, { now }) => ({ after: await saveSettings(tx, me.userId, body.listKey, body.settings, now), audited: false }),
  });
  resourceAction(app, {
    method: 'POST',
    path: '/reset',
    access: SIGNED_IN,
    summary: '恢复列表默认设置',
    body: listKeyBodySchema,
    entity: 'user',
    audit: 'update',
    message: null,
    answers: 'nothing',
    write: async (tx, me, { body }) => {
      await resetSettings(tx, me.userId, body.listKey);
      return { after: null, audited: false };
    },
  });
};
