import type { Readable } from 'node:stream';
import { CopyObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import { blobKey, type Storage } from './storage';

export interface S3Options {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** Parts of resumable uploads sent to S3 (its minimum part size is 5 MiB). */
const TUS_PART_SIZE = 8 * 1024 * 1024;

/**
 * Files in an S3-compatible bucket: blobs under `blobs/`, resumable uploads under their tus id
 * (`@tus/s3-store`: a multipart upload plus `<id>.info`), so every server instance sees the same files.
 */
export function s3Storage(options: S3Options): Storage {
  const config: S3ClientConfig = {
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
    // Checksums only where S3 requires them: many S3-compatible servers reject the newer default trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  const client = new S3Client(config);
  const Bucket = options.bucket;
  const tus = new S3Store({ partSize: TUS_PART_SIZE, s3ClientConfig: { ...config, bucket: Bucket } });

  const get = async (Key: string, Range?: string): Promise<Readable> => {
    const out = await client.send(new GetObjectCommand({ Bucket, Key, Range }));
    return out.Body as Readable;
  };
  const removeKeys = async (keys: string[]) => {
    await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }));
  };

  return {
    kind: 's3',
    tus,
    async putBlob(hash, body) {
      await client.send(new PutObjectCommand({ Bucket, Key: blobKey(hash), Body: body, ContentLength: body.length }));
    },
    readBlob: (hash, range) => get(blobKey(hash), range ? `bytes=${range.start}-${range.end}` : undefined),
    async hasBlob(hash) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: blobKey(hash) }));
        return true;
      } catch {
        return false;
      }
    },
    async removeBlob(hash) {
      await removeKeys([blobKey(hash)]);
    },
    readUpload: (id) => get(id),
    async adoptUpload(id, hash) {
      await client.send(new CopyObjectCommand({ Bucket, Key: blobKey(hash), CopySource: `${Bucket}/${encodeURIComponent(id)}` }));
      await removeKeys([id, `${id}.info`, `${id}.part`]);
    },
    async removeUpload(id) {
      // An unfinished upload has a multipart upload to abort; a finished one only objects.
      await tus.remove(id).catch(() => undefined);
      await removeKeys([id, `${id}.info`, `${id}.part`]);
    },
    async close() {
      client.destroy();
    },
  };
}
