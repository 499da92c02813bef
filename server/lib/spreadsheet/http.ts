import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERR } from '@/domain/errors';
import { AppError } from '../app-error';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An xlsx download (a whole workbook or a stream of one); the name travels as RFC 5987 `filename*` (the browser reads import counts from it, docs/product-rules.md#import-files). */
export function sendXlsx(reply: FastifyReply, workbook: Buffer | Readable, fileName: string) {
  return sendFile(reply, workbook, fileName, XLSX_MIME);
}

/** A file download of any type, named as `sendXlsx` names a workbook, never cached. */
export function sendFile(reply: FastifyReply, body: Buffer | Readable, fileName: string, contentType: string) {
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .header('cache-control', 'no-store')
    .send(body);
}

/** The one file of a multipart upload, with the text fields sent before it. */
export interface UploadedFile {
  fileName: string;
  buffer: Buffer;
  fields: Record<string, string>;
}

/** The one file of a multipart upload (@fastify/multipart registered on the route's scope): its name and bytes, and the text fields sent before it. */
export async function uploadedFile(request: FastifyRequest): Promise<UploadedFile> {
  if (!request.isMultipart()) throw new AppError(400, 'import:fileRequired');
  let part;
  try {
    part = await request.file();
  } catch {
    throw new AppError(400, 'import:fileRequired');
  }
  if (!part) throw new AppError(400, 'import:fileRequired');
  try {
    const buffer = await part.toBuffer();
    const fields: Record<string, string> = {};
    for (const [name, field] of Object.entries(part.fields)) {
      if (field && !Array.isArray(field) && field.type === 'field' && typeof field.value === 'string') fields[name] = field.value;
    }
    return { fileName: part.filename, buffer, fields };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, ERR.fileTooLarge);
    throw error;
  }
}
