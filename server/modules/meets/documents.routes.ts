import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { certificateIssueSchema, certificateListQuery, certificateSaveSchema, photoAddSchema, photoCaptionSchema, stampSaveSchema } from '@/domain/meets/documents';
import { idParamsSchema } from '@/domain/list-query';
import { audit } from '../../lib/audit';
import { resourceRoutes, uuidOr404 } from '../../lib/resource';
import type { Storage } from '../../lib/storage/storage';
import { requireAccess, requireActor } from '../../plugins/tenant';
import {
  addPhotos,
  certificateById,
  certificatePage,
  certificatesToIssue,
  createCertificate,
  createStamp,
  deleteCertificate,
  deletePhoto,
  deleteStamp,
  issueOptions,
  photoList,
  setCaption,
  stampList,
  templateForIssue,
  updateCertificate,
} from './documents.service';

/**
 * What a meet leaves behind, under /api/busi/web/{k12|gx}/sportsMeet (docs/product-rules.md#meet-documents):
 * `/stamps` (e-stamps of /single/sportsMeet/eStamp), `/certificates` (templates of /single/sportsMeet/certificate and
 * issuing them as PDF or zip) and `/:id/photos` (style photos of sportsMeet/demeanor/:meetId).
 */
const STAMP = 'single.sportsMeet.eStamp';
const CERTIFICATE = 'single.sportsMeet.certificate';

const photoParams = z.object({ id: z.string().max(64), photoId: z.string().max(64) });

