import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { TUS_PATH, type StoredFile } from '@/domain/uploads/stored-file';
import { createTestApp, type TestApp } from '../../support/server-app';
import { mp4 } from '../files/fixtures';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiyu-shutdown-'));
  t = await createTestApp({ env: { STORAGE_DIR: dir } });
});
afterAll(async () => {
  await t?.handle.close();
  await rm(dir, { recursive: true, force: true });
});

const b64 = (s: string) => Buffer.from(s).toString('base64');

/**
 * What server/main.ts relies on when it stops (docs/product-rules.md#health): closing the app stops taking connections
 * and lets a request in flight, here the last part of a resumable upload, run to its end.
 */
describe('graceful shutdown', () => {
  it('finishes an upload part in flight while refusing new connections', async () => {
    const token = (await t.login('school01')).access_token;
    const video = mp4(400_000);
    const created = await t.request({
      method: 'POST',
      url: TUS_PATH,
      token,
      headers: { 'tus-resumable': '1.0.0', 'upload-length': String(video.length), 'upload-metadata': `purpose ${b64('lessonVideo')},filename ${b64('课.mp4')}` },
    });
    expect(created.statusCode, created.body).toBe(201);
    const location = String(created.headers.location);

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    // The PATCH starts, sends half its body, and the server is told to stop.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'PATCH',
          path: location,
          headers: {
            authorization: `bearer ${token}`,
            'tus-resumable': '1.0.0',
            'upload-offset': '0',
            'content-type': 'application/offset+octet-stream',
            'content-length': String(video.length),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write(video.subarray(0, 200_000));
      setTimeout(() => {
        // A new connection while closing is refused; then the rest of the body arrives.
        fetch(`http://127.0.0.1:${port}/api/health`).then(
          () => reject(new Error('a new connection was accepted while closing')),
          () => req.end(video.subarray(200_000)),
        );
      }, 300);
    });
    // The stop comes after the first half is sent; the refused connection above shows it had begun.
    let closed = false;
    const closing = new Promise<void>((resolve) => setTimeout(resolve, 150)).then(() => t.app.close().then(() => void (closed = true)));
    const res = await answer;
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body) as Envelope<StoredFile>).toMatchObject({ data: { mime: 'video/mp4', size: video.length } });
    await closing;
    expect(closed).toBe(true);
  });
});
