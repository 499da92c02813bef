import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERR } from '@/domain/errors';
import { AppError } from '../../lib/app-error';
import type { ByteRange, Storage } from '../../lib/storage/storage';

const RANGE = /^bytes=(\d*)-(\d*)$/;

/** The one byte range of a Range header, null for the whole file; 'invalid' when it cannot be served. */
function parseRange(header: string | undefined, size: number): ByteRange | null | 'invalid' {
  const m = header ? RANGE.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  const start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1]);
  const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start > end || start >= size ? 'invalid' : { start, end };
}

/** Only these render inline; everything else downloads, so no stored file can act as a page of this site. */
const INLINE = /^(image\/(png|jpeg|gif|webp)|video\/mp4|audio\/mpeg)$/;
/** Types a browser would run as a document; a stored row never has them (markup is refused), but a file is never served as one. */
const MARKUP = /(html|xml|svg|javascript|ecmascript)/i;
/** Office Open XML workbooks (a job's .xlsx) are no document a browser runs: they keep their type, as an attachment. */
const WORKBOOK = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The CSP of a stored file: nothing runs, even when opened directly (replaces the console's policy set by helmet). */
export const FILE_CSP = "default-src 'none'; img-src 'self'; media-src 'self'; sandbox";

/** What is sent of a stored file: its blob, size (null: unknown, no ranges), served type and download name. */
export interface ServedFile {
  hash: string;
  size: number | null;
  mime: string;
  name: string;
}

/** A stored file's WebP thumbnail, or 404 when it has none. */
export function thumbnailOf(row: { thumbnailHash: string | null; name: string }): ServedFile {
  if (!row.thumbnailHash) throw new AppError(404, ERR.notFound);
  return { hash: row.thumbnailHash, size: null, mime: 'image/webp', name: row.name.replace(/\.[^.]*$/, '') + '.webp' };
}

/**
 * Sends a stored file the caller was found allowed to read: sniffed type, `nosniff`, the sandboxing CSP, inline only
 * for images and media, an ETag of its hash, single byte ranges. Every route that answers a stored file goes through here.
 */
export async function sendStoredFile(storage: Storage, request: FastifyRequest, reply: FastifyReply, file: ServedFile, cache: string) {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('content-security-policy', FILE_CSP);
  reply.header('cache-control', cache);
  reply.header('etag', `"${file.hash}"`);
  const disposition = INLINE.test(file.mime) ? 'inline' : 'attachment';
  reply.header('content-disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(file.name)}`);
  reply.type(MARKUP.test(file.mime) && file.mime !== WORKBOOK ? 'application/octet-stream' : file.mime);
  if (request.headers['if-none-match'] === `"${file.hash}"`) return reply.status(304).send();
  if (file.size === null) return reply.send(await storage.readBlob(file.hash));
  reply.header('accept-ranges', 'bytes');
  const range = parseRange(request.headers.range, file.size);
  if (range === 'invalid') {
    reply.header('content-range', `bytes */${file.size}`);
    return reply.status(416).send();
  }
  if (!range) {
    reply.header('content-length', file.size);
    return reply.send(await storage.readBlob(file.hash));
  }
  reply.status(206);
  reply.header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
  reply.header('content-length', range.end - range.start + 1);
  return reply.send(await storage.readBlob(file.hash, range));
}