export const meetDocumentRoutes: FastifyPluginAsync<{ family: 'k12' | 'gx'; storage: Storage }> = async (app, { family, storage }) => {
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const MANAGE = `${family}.sportsMeet.manage`;

  // E-stamps: the certificate form picks one, so its add/edit permission also reads them.
  r.get('/sportsMeet/stamps', { preValidation: requireAccess(STAMP, 'view', [CERTIFICATE, 'add'], [CERTIFICATE, 'edit']) }, async (request) => ok(await stampList(app.db, await requireActor(request))));
  r.post('/sportsMeet/stamps', { preValidation: requireAccess(STAMP, 'upload'), schema: { body: stampSaveSchema } }, async (request) => {
    const actor = await requireActor(request);
    const saved = await app.db.transaction(async (tx) => {
      const row = await createStamp(tx, actor, request.body);
      await audit(tx, actor, { action: 'create', entity: 'meetStamp', entityId: row.id, after: row });
      return row;
    });
    return ok(saved, request.t(OK_MSG.saved));
  });
  r.delete('/sportsMeet/stamps/:id', { preValidation: requireAccess(STAMP, 'delete'), schema: { params: idParamsSchema } }, async (request) => {
    const actor = await requireActor(request);
    const id = uuidOr404(request.params.id);
    await app.db.transaction(async (tx) => {
      const before = await deleteStamp(tx, actor, id, app.now());
      await audit(tx, actor, { action: 'delete', entity: 'meetStamp', entityId: id, before });
    });
    return ok(null, request.t(OK_MSG.deleted));
  });

  // Certificate templates, and issuing one for a meet's published places.
  await app.register(
    async (scope) => {
      resourceRoutes(scope, {
        key: CERTIFICATE,
        entity: 'meetCertificate',
        list: { query: certificateListQuery, handler: certificatePage },
        get: certificateById,
        create: { body: certificateSaveSchema, handler: createCertificate },
        update: { body: certificateSaveSchema, handler: updateCertificate },
        remove: deleteCertificate,
      });
      const s = scope.withTypeProvider<ZodTypeProvider>();
      s.get('/issue/options', { preValidation: requireAccess(CERTIFICATE, 'issue') }, async (request) => ok(await issueOptions(app.db, await requireActor(request))));
      // Issuing answers the certificates as a file: it takes the page's `download` button as well as `issue`.
      s.post('/:id/issue', { preValidation: [requireAccess(CERTIFICATE, 'issue'), requireAccess(CERTIFICATE, 'download')], schema: { params: idParamsSchema, body: certificateIssueSchema } }, async (request, reply) => {
        const actor = await requireActor(request);
        const id = uuidOr404(request.params.id);
        const body = request.body;
        const { template, images } = await templateForIssue(app.db, storage, actor, id);
        const t = request.t;
        const issued = await certificatesToIssue(app.db, actor, body, {
          place: (place) => t('meets:certificate.placeText', { place }),
          mark: (kind, mark) => t(`meets:certificate.markText.${kind}`, { mark }),
          date: (date) => t('meets:certificate.dateText', { year: date.slice(0, 4), month: Number(date.slice(5, 7)), day: Number(date.slice(8, 10)) }),
        });
        // pdf-lib and fontkit load with the first certificate, not at start-up (≈ 1 s).
        const { certificateFileNames, certificatesPdf, certificatesZip } = await import('./certificate-pdf');
        const pdf = await certificatesPdf(template, images, issued.map((c) => c.values));
        await audit(app.db, actor, { action: 'issue', entity: 'meetCertificate', entityId: id, after: { ...body, count: issued.length } });
        const meetName = issued[0].values.meet;
        let bytes: Uint8Array;
        let name: string;
        if (body.format === 'zip') {
          const header = ['file', 'name', 'className', 'event', 'place', 'mark'].map((k) => t(`meets:certificate.index.${k}`));
          const names = certificateFileNames(issued.map((c) => ({ event: c.values.event, place: c.place, name: c.values.name })));
          const files = issued.map((c, i) => ({ fileName: names[i], row: [c.values.name, c.values.className, c.values.event, c.values.place, c.values.mark] }));
          bytes = await certificatesZip(pdf, files, header);
          name = t('meets:certificate.fileName', { meet: meetName, ext: 'zip' });
          reply.type('application/zip');
        } else {
          bytes = pdf;
          name = t('meets:certificate.fileName', { meet: meetName, ext: 'pdf' });
          reply.type('application/pdf');
        }
        return reply
          .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`)
          .header('cache-control', 'no-store')
          .send(Buffer.from(bytes));
      });
    },
    { prefix: '/sportsMeet/certificates' },
  );

  // Style photos of a meet (sportsMeet/demeanor/:meetId).
  const DEMEANOR = requireAccess(MANAGE, 'demeanor');
  r.get('/sportsMeet/:id/photos', { preValidation: DEMEANOR, schema: { params: idParamsSchema } }, async (request) => ok(await photoList(app.db, await requireActor(request), uuidOr404(request.params.id))));
  r.post('/sportsMeet/:id/photos', { preValidation: DEMEANOR, schema: { params: idParamsSchema, body: photoAddSchema } }, async (request) => {
    const actor = await requireActor(request);
    const meetId = uuidOr404(request.params.id);
    const added = await app.db.transaction(async (tx) => {
      const rows = await addPhotos(tx, actor, meetId, request.body.fileIds, app.now());
      await audit(tx, actor, { action: 'addPhotos', entity: 'meet', entityId: meetId, after: rows.map((p) => p.fileId) });
      return rows;
    });
    return ok(added, request.t(OK_MSG.saved));
  });
  r.put('/sportsMeet/:id/photos/:photoId', { preValidation: DEMEANOR, schema: { params: photoParams, body: photoCaptionSchema } }, async (request) => {
    const actor = await requireActor(request);
    const meetId = uuidOr404(request.params.id);
    const photoId = uuidOr404(request.params.photoId);
    const after = await app.db.transaction(async (tx) => {
      const change = await setCaption(tx, actor, meetId, photoId, request.body);
      await audit(tx, actor, { action: 'caption', entity: 'meetPhoto', entityId: photoId, before: change.before, after: change.after });
      return change.after;
    });
    return ok(after, request.t(OK_MSG.saved));
  });
  r.delete('/sportsMeet/:id/photos/:photoId', { preValidation: DEMEANOR, schema: { params: photoParams } }, async (request) => {
    const actor = await requireActor(request);
    const meetId = uuidOr404(request.params.id);
    const photoId = uuidOr404(request.params.photoId);
    await app.db.transaction(async (tx) => {
      const change = await deletePhoto(tx, actor, meetId, photoId, app.now());
      await audit(tx, actor, { action: 'delete', entity: 'meetPhoto', entityId: photoId, before: change.before });
    });
    return ok(null, request.t(OK_MSG.deleted));
  });
};
