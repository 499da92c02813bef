import type { IncomingMessage } from 'node:http';
import type { Server, ServerOptions } from '@tus/server';
import type { FastifyInstance } from 'fastify';
import { fail, ok } from '@/domain/api';
import { ERR } from '@/domain/errors';
import { toLocale } from '@/domain/i18n/language';
import { UPLOAD_LIMIT } from '@/domain/constants';
import { isAppError } from '../../lib/app-error';
import { createUploadLocker, loadTus } from '../../lib/shared-limits';
import type { Storage } from '../../lib/storage/storage';
import { finishUpload } from './files.service';

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadFinish']>>[0];

/** The Node request behind tus's web Request (srvx keeps it at runtime.node.req). */
function nodeRequest(req: TusRequest): IncomingMessage | undefined {
  return (req as unknown as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
}

/** Upload metadata of tus (`key base64,key base64`). */
export function tusMetadata(header: string | string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of String(header ?? '').split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (key) out[key] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return out;
}

/**
 * The tus server of resumable uploads (tus.io 1.0): Fastify authenticates and scopes every request and
 * decides the upload id before handing the raw request over; when the last byte arrives the upload is
 * checked by content and moved into the file store, and the final PATCH answers the stored file.
 */
export function createTusServer(app: FastifyInstance, storage: Storage, path: string) {
  /** Upload ids chosen by the route for the creation requests in flight. */
  const ids = new WeakMap<IncomingMessage, string>();
  const json = (status: number, body: unknown) => ({ status_code: status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });

  // Built by the first upload request: @tus/server loads then, not at start (docs/decisions/065-built-server.md).
  let built: Promise<{ server: Server; close(): Promise<void> }> | undefined;
  const build = async () => {
    const { Server } = await loadTus();
    // Shared by every instance on one PostgreSQL: a resumed upload may arrive at another instance (server/lib/shared-limits.ts).
    const uploadLocker = await createUploadLocker(app.db);
    const server = new Server({
      path,
      locker: uploadLocker.locker,
      datastore: storage.tus,
      relativeLocation: true,
      maxSize: UPLOAD_LIMIT.video,
      // Finished uploads are gone from the tus store once adopted.
      disableTerminationForFinishedUploads: true,
      namingFunction: (req) => {
        const node = nodeRequest(req);
        const id = node && ids.get(node);
        if (!id) throw { status_code: 500, body: 'no upload id' };
        return id;
      },
      onUploadFinish: async (req, upload) => {
        const t = app.i18n.getFixedT(toLocale(req.headers.get('accept-language') ?? undefined));
        try {
          const file = await finishUpload(app.db, storage, upload.id, app.now());
          return json(200, ok(file));
        } catch (error) {
          if (isAppError(error)) throw json(error.status, fail(error.status, t(error.i18nKey, error.params)));
          app.log.error({ err: error }, 'resumable upload could not be stored');
          throw json(500, fail(500, t(ERR.uploadFailed)));
        }
      },
    });
    return { server, close: () => uploadLocker.close() };
  };
  app.addHook('onClose', async () => {
    await built?.then((b) => b.close(), () => {});
  });

  return {
    /** Passes the request to tus; `uploadId` names the upload a creation request makes. */
    async handle(raw: IncomingMessage, res: Parameters<Server['handle']>[1], uploadId?: string) {
      if (uploadId) ids.set(raw, uploadId);
      if (!built) {
        const building = build();
        built = building;
        // A build that failed (the lock's connection, say) is tried again by the next upload, not kept.
        building.catch(() => built === building && (built = undefined));
      }
      return (await built).server.handle(raw, res);
    },
  };
}
