import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema as envelope, ok } from '@/domain/api';
import { appChildDataQuery, appChildParams, dataRequestRowSchema, dataRequestSaveSchema } from '@/domain/retention/retention';
import { notFound } from '../../lib/resource';
import { appChildDataFile, appCreateDataRequest, appDataRequests, childData, parentChild } from './data-requests.service';

/**
 * The app API's data-request routes (`/api/v1/app/*`, docs/product-rules.md#retention "Data requests"), registered in
 * the signed-in app scope of server/modules/ingest/ingest.routes.ts: a parent (or a student, for themselves) reads and
 * downloads the child's data; a parent asks for a correction or deletion and follows its state. Another family's child
 * answers 404, as every app read does.
 */
export const dataRequestAppRoutes: FastifyPluginAsync = async (scope) => {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  const security = [{ app: [] }];
  const actsFor = (students: readonly { id: string }[], id: string) => {
    if (!students.some((s) => s.id === id)) throw notFound();
    return id;
  };

  r.get(
    '/children/:studentId/data',
    {
      schema: {
        tags: ['app'],
        summary: "A child's data: personal data, parents, test results, activity records and data requests",
        description: 'What the school holds about the student (个人信息保护法 第四十五条). `?download=1` answers the same as a JSON file (audited). Another family\'s child answers 404.',
        security,
        params: appChildParams,
        querystring: appChildDataQuery,
      },
    },
    async (request, reply) => {
      const identity = request.appIdentity!;
      const id = actsFor(identity.students, request.params.studentId);
      if (request.query.download !== '1') return ok(await childData(scope.db, id));
      const file = await appChildDataFile(scope.db, identity, id, scope.now());
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );

  r.post(
    '/data-requests',
    {
      schema: {
        tags: ['app'],
        summary: "Ask the child's school to correct or delete the child's data",
        description: `\`kind\` correction or deletion, with the parent's text. The school answers within 15 days (\`dueAt\`): done with a note, or refused with a reason; follow it with \`GET /api/v1/app/data-requests\`. Only a parent asks; another family's child answers 404.`,
        security,
        body: dataRequestSaveSchema,
        response: { 200: envelope(dataRequestRowSchema) },
      },
    },
    async (request) => {
      const identity = request.appIdentity!;
      parentChild(identity, request.body.studentId);
      return ok(await scope.db.transaction((tx) => appCreateDataRequest(tx, identity, request.body, scope.now())));
    },
  );

  r.get(
    '/data-requests',
    {
      schema: {
        tags: ['app'],
        summary: "The data requests about the caller's children and their state",
        description: 'Newest first; `status` is pending, done or refused, with the school\'s `note` once handled.',
        security,
        response: { 200: envelope(dataRequestRowSchema.array()) },
      },
    },
    async (request) => {
      const identity = request.appIdentity!;
      return ok(await appDataRequests(scope.db, identity.students.map((s) => s.id), scope.now()));
    },
  );
};
