import * as tus from 'tus-js-client';
import type { Envelope } from '@/domain/api';
import { ERR } from '@/domain/errors';
import { RESUMABLE_ABOVE, type FilePurpose } from '@/domain/uploads/rules';
import { filePaths, TUS_PATH, type StoredFile } from '@/domain/uploads/stored-file';
import { ApiError, download, get, upload } from '@/lib/api-client';
import { acceptLanguage, i18next } from '@/lib/i18n';
import { authorizationHeader, currentOrgId } from '@/lib/store';

/** One file on its way to the file store. */
export interface UploadTask {
  done: Promise<StoredFile>;
  /** Big files go up resumably: they can pause and resume, and survive a dropped connection. */
  resumable: boolean;
  pause(): void;
  resume(): void;
  /** Stops and forgets the upload. */
  cancel(): void;
}

/** How the Upload field talks to the file store; tests and stories pass their own. */
export interface UploadTransport {
  start(file: File, purpose: FilePurpose, onProgress: (percent: number) => void): UploadTask;
  /** A URL the field can show as the file's thumbnail, or null. */
  thumbnail(id: string): Promise<string | null>;
  meta(id: string): Promise<StoredFile>;
}

/** Retries after a dropped connection, ms: tus asks the server for the offset and goes on from there. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000];
/** Bytes per PATCH of a resumable upload. */
const CHUNK_SIZE = 8 * 1024 * 1024;

function messageOf(error: unknown): string {
  const body = (error as { originalResponse?: { getBody(): string } | null }).originalResponse?.getBody();
  if (body) {
    try {
      const envelope = JSON.parse(body) as Envelope<unknown>;
      if (envelope.msg) return envelope.msg;
    } catch {
      /* not an envelope */
    }
  }
  return i18next.t(ERR.uploadFailed);
}

function resumableTask(file: File, purpose: FilePurpose, onProgress: (percent: number) => void): UploadTask {
  let upload: tus.Upload;
  const done = new Promise<StoredFile>((resolve, reject) => {
    upload = new tus.Upload(file, {
      endpoint: TUS_PATH,
      chunkSize: CHUNK_SIZE,
      retryDelays: RETRY_DELAYS,
      metadata: { filename: file.name, purpose },
      // Headers are read per request, so a refreshed token is used on the next PATCH.
      onBeforeRequest: (req) => {
        const auth = authorizationHeader();
        if (auth) req.setHeader('Authorization', auth);
        const orgId = currentOrgId();
        if (orgId) req.setHeader('orgId', orgId);
        req.setHeader('accept-language', acceptLanguage());
      },
      // Survives a reload: the same file picks up where it stopped.
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => onProgress(total > 0 ? Math.floor((sent / total) * 100) : 0),
      onError: (error) => reject(new ApiError(messageOf(error), '400', 400)),
      onSuccess: () => {
        const id = upload.url?.slice(upload.url.lastIndexOf('/') + 1) ?? '';
        get<StoredFile>(filePaths.uploadResult(id)).then(resolve, reject);
      },
    });
    upload.findPreviousUploads().then((previous) => {
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    }, reject);
  });
  return {
    done,
    resumable: true,
    pause: () => void upload.abort(),
    resume: () => upload.start(),
    cancel: () => void upload.abort(true),
  };
}

function singleTask(file: File, purpose: FilePurpose, onProgress: (percent: number) => void): UploadTask {
  const form = new FormData();
  form.append('file', file, file.name);
  return {
    done: upload<StoredFile>(`${filePaths.upload}?purpose=${purpose}`, form, onProgress),
    resumable: false,
    pause: () => undefined,
    resume: () => undefined,
    cancel: () => undefined,
  };
}

/** The file store of this server: one request for small files, tus for big ones. */
export const fileStoreTransport: UploadTransport = {
  start: (file, purpose, onProgress) => (file.size > RESUMABLE_ABOVE ? resumableTask(file, purpose, onProgress) : singleTask(file, purpose, onProgress)),
  async thumbnail(id) {
    try {
      return URL.createObjectURL((await download(filePaths.thumbnail(id))).blob);
    } catch {
      return null;
    }
  },
  meta: (id) => get<StoredFile>(filePaths.meta(id)),
};
