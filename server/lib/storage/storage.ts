import type { Readable } from 'node:stream';
import type { DataStore } from '@tus/utils';

/** Inclusive byte range of an HTTP Range request. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where file bytes live (server/modules/files): content-addressed blobs keyed by their SHA-256 hex,
 * and the partial data of resumable (tus) uploads. A local directory or S3-compatible object storage;
 * with S3 several server instances share every file and every upload in progress.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** The tus data store that receives resumable uploads. */
  readonly tus: DataStore;
  /** Stores bytes under their hash; storing the same hash again is harmless. */
  putBlob(hash: string, body: Buffer): Promise<void>;
  /** Streams a blob, or part of it; rejects when it does not exist. */
  readBlob(hash: string, range?: ByteRange): Promise<Readable>;
  hasBlob(hash: string): Promise<boolean>;
  removeBlob(hash: string): Promise<void>;
  /** Streams the bytes of a finished resumable upload. */
  readUpload(id: string): Promise<Readable>;
  /** Moves a finished resumable upload into the blob of `hash` and forgets the upload. */
  adoptUpload(id: string, hash: string): Promise<void>;
  /** Deletes a resumable upload, finished or not, with everything the tus store kept for it. */
  removeUpload(id: string): Promise<void>;
  close(): Promise<void>;
}

/** Blob key inside the store: two-level fan-out so no directory holds millions of entries. */
export function blobKey(hash: string): string {
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`not a sha256 hex: ${hash}`);
  return `blobs/${hash.slice(0, 2)}/${hash}`;
}
