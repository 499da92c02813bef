import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { emptySchema, envelopeSchema as envelope, ok } from '@/domain/api';
import { createdIdSchema } from '@/domain/activities/ingest';
import { lessonCloseSchema, lessonOpenSchema } from '@/domain/lessons/lessons';
import { idParamsSchema } from '@/domain/list-query';
import { closeLesson, openLesson } from './lessons.service';

/**
 * The device side of PE lessons (docs/product-rules.md#lessons), under /api/v1/device: open a lesson, post its values as
 * records of kind `lesson` with `refId` = the lesson's id (POST /records), close it.
 */
export const lessonDeviceRoutes: FastifyPluginAsync = async (scope) => {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  const security = [{ device: [] }];
  r.post(
    '/lessons',
    {
      schema: {
        tags: ['device'],
        summary: 'Open a PE lesson (practice, test or match)',
        description: 'Opening again with the same `clientId` answers the same lesson. A match names its teams (2–4) of students of the class.',
        security,
        body: lessonOpenSchema,
        response: { 200: envelope(createdIdSchema) },
      },
    },
    async (request) => ok(await scope.db.transaction((tx) => openLesson(tx, request.device!, request.body))),
  );
  r.post(
    '/lessons/:id/close',
    {
      schema: {
        tags: ['device'],
        summary: 'Close a lesson',
        description: 'Records measured before the end still arrive afterwards (offline devices); nothing measured after it is accepted.',
        security,
        params: idParamsSchema,
        body: lessonCloseSchema,
        response: { 200: envelope(emptySchema) },
      },
    },
    async (request) => {
      await scope.db.transaction((tx) => closeLesson(tx, request.device!, request.params.id, request.body));
      return ok(null);
    },
  );
};
