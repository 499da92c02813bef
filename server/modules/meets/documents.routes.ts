import type { FastifyPluginAsync } from 'fastify';
import type { TFunction } from 'i18next';
import {
  certificateIssueSchema,
  type CertificateIssue,
  certificateListQuery,
  certificateRowSchema,
  certificateSaveSchema,
  issueJobSchema,
  issueOptionsSchema,
  photoAddSchema,
  photoCaptionSchema,
  photoListSchema,
  photoSavedSchema,
  stampListSchema,
  stampRowSchema,
  stampSaveSchema,
} from '@/domain/meets/documents';
import { idParamsSchema, idParamsWith } from '@/domain/list-query';
import { audit } from '../../lib/audit';
import type { JobHandler } from '../../lib/jobs';
import { resourceAction, type Access } from '../../lib/action';
import { resourceRoutes } from '../../lib/resource';
import type { Storage } from '../../lib/storage/storage';
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

export const meetDocumentRoutes: FastifyPluginAsync<{ family: SchoolFamily; storage: Storage }> = async (app, { family, storage }) => {
  // One kind for both families (the template and meet are the actor's organisation's either way).
  app.jobs.define('certificates', certificateJob(storage));
  const MANAGE = `${family}.sportsMeet.manage`;

  // E-stamps: the certificate form picks one, so its add/edit permission also reads them.
  resourceAction(app, { method: 'GET', path: '/sportsMeet/stamps', access: [STAMP, 'view', [CERTIFICATE, 'add'], [CERTIFICATE, 'edit']], answer: stampListSchema, read: stampList });
  resourceAction(app, {
    method: 'POST',
    path: '/sportsMeet/stamps',
    access: [STAMP, 'upload'],
    body: stampSaveSchema,
    entity: 'meetStamp',
    audit: 'create',
    answer: stampRowSchema,
    write: async (tx, actor, { body }) => {
      const row = await createStamp(tx, actor, body);
      return { after: row, entityId: row.id };
    },
  });
  resourceAction(app, {
    method: 'DELETE',
    path: '/sportsMeet/stamps/:id',
    access: [STAMP, 'delete'],
    params: idParamsSchema,
    entity: 'meetStamp',
    audit: 'delete',
    answers: 'nothing',
    write: async (tx, actor, { params }) => ({ before: await deleteStamp(tx, actor, params.id, app.now()), after: undefined }),
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
        response: { row: certificateRowSchema, detail: certificateRowSchema, saved: certificateRowSchema },
      });
      resourceAction(scope, { method: 'GET', path: '/issue/options', access: [CERTIFICATE, 'issue'], answer: issueOptionsSchema, read: issueOptions });
      // Issuing is a job (docs/product-rules.md#jobs): checked here so a bad request answers at once, drawn by a worker
      // with its progress shown; its file downloads from the job. It takes the page's `download` button as well as `issue`.
      // The job audits what it issues.
      resourceAction(scope, {
        method: 'POST',
        path: '/:id/issue',
        access: [
          [CERTIFICATE, 'issue'],
          [CERTIFICATE, 'download'],
        ],
        params: idParamsSchema,
        body: certificateIssueSchema,
        answer: issueJobSchema,
        enqueue: async (db, actor, { params, body }, { t, locale }) => {
          await certificateById(db, actor, params.id);
          await certificatesToIssue(db, actor, body, issueTexts(t));
          return app.jobs.enqueue('certificates', actor, { templateId: params.id, body }, locale);
        },
      });
    },
    { prefix: '/sportsMeet/certificates' },
  );

  // Style photos of a meet (sportsMeet/demeanor/:meetId).
  const DEMEANOR: Access = [MANAGE, 'demeanor'];
  const photoParams = idParamsWith('photoId');
  resourceAction(app, { method: 'GET', path: '/sportsMeet/:id/photos', access: DEMEANOR, params: idParamsSchema, answer: photoListSchema, read: (db, actor, { params }) => photoList(db, actor, params.id) });
  resourceAction(app, {
    method: 'POST',
    path: '/sportsMeet/:id/photos',
    access: DEMEANOR,
    params: idParamsSchema,
    body: photoAddSchema,
    entity: 'meet',
    audit: 'addPhotos',
    answer: photoListSchema,
    write: async (tx, actor, { params, body }) => {
      const rows = await addPhotos(tx, actor, params.id, body.fileIds, app.now());
      return { after: rows.map((p) => p.fileId), answer: rows };
    },
  });
  resourceAction(app, {
    method: 'PUT',
    path: '/sportsMeet/:id/photos/:photoId',
    access: DEMEANOR,
    params: photoParams,
    body: photoCaptionSchema,
    entity: 'meetPhoto',
    audit: 'caption',
    answer: photoSavedSchema,
    write: async (tx, actor, { params, body }) => ({ ...(await setCaption(tx, actor, params.id, params.photoId, body)), entityId: params.photoId }),
  });
  resourceAction(app, {
    method: 'DELETE',
    path: '/sportsMeet/:id/photos/:photoId',
    access: DEMEANOR,
    params: photoParams,
    entity: 'meetPhoto',
    audit: 'delete',
    answers: 'nothing',
    write: async (tx, actor, { params }) => ({ before: (await deletePhoto(tx, actor, params.id, params.photoId, app.now())).before, after: undefined, entityId: params.photoId }),
  });
};
