import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema as envelope, ok } from '@/domain/api';
import { bandBindingsResultSchema, heartRateBatchResultSchema } from '@/domain/lesson-load/ingest';
import { bandBindingsSchema, heartRateBatchSchema, LATE_WINDOW_MINUTES, SAMPLE_BATCH_MAX } from '@/domain/lesson-load/samples';
import { idParamsSchema } from '@/domain/list-query';
import { ingestHeartRate, lendBands } from './heart-rate.service';

/**
 * The device side of lesson load (docs/product-rules.md#lesson-load), under /api/v1/device beside the lessons' own
 * routes: a hub (or the terminal that opened the lesson) lends bands to the lesson's students, and bands or hubs post
 * heart-rate samples in batches.
 */
export const heartRateDeviceRoutes: FastifyPluginAsync = async (scope) => {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  const security = [{ device: [] }];
  r.post(
    '/lessons/:id/heart-rate',
    {
      schema: {
        tags: ['device'],
        summary: 'Post heart-rate samples of a lesson',
        description:
          `Up to ${SAMPLE_BATCH_MAX} samples (one per band and second is normal: a hub relaying 40 bands can send a minute at once), from a band or hub of the lesson's school, or the terminal that opened it. ` +
          `Each sample names its band's serial number; the band's binding in the lesson (PUT …/bands) tells whose heart it is. Late and out-of-order batches are fine from the lesson's start until ${LATE_WINDOW_MINUTES} minutes after its end; ` +
          'a batch for a closed lesson updates its figures. Resending a batch changes nothing: a sample already stored (same student and second) counts as a duplicate, and a dropped one is reported again but counted once. ' +
          'Dropped and counted, never stored: a heart rate outside 30–230 bpm (`range`), a change faster than 25 bpm/s against the previous sample (`jump`), a time outside the lesson (`window`), a band not lent in the lesson (`unbound`; a band posts only its own samples), a student without the guardian\'s consent (`consent`). ' +
          '`at` is ISO 8601 with its time-zone offset, read to the second; `intensity` is the band\'s activity index 0–100 where it has one.',
        security,
        params: idParamsSchema,
        body: heartRateBatchSchema,
        response: { 200: envelope(heartRateBatchResultSchema) },
      },
    },
    async (request) => ok(await ingestHeartRate(scope.db, request.device!, request.params.id, request.body.samples, scope.now())),
  );
  r.put(
    '/lessons/:id/bands',
    {
      schema: {
        tags: ['device'],
        summary: "Lend bands to a lesson's students",
        description:
          "A hub of the lesson's school, or the terminal that opened the lesson, names each band (serial number, a `band` device of the school) and its student (`studentId` or `regNo`, of the lesson's class). A student given another band wears it instead of the old one; a band lent to another student of the lesson is refused. All or nothing; answers the bindings made.",
        security,
        params: idParamsSchema,
        body: bandBindingsSchema,
        response: { 200: envelope(bandBindingsResultSchema) },
      },
    },
    async (request) => ok(await scope.db.transaction((tx) => lendBands(tx, request.device!, request.params.id, request.body.bindings))),
  );
};
