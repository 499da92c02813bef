import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { ok } from '@/domain/api';
import { OK_MSG } from '@/domain/errors';
import { certificateIssueSchema, type CertificateIssue, certificateListQuery, certificateSaveSchema, photoAddSchema, photoCaptionSchema, stampSaveSchema } from '@/domain/meets/documents';
import { idParamsSchema } from '@/domain/list-query';
import { audit } from '../../lib/audit';
import type { JobHandler } from '../../lib/jobs';
import { resourceRoutes, uuidOr404 } from '../../lib/resource';
import type { Storage } from '../../lib/storage/storage';
import { requireAccess, requireActor } from '../../plugins/tenant';
import { saveUpload } from '../files/files.service';
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
import type { SchoolFamily } from '@/domain/menus/access';

/**
 * What a meet leaves behind, under /api/busi/web/{k12|gx}/sportsMeet (docs/product-rules.md#meet-documents):
 * `/stamps` (e-stamps of /single/sportsMeet/eStamp), `/certificates` (templates of /single/sportsMeet/certificate and
 * issuing them as PDF or zip) and `/:id/photos` (style photos of sportsMeet/demeanor/:meetId).
 */
const STAMP = 'single.sportsMeet.eStamp';
const CERTIFICATE = 'single.sportsMeet.certificate';

/** The texts a certificate prints, in the starter's language. */
const issueTexts = (t: TFunction) => ({
  place: (place: number) => t('meets:certificate.placeText', { place }),
  mark: (kind: string, mark: string) => t(`meets:certificate.markText.${kind}`, { mark }),
  date: (date: string) => t('meets:certificate.dateText', { year: date.slice(0, 4), month: Number(date.slice(5, 7)), day: Number(date.slice(8, 10)) }),
});

/**
 * The certificates job: the PDF (a page per published place) or the zip (a PDF per athlete and an index), stored in the
 * file store and recorded with the audit entry and the job's `done` in one transaction.
 */
function certificateJob(storage: Storage): JobHandler<{ templateId: string; body: CertificateIssue }> {
  return async ({ db, actor, input, t, now, progress, finish }) => {
    const { templateId, body } = input;
    await progress(0, 0, 'jobs:stage.reading');
    const { template, images } = await templateForIssue(db, storage, actor, templateId);
    const issued = await certificatesToIssue(db, actor, body, issueTexts(t));
    const zip = body.format === 'zip';
    // Pages, then (for a zip) one file per page: the bar runs over both.
    const steps = issued.length * (zip ? 2 : 1);
    // pdf-lib and fontkit load with the first certificate, not at start-up (≈ 1 s).
    const { certificateFileNames, certificatesPdf, certificatesZip } = await import('./certificate-pdf');
    const pdf = await certificatesPdf(template, images, issued.map((c) => c.values), (done) => progress(done, steps, 'jobs:stage.drawing'));
    const meetName = issued[0].values.meet;
    let bytes: Buffer;
    let name: string;
    if (zip) {
      const header = ['file', 'name', 'className', 'event', 'place', 'mark'].map((k) => t(`meets:certificate.index.${k}`));
      const names = certificateFileNames(issued.map((c) => ({ event: c.values.event, place: c.place, name: c.values.name })));
      const files = issued.map((c, i) => ({ fileName: names[i], row: [c.values.name, c.values.className, c.values.event, c.values.place, c.values.mark] }));
      bytes = await certificatesZip(pdf, files, header, (done) => progress(issued.length + done, steps, 'jobs:stage.packing'));
      name = t('meets:certificate.fileName', { meet: meetName, ext: 'zip' });
    } else {
      bytes = Buffer.from(pdf);
      name = t('meets:certificate.fileName', { meet: meetName, ext: 'pdf' });
    }
    await progress(steps, steps, 'jobs:stage.saving');
    await finish(async (tx) => {
      const file = await saveUpload(tx, storage, { orgId: actor.tenantOrgId, userId: actor.userId }, 'attachment', name, bytes, now());
      await audit(tx, actor, { action: 'issue', entity: 'meetCertificate', entityId: templateId, after: { ...body, count: issued.length, fileId: file.id } });
      return { fileId: file.id, fileName: file.name, counts: { certificates: issued.length }, messageKey: 'jobs:result.certificates', messageParams: { count: issued.length } };
    });
  };
}

const photoParams = z.object({ id: z.string().max(64), photoId: z.string().max(64) });

export const meetDocumentRoutes: FastifyPluginAsync<{ family: SchoolFamily; storage: Storage }> = async (app, { family, storage }) => {
  // One kind for both families (the template and meet are the actor's organisation's either way).
  app.jobs.define('certificates', certificateJob(storage));
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
      // Issuing is a job (docs/product-rules.md#jobs): checked here so a bad request answers at once, drawn by a worker
      // with its progress shown; its file downloads from the job. It takes the page's `download` button as well as `issue`.
      s.post('/:id/issue', { preValidation: [requireAccess(CERTIFICATE, 'issue'), requireAccess(CERTIFICATE, 'download')], schema: { params: idParamsSchema, body: certificateIssueSchema } }, async (request) => {
        const actor = await requireActor(request);
        const id = uuidOr404(request.params.id);
        await certificateById(app.db, actor, id);
        await certificatesToIssue(app.db, actor, request.body, issueTexts(request.t));
        const jobId = await app.jobs.enqueue('certificates', actor, { templateId: id, body: request.body }, request.locale);
        return ok({ id: jobId });
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
