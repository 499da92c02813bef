import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '@/domain/api';
import { ERR } from '@/domain/errors';
import { idParamsSchema as idParams } from '@/domain/list-query';
import { uploadParamsSchema as uploadParams, uploadQuerySchema as uploadQuery } from '@/domain/uploads/requests';
import { purposeMaxBytes, SINGLE_REQUEST_MAX, type FilePurpose } from '@/domain/uploads/rules';
import { AppError } from '../../lib/app-error';
import type { Storage } from '../../lib/storage/storage';
import { requireScope } from '../../plugins/tenant';
import {
  beginUpload,
  deleteFile,
  fileMeta,
  publicFile,
  readableFile,
  saveUpload,
  sweepFiles,
  touchUpload,
  uploadOf,
  uploadResult,
  type Owner,
} from './files.service';
import { sendStoredFile, thumbnailOf, type ServedFile } from './files.send';
import { createTusServer, tusMetadata } from './files.tus';

export interface FilesRoutesOptions {
  storage: Storage;
  /** How often abandoned uploads and unused blobs are swept (ms); 0 = never (tests sweep by hand). */
  sweepEveryMs: number;
}

/**
 * The file store under /api/uc/oss/files (the user centre's object storage): uploads in one request or
 * resumably (tus), reads for the owning organisation (and those above it), deletes; public files under
 * /api/uc/oss/public/files. Type is judged by content, never by name.
 * Hand routes, all of them: outside the console API, access is the owning organisation rather than a catalogue button
 * (which `resourceAction` requires); uploads are multipart or tus streams, content and thumbnails are file downloads,
 * and the public reads have no session.
 */
export const filesRoutes: FastifyPluginAsyncZod<FilesRoutesOptions> = async (app, { storage, sweepEveryMs }) => {
  const send = (request: FastifyRequest, reply: FastifyReply, file: ServedFile, cache: string) => sendStoredFile(storage, request, reply, file, cache);

  // Public files: no session; only rows of a public purpose.
  await app.register(async (instance) => {
    const pub = instance.withTypeProvider<ZodTypeProvider>();
    pub.get('/public/files/:id/content', { schema: { params: idParams } }, async (request, reply) => {
      const row = await publicFile(app.db, request.params.id);
      return send(request, reply, row, 'public, max-age=86400');
    });
    pub.get('/public/files/:id/thumbnail', { schema: { params: idParams } }, async (request, reply) => {
      const row = await publicFile(app.db, request.params.id);
      return send(request, reply, thumbnailOf(row), 'public, max-age=86400');
    });
  });

  await app.register(
    async (instance) => {
      const files = instance.withTypeProvider<ZodTypeProvider>();
      await files.register(multipart, { limits: { fileSize: SINGLE_REQUEST_MAX, files: 1, fields: 5, parts: 6 } });
      // tus PATCH bodies stream straight to the tus store.
      files.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
      files.addHook('onRequest', app.authenticate);
      const owner = async (request: FastifyRequest): Promise<Owner> => {
        const scope = await requireScope(request);
        if (!request.session) throw new AppError(401, ERR.sessionExpired);
        return { orgId: scope.tenantOrgId, userId: request.session.userId };
      };

      files.post('/', { schema: { querystring: uploadQuery } }, async (request) => {
        const who = await owner(request);
        const purpose: FilePurpose = request.query.purpose;
        if (!request.isMultipart()) throw new AppError(400, ERR.badRequest);
        const part = await request.file({ limits: { fileSize: Math.min(purposeMaxBytes(purpose), SINGLE_REQUEST_MAX) } }).catch(() => undefined);
        if (!part) throw new AppError(400, ERR.badRequest);
        let bytes: Buffer;
        try {
          bytes = await part.toBuffer();
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(400, ERR.fileTooLarge);
          throw error;
        }
        return ok(await saveUpload(app.db, storage, who, purpose, part.filename, bytes, app.now()));
      });

      files.get('/:id', { schema: { params: idParams } }, async (request) => ok(await fileMeta(app.db, (await owner(request)).orgId, request.params.id)));
      files.get('/:id/content', { schema: { params: idParams } }, async (request, reply) => {
        const row = await readableFile(app.db, (await owner(request)).orgId, request.params.id);
        return send(request, reply, row, 'private, max-age=3600');
      });
      files.get('/:id/thumbnail', { schema: { params: idParams } }, async (request, reply) => {
        const row = await readableFile(app.db, (await owner(request)).orgId, request.params.id);
        return send(request, reply, thumbnailOf(row), 'private, max-age=3600');
      });
      files.delete('/:id', { schema: { params: idParams } }, async (request) => {
        await deleteFile(app.db, (await owner(request)).orgId, request.params.id, app.now());
        return ok(null);
      });

      // ---- resumable uploads (tus) ------------------------------------------------------------------------
      const tus = createTusServer(app, storage, `${files.prefix}/tus`);
      files.get('/uploads/:uploadId', { schema: { params: uploadParams } }, async (request) =>
        ok(await uploadResult(app.db, await owner(request), request.params.uploadId)),
      );
      files.post('/tus', async (request, reply) => {
        const who = await owner(request);
        const meta = tusMetadata(request.headers['upload-metadata']);
        const purpose = uploadQuery.shape.purpose.safeParse(meta.purpose);
        if (!purpose.success) throw new AppError(400, ERR.badRequest);
        const length = Number(request.headers['upload-length']);
        if (!Number.isSafeInteger(length) || length < 0) throw new AppError(400, ERR.badRequest);
        const id = await beginUpload(app.db, who, purpose.data, meta.filename ?? '', length, app.now());
        reply.hijack();
        await tus.handle(request.raw, reply.raw, id);
      });
      files.route({
        method: ['HEAD', 'PATCH', 'DELETE'],
        url: '/tus/:uploadId',
        schema: { params: uploadParams },
        handler: async (request, reply) => {
          const who = await owner(request);
          const upload = await uploadOf(app.db, who, request.params.uploadId);
          if (!upload) throw new AppError(404, ERR.notFound);
          if (upload.fileId) {
            // Finished: a client whose last response was lost learns it is complete and asks for the result.
            if (request.method !== 'HEAD') throw new AppError(404, ERR.notFound);
            reply.headers({ 'tus-resumable': '1.0.0', 'upload-offset': upload.size, 'upload-length': upload.size, 'cache-control': 'no-store' });
            return reply.status(200).send();
          }
          if (request.method === 'PATCH') await touchUpload(app.db, upload.id, app.now());
          reply.hijack();
          await tus.handle(request.raw, reply.raw);
        },
      });
      files.options('/tus', async (request, reply) => {
        reply.hijack();
        await tus.handle(request.raw, reply.raw);
      });
    },
    { prefix: '/files' },
  );

  if (sweepEveryMs > 0) {
    const timer = setInterval(() => {
      sweepFiles(app.db, storage, app.now()).catch((err: unknown) => app.log.error({ err }, 'file sweep failed'));
    }, sweepEveryMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
};
