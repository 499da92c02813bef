import type { FastifyPluginAsync } from 'fastify';
import type { ServedBy } from '@/domain/menus/access';
import { idParamsSchema, idParamsWith } from '@/domain/list-query';
import { alertAcknowledgeSchema, alertViewSchema, liveViewSchema, monitorBandsSchema, monitorBandsViewSchema, monitorListQuery, monitorRowSchema } from '@/domain/lesson-load/monitor';
import { resourceAction } from '../../lib/action';
import { registerResource } from '../../lib/resource';
import { acknowledgeAlert, lendBands, liveView, monitorBands, monitorLesson, monitorPage } from './monitor.service';

/**
 * class/monitor (docs/product-rules.md#lesson-load): the lessons in progress, the live view of one (polled, decision
 * 048; each read raises the lesson's due alerts, so it runs on the primary), lending bands (edit) and acknowledging an
 * alert (acknowledge), both audited on the lesson.
 */
export const monitorRoutes: FastifyPluginAsync<{ family: ServedBy<'class.monitor'> }> = async (app, { family }) => {
  const key = `${family}.class.monitor`;
  await registerResource(
    app,
    family,
    {
      key,
      entity: 'lesson',
      list: { query: monitorListQuery, handler: (db, actor, q) => monitorPage(db, actor, q, app.now()) },
      get: monitorLesson,
      response: { row: monitorRowSchema, detail: monitorRowSchema },
    },
    (scope) => {
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/live',
        access: [key, 'view'],
        params: idParamsSchema,
        reads: 'primary',
        read: (db, actor, { params }, { now }) => liveView(db, actor, params.id, now),
        answer: liveViewSchema,
        summary: '实时数据（学生心率、班级负荷、预警）',
      });
      resourceAction(scope, {
        method: 'GET',
        path: '/:id/bands',
        access: [key, 'edit'],
        params: idParamsSchema,
        read: (db, actor, { params }) => monitorBands(db, actor, params.id),
        answer: monitorBandsViewSchema,
        summary: '手环借用（名单与手环）',
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/bands',
        access: [key, 'edit'],
        params: idParamsSchema,
        body: monitorBandsSchema,
        entity: 'lesson',
        audit: 'lendBands',
        write: (tx, actor, { params, body }) => lendBands(tx, actor, params.id, body),
        answer: monitorBandsViewSchema,
        summary: '借出手环',
      });
      resourceAction(scope, {
        method: 'PUT',
        path: '/:id/alerts/:alertId/acknowledge',
        access: [key, 'acknowledge'],
        params: idParamsWith('alertId'),
        body: alertAcknowledgeSchema,
        entity: 'lesson',
        audit: 'acknowledge',
        write: (tx, actor, { params, body }, { now }) => acknowledgeAlert(tx, actor, params.id, params.alertId, body, now),
        answers: 'nothing',
        answer: alertViewSchema.nullable(),
      });
    },
  );
};
