import type { Env } from '../../env';
import { localStorage } from './local';
import type { Storage } from './storage';

/** The storage the environment names: S3 when S3_BUCKET is set, else the local STORAGE_DIR. */
export async function createStorage(env: Pick<Env, 'STORAGE_DIR' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_REGION'>): Promise<Storage> {
  if (env.S3_BUCKET) {
    // The AWS SDK loads only where object storage is configured (≈ 1.5 s of start-up otherwise).
    const { s3Storage } = await import('./s3');
    return s3Storage({
      endpoint: env.S3_ENDPOINT,
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    });
  }
  return localStorage(env.STORAGE_DIR);
}
