import { exportRequestCreatedSchema } from '@/domain/data-access/data-access';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@/domain/list-query';
import type { Family } from '@/domain/menus/access';
import { pageAccess } from '@/domain/menus/access';
import {
  exportDecisionSchema,
  exportRequestCreateSchema,
  exportRequestPageSchema,
  exportRequestQuery,
  sensitiveLogPageSchema,
  sensitiveLogQuery,
  watermarkSchema,
} from '@/domain/data-access/data-access';
import { OK_MSG } from '@/domain/errors';
import { eq } from 'drizzle-orm';
import { resourceAction, SIGNED_IN } from '../../lib/action';
import { registerLogList } from '../../lib/log-list';
import { relativeApi } from '../../lib/resource';
import { uuidOr404 } from '../../lib/resource';
import { asIs, fileAnswerSchema } from '../../lib/openapi';
import { users } from '../../db/schema/auth';
import { requireActor, type Actor } from '../../plugins/tenant';
import { readSecuritySettings } from '../security/settings.service';
import { createExportRequest, decideExportRequest, exportRequestPage, sensitiveLogPage, sensitiveLogRows, takeDownload } from './data-access.service';

const VIA_KEYS = { list: 'dataAccess:sensitiveLog.via.list', form: 'dataAccess:sensitiveLog.via.form', export: 'dataAccess:sensitiveLog.via.export' } as const;

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/**
 * The list of export requests and the download of an approved one, for the family's approvals page and for the
 * personal centre's 我的导出 (the same service: the caller's own rows unless `seesAll`).
 */
function ownRequestRoutes(r: ZodApp, app: ZodApp, seesAll: (actor: Actor) => boolean): void {
  resourceAction(r, {
    method: 'GET',
    path: '/page',
    access: SIGNED_IN,
    summary: '导出审批 · 列表（本人的申请；有审批权限时本单位的全部）',
    query: exportRequestQuery,
    reads: 'primary',
    read: async (db, who, { query }, { now }) => {
      const actor = await who.actor();
      return exportRequestPage(db, actor, query, seesAll(actor), now);
    },
    answer: exportRequestPageSchema,
  });
  // The approved file, built now from the kept query by the export's own read; every download logged.
  r.get(
    '/:id/download',
    { serializerCompiler: asIs, schema: { summary: '导出审批 · 下载已批准的导出', security: [{ session: [] }], params: idParamsSchema, response: fileAnswerSchema() } },
    async (request, reply) => {
      const actor = await requireActor(request);
      const { entry, kept } = await takeDownload(app.db, actor, uuidOr404(request.params.id), app.now());
      await entry.run(request, reply, actor, kept);
      return reply;
    },
  );
}

/** /myInfo/exports: 我的导出, the caller's own export requests whatever their role (docs/product-rules.md#personal-data-access). */
export const myExportsRoutes: FastifyPluginAsyncZod = async (app) => {
  ownRequestRoutes(app, app, () => false);
};

/**
 * The log of unmasked views and the export approvals of a family (docs/product-rules.md#personal-data-access), under
 * their catalogue pages' API paths, and the watermark's settings for the signed-in viewer.
 */
export const dataAccessRoutes: FastifyPluginAsyncZod<{ family: Family }> = async (app, { family }) => {
  const logKey = `${family}.system.sensitiveLog`;
  const approvalKey = `${family}.system.exportApproval`;

  await registerLogList(app, family, {
    key: logKey,
    query: sensitiveLogQuery,
    answer: sensitiveLogPageSchema,
    page: sensitiveLogPage,
    rows: sensitiveLogRows,
    sheet: (rows, t) => ({
      name: t('dataAccess:sensitiveLog.sheetName'),
      columns: [
        { header: t('dataAccess:sensitiveLog.columns.at'), list: 'at', width: 20 },
        { header: t('dataAccess:sensitiveLog.columns.viewer'), list: 'viewer', width: 16 },
        { header: t('dataAccess:sensitiveLog.columns.account'), list: 'viewer', width: 16 },
        { header: t('dataAccess:sensitiveLog.columns.screen'), list: 'screen', width: 24 },
        { header: t('dataAccess:sensitiveLog.columns.via'), list: 'via', width: 10 },
        { header: t('dataAccess:sensitiveLog.columns.people'), list: 'people', width: 60 },
        { header: t('dataAccess:sensitiveLog.columns.count'), list: 'people', width: 10 },
      ],
      rows: rows.map((r) => [r.at, r.userName, r.accountNum, r.screen, t(VIA_KEYS[r.via]), r.people.map((p) => p.name).join('、'), r.peopleCount]),
    }),
    fileName: 'dataAccess:sensitiveLog.sheetName',
  });

  const approval: FastifyPluginAsyncZod = async (r) => {
    // Any signed-in caller sees their own requests; the page's `audit` button sees the organisation's.
    ownRequestRoutes(r, app, (actor) => {
      const audit = pageAccess(approvalKey).buttons.audit;
      return audit !== undefined && actor.permissions.has(audit);
    });
    // A request of an export the list refused as too large: any caller who may export that page.
    resourceAction(r, {
      method: 'POST',
      path: '/',
      access: SIGNED_IN,
      summary: '导出审批 · 申请导出',
      body: exportRequestCreateSchema,
      entity: 'exportRequest',
      audit: 'create',
      message: 'dataAccess:exportApproval.requested',
      answer: exportRequestCreatedSchema,
      write: async (tx, who, { body }, { now }) => {
        const row = await createExportRequest(tx, app.db, await who.actor(), family, body, now);
        return { after: row, entityId: row.id };
      },
    });
    resourceAction(r, {
      method: 'POST',
      path: '/:id/decide',
      access: [approvalKey, 'audit'],
      params: idParamsSchema,
      body: exportDecisionSchema,
      entity: 'exportRequest',
      audit: 'decide',
      message: OK_MSG.operation,
      answers: 'nothing',
      write: (tx, actor, { params, body }, { now }) => decideExportRequest(tx, actor, params.id, body, now),
    });
  };

  await app.register(approval, { prefix: relativeApi(approvalKey, family) });

  // The watermark over personal data: the organisation's setting and who is looking.
  resourceAction(app, {
    method: 'GET',
    path: '/data-access/watermark',
    access: SIGNED_IN,
    summary: '水印 · 当前用户与单位设置',
    reads: 'primary',
    read: async (db, who) => {
      const actor = await who.actor();
      const [{ watermark }, [me]] = await Promise.all([
        readSecuritySettings(db, actor.tenantOrgId),
        db.select({ name: users.name, account: users.accountNum }).from(users).where(eq(users.id, actor.userId)).limit(1),
      ]);
      return { on: watermark, name: me?.name ?? '', account: me?.account ?? '' };
    },
    answer: watermarkSchema,
  });
};
