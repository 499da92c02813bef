import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema as envelope, ok } from '@/domain/api';
import { ERR } from '@/domain/errors';
import { appExemptionQuery, appExemptionRowSchema, appExemptionSaveSchema, CERTIFICATE_MIMES, CERTIFICATE_PURPOSE } from '@/domain/exemptions/exemptions';
import { SNIFF_BYTES, SNIFFED_MIME, sniffFileType } from '@/domain/uploads/signatures';
import { SINGLE_REQUEST_MAX } from '@/domain/uploads/rules';
import type { AppIdentity } from '@/domain/activities/ingest';
import { AppError } from '../../lib/app-error';
import { notFound } from '../../lib/resource';
import type { Storage } from '../../lib/storage/storage';
import { saveUpload } from '../files/files.service';
import { appCreateExemption, appExemptions } from './exemptions.service';

/**
 * The app API's exemption routes (`/api/v1/app/*`, docs/product-rules.md#physique-year "Exemptions"), registered in
 * the signed-in app scope of server/modules/ingest/ingest.routes.ts (which sets `request.appIdentity`): a parent
 * uploads a medical certificate, requests 免测/缓测 for one of their own children and reads their children's requests.
 * Another family's child answers 404, as every app read does.
 */

/** The children the caller is a parent of (a student's own account is not a parent of itself). */
const childrenOf = (identity: AppIdentity) => identity.students.filter((s) => s.relation !== null);
function childOf(identity: AppIdentity, studentId: string | undefined) {
  const kids = childrenOf(identity);
  const id = studentId ?? (kids.length === 1 ? kids[0].id : undefined);
  const child = kids.find((s) => s.id === id);
  if (!child) throw notFound();
  return child;
}

export const exemptionAppRoutes: FastifyPluginAsync<{ storage: Storage }> = async (scope, { storage }) => {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  const security = [{ app: [] }];
  await scope.register(multipart, { limits: { fileSize: SINGLE_REQUEST_MAX, files: 1, fields: 3, parts: 4 } });

  r.post(
    '/exemption-certificates',
    {
      schema: {
        tags: ['app'],
        summary: 'Upload a medical certificate for an exemption request',
        description:
          'multipart/form-data with one `file` (a photo or scan as PNG or JPEG, or a PDF; judged by content, at most 50 MB) and, for a parent of several children, `studentId` (the child the certificate is for). Answers the stored file; its `id` goes into `certificateFileId` of `POST /api/v1/app/exemptions`. Another family\'s child answers 404.',
        security,
      },
    },
    async (request) => {
      const identity = request.appIdentity!;
      if (!request.isMultipart()) throw new AppError(400, ERR.badRequest);
      const part = await request.file().catch(() => undefined);
      if (!part) throw new AppError(400, ERR.badRequest);
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(400, ERR.fileTooLarge);
        throw error;
      }
      const field = part.fields.studentId as { value?: unknown } | undefined;
      const child = childOf(identity, typeof field?.value === 'string' && field.value ? field.value : undefined);
      // The file store's purpose takes more formats than a certificate may be: refused before anything is stored.
      if (!CERTIFICATE_MIMES.includes(SNIFFED_MIME[sniffFileType(bytes.subarray(0, SNIFF_BYTES))])) throw new AppError(400, 'exemptions:certificateType');
      return ok(await saveUpload(scope.db, storage, { orgId: child.orgId, userId: identity.userId }, CERTIFICATE_PURPOSE, part.filename, bytes, scope.now()));
    },
  );

  r.post(
    '/exemptions',
    {
      schema: {
        tags: ['app'],
        summary: "Request 免测 (exempt) or 缓测 (deferred) for one of the parent's children",
        description:
          "For the child's current school year, with the reason and, optionally, a certificate uploaded first (`POST /api/v1/app/exemption-certificates`). The school approves or refuses it; follow it with `GET /api/v1/app/exemptions`. One open or approved request per child and year (409 otherwise); a refused one may be asked again. Another family's child answers 404.",
        security,
        body: appExemptionSaveSchema,
        response: { 200: envelope(appExemptionRowSchema) },
      },
    },
    async (request) => {
      const identity = request.appIdentity!;
      childOf(identity, request.body.studentId);
      return ok(await scope.db.transaction((tx) => appCreateExemption(tx, identity, request.body, scope.now())));
    },
  );

  r.get(
    '/exemptions',
    {
      schema: {
        tags: ['app'],
        summary: "The exemption requests of the caller's children and their status",
        description: 'Newest first; `studentId` narrows to one child (another family\'s child answers 404). `status` is pending, approved or refused; a decided request carries `decidedAt` and the school\'s `decisionNote`.',
        security,
        querystring: appExemptionQuery,
        response: { 200: envelope(appExemptionRowSchema.array()) },
      },
    },
    async (request) => {
      const identity = request.appIdentity!;
      const ids = request.query.studentId ? [childOrSelf(identity, request.query.studentId)] : identity.students.map((s) => s.id);
      return ok(await appExemptions(scope.db, ids));
    },
  );
};

/** A read may name any student the caller acts for (a child, or a student's own account). */
function childOrSelf(identity: AppIdentity, studentId: string): string {
  if (!identity.students.some((s) => s.id === studentId)) throw notFound();
  return studentId;
}
