import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  body: unknown;
  type: string;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface S3rverInternals {
  middleware: Middleware[];
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
}

/**
 * An S3-compatible server on a free loopback port (s3rver from npm), with the two multipart calls
 * `@tus/s3-store` needs and s3rver lacks: ListParts (GET ?uploadId) and AbortMultipartUpload (DELETE ?uploadId).
 */
export async function startS3(bucket: string): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'tiyu-s3rver-'));
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
  const internals = s3 as unknown as S3rverInternals;
  const uploadDir = (name: string, uploadId: string) => join(internals.store.getResourcePath(name, undefined, 'uploads'), uploadId);
  const multipartCalls: Middleware = async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    if (!uploadId || (ctx.method !== 'GET' && ctx.method !== 'DELETE')) return next();
    const [, name, ...key] = ctx.path.split('/');
    const dirOf = uploadDir(name, uploadId);
    if (ctx.method === 'DELETE') {
      await rm(dirOf, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    const exists = await stat(dirOf).then(
      () => true,
      () => false,
    );
    if (!exists) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>no such upload</Message></Error>';
      return;
    }
    const numbers = (await readdir(dirOf)).filter((f) => /^\d+$/.test(f)).map(Number).sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (n) => {
        const [info, md5] = await Promise.all([stat(join(dirOf, String(n))), readFile(join(dirOf, `${n}.md5`), 'utf8')]);
        return `<Part><PartNumber>${n}</PartNumber><ETag>"${md5}"</ETag><Size>${info.size}</Size><LastModified>${info.mtime.toISOString()}</LastModified></Part>`;
      }),
    );
    ctx.type = 'application/xml';
    ctx.body =
      `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult><Bucket>${name}</Bucket><Key>${key.join('/')}</Key><UploadId>${uploadId}</UploadId>` +
      `<PartNumberMarker>0</PartNumberMarker><MaxParts>1000</MaxParts><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  };
  internals.middleware.unshift(multipartCalls);
  const { port } = await s3.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async stop() {
      await s3.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
