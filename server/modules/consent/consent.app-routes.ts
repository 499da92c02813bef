import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema as envelope, ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { appConsentParams, appConsentSaveSchema, appConsentSchema } from '@/domain/consent/consent';
import { appConsents, appSetConsent } from './consent.service';

/**
 * The app API's consent routes (`/api/v1/app/consents`, docs/product-rules.md#consent), registered in the signed-in
 * app scope of server/modules/ingest/ingest.routes.ts (which sets `request.appIdentity`): a parent reads each child's
 * consents and gives or withdraws one purpose. Another family's child answers 404.
 */
/** What each purpose lets the school do (the OpenAPI description; the purposes are src/domain/consent CONSENT_PURPOSES). */
const consentPurposesText =
  'Purposes: `facePhoto` (a face photo stored), `video` (homework and training videos), `heartRate` (heart-rate and wearable samples), `publicName` (the full name on public boards and wall links; without it: surname + * and class), `appAccount` (an app account for the child). A purpose never recorded has status `none`, which the features treat as not given.';

export const consentAppRoutes: FastifyPluginAsync = async (scope) => {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  const security = [{ app: [] }];
  r.get(
    '/consents',
    { schema: { tags: ['app'], summary: "The parent's children and each one's consent per purpose", description: consentPurposesText, security, response: { 200: envelope(appConsentSchema.array()) } } },
    async (request) => ok(await appConsents(scope.db, request.appIdentity!)),
  );
  r.put(
    '/consents/:studentId/:purpose',
    {
      schema: {
        tags: ['app'],
        summary: 'Give or withdraw one purpose for one of the parent\'s children',
        description: `${consentPurposesText} The change is kept with who and when; a withdrawal applies from the next request on.`,
        security,
        params: appConsentParams,
        body: appConsentSaveSchema,
        response: { 200: envelope(appConsentSchema) },
      },
    },
    async (request) => {
      const { studentId, purpose } = request.params;
      const answer = await scope.db.transaction((tx) => appSetConsent(tx, request.appIdentity!, studentId, purpose, request.body.state, scope.now()));
      return ok(answer, request.t(OK_MSG.operation));
    },
  );
};
