import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import { IMAGE_COMPRESS_ABOVE, UPLOAD_LIMIT } from '@/domain/constants';
import { ABANDONED_UPLOAD_MS, PURPOSE_LIMIT, THUMBNAIL_SIDE } from '@/domain/uploads/rules';
import type { StoredFile } from '@/domain/uploads/stored-file';
import { filePaths, TUS_PATH } from '@/domain/uploads/stored-file';
import en from '../../../locales/en_us/errors.json';
import { parseEnv } from '../../../server/env';
import { createStorage } from '../../../server/lib/storage/create-storage';
import type { Storage } from '../../../server/lib/storage/storage';
import { sweepFiles } from '../../../server/modules/files/files.service';
import { createTestApp, type TestApp } from '../../support/server-app';
import { startS3 } from './s3-server';
import { GIF_HEAD, HTML, MP3_HEAD, mp4, multipartBody, noisyJpeg, padded, PDF_HEAD, png, PNG_HEAD, SVG_WITH_SCRIPT } from './fixtures';

type StorageEnv = Record<string, string>;

/** The same suite on the local directory and on S3-compatible object storage (s3rver on loopback). */
const backends: { name: string; setup(): Promise<{ env: StorageEnv; stop(): Promise<void> }> }[] = [
  {
    name: 'local directory',
    async setup() {
      const dir = await mkdtemp(join(tmpdir(), 'tiyu-files-'));
      return { env: { STORAGE_DIR: dir }, stop: () => rm(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3-compatible storage',
    async setup() {
      const s3 = await startS3('tiyu-files');
      return {
        env: { S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'tiyu-files', S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' },
        stop: s3.stop,
      };
    },
  },
];

const EN = { 'accept-language': 'en-US' };

describe.each(backends)('file store on $name', (backend) => {
  let t: TestApp;
  let storage: Storage;
  let stop: () => Promise<void>;
  let school: string;
  let college: string;
  let district: string;

  beforeAll(async () => {
    const started = await backend.setup();
    stop = started.stop;
    t = await createTestApp({ env: started.env });
    // A second handle on the same directory or bucket: the sweep a server instance runs.
    storage = await createStorage(parseEnv({ NODE_ENV: 'test', ...started.env }));
    [school, college, district] = await Promise.all(['school01', 'college01', 'district01'].map(async (a) => (await t.login(a)).access_token));
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await storage?.close();
    await stop?.();
  });

  const upload = (token: string, purpose: string, name: string, bytes: Buffer, type?: string) => {
    const body = multipartBody(name, bytes, type);
    return t.request({
      method: 'POST',
      url: `${filePaths.upload}?purpose=${purpose}`,
      token,
      headers: { ...EN, 'content-type': body.contentType },
      payload: body.payload,
    });
  };
  const stored = async (token: string, purpose: string, name: string, bytes: Buffer) => {
    const res = await upload(token, purpose, name, bytes);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Envelope<StoredFile>>().data;
  };
  const refusedWith = async (res: Awaited<ReturnType<typeof upload>>, message: string) => {
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json<Envelope<null>>().msg).toBe(message);
  };

  describe('type by content', () => {
    it('stores a PNG renamed .mp4 as a PNG, and refuses it where a video is wanted', async () => {
      const bytes = await png();
      const file = await stored(school, 'image', 'holiday.mp4', bytes);
      expect(file.mime).toBe('image/png');
      const content = await t.request({ url: filePaths.content(file.id), token: school });
      expect(content.headers['content-type']).toBe('image/png');
      await refusedWith(await upload(school, 'lessonVideo', 'holiday.mp4', bytes, 'video/mp4'), en.fileFormat);
    });

    it('refuses an HTML page renamed .png', async () => {
      await refusedWith(await upload(school, 'image', 'photo.png', HTML, 'image/png'), en.fileFormat);
      await refusedWith(await upload(school, 'attachment', 'photo.png', HTML, 'image/png'), en.fileFormat);
    });

    it('refuses an SVG carrying a script, whatever its name', async () => {
      await refusedWith(await upload(school, 'image', 'logo.svg', SVG_WITH_SCRIPT, 'image/svg+xml'), en.fileFormat);
      await refusedWith(await upload(school, 'branding', 'logo.png', SVG_WITH_SCRIPT, 'image/png'), en.fileFormat);
    });

    it('refuses a truncated image as damaged', async () => {
      const bytes = await png(300, 300);
      await refusedWith(await upload(school, 'image', 'cut.png', bytes.subarray(0, Math.floor(bytes.length / 2))), en.imageDamaged);
    });

    it('checks the 1:1 rule of stamps on the decoded image, and accepts only PNG stamps', async () => {
      await refusedWith(await upload(school, 'stamp', 'stamp.png', await png(200, 100)), en.imageDimensions);
      const jpeg = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#fff' } }).jpeg().toBuffer();
      await refusedWith(await upload(school, 'stamp', 'stamp.png', jpeg), en.fileFormat);
      const file = await stored(school, 'stamp', 'stamp.png', await png(200, 200));
      expect([file.width, file.height]).toEqual([200, 200]);
    });
  });

  describe('ceilings', () => {
    const cases: [purpose: string, name: string, head: Buffer, ceiling: number][] = [
      ['image', 'big.png', PNG_HEAD, UPLOAD_LIMIT.image],
      ['image', 'big.gif', GIF_HEAD, UPLOAD_LIMIT.gif],
      ['audio', 'big.mp3', MP3_HEAD, UPLOAD_LIMIT.audio],
      ['face', 'face.png', PNG_HEAD, PURPOSE_LIMIT.face],
      ['cover', 'cover.png', PNG_HEAD, PURPOSE_LIMIT.cover],
      ['lessonCover', 'cover.png', PNG_HEAD, PURPOSE_LIMIT.lessonCover],
      ['stamp', 'stamp.png', PNG_HEAD, PURPOSE_LIMIT.stamp],
      ['style', 'style.png', PNG_HEAD, PURPOSE_LIMIT.style],
      ['attachment', 'rules.pdf', PDF_HEAD, PURPOSE_LIMIT.attachment],
    ];
    it.each(cases)('%s refuses %s one byte over its ceiling', async (purpose, name, head, ceiling) => {
      await refusedWith(await upload(school, purpose, name, padded(head, ceiling + 1)), en.fileTooLarge);
    });

    it('refuses a video over 500 MB before a byte is sent', async () => {
      for (const purpose of ['lessonVideo', 'video']) {
        const res = await t.request({
          method: 'POST',
          url: TUS_PATH,
          token: school,
          headers: { ...EN, 'tus-resumable': '1.0.0', 'upload-length': String(UPLOAD_LIMIT.video + 1), 'upload-metadata': tusMeta({ purpose, filename: 'lesson.mp4' }) },
        });
        await refusedWith(res, en.fileTooLarge);
      }
    });
  });

  it('compresses an image over 100 KB and makes its thumbnail', async () => {
    const original = await noisyJpeg();
    expect(original.length).toBeGreaterThan(IMAGE_COMPRESS_ABOVE);
    const file = await stored(school, 'image', 'track.jpg', original);
    expect(file.size).toBeLessThan(original.length);
    expect(file.hasThumbnail).toBe(true);
    const content = await t.request({ url: filePaths.content(file.id), token: school });
    expect(content.rawPayload.length).toBe(file.size);
    expect(content.headers['x-content-type-options']).toBe('nosniff');
    expect((await sharp(content.rawPayload).metadata()).format).toBe('jpeg');
    const thumb = await t.request({ url: filePaths.thumbnail(file.id), token: school });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(THUMBNAIL_SIDE);
    // Face photos too (docs/product-rules.md#uploads: images over 100 KB).
    const face = await stored(school, 'face', 'face.jpg', original);
    expect(face.size).toBeLessThan(original.length);
  });

  it('serves a file to its organisation and the bureau above it, 404 to another organisation', async () => {
    const file = await stored(school, 'attachment', '规程.pdf', padded(PDF_HEAD, 2000));
    const own = await t.request({ url: filePaths.content(file.id), token: school });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-disposition']).toMatch(/^attachment; filename\*=UTF-8''/);
    expect((await t.request({ url: filePaths.content(file.id), token: district })).statusCode).toBe(200);
    for (const url of [filePaths.meta(file.id), filePaths.content(file.id), filePaths.thumbnail(file.id)]) {
      expect((await t.request({ url, token: college })).statusCode).toBe(404);
    }
    expect((await t.request({ method: 'DELETE', url: filePaths.meta(file.id), token: college })).statusCode).toBe(404);
    expect((await t.request({ url: filePaths.content(file.id) })).statusCode).toBe(401);
    // Not public: the public route does not know it.
    expect((await t.request({ url: filePaths.publicContent(file.id) })).statusCode).toBe(404);

    expect((await t.request({ method: 'DELETE', url: filePaths.meta(file.id), token: school })).statusCode).toBe(200);
    expect((await t.request({ url: filePaths.content(file.id), token: school })).statusCode).toBe(404);
  });

  it('serves banner images publicly, for the login screen', async () => {
    const file = await stored(school, 'banner', 'banner.png', await png(320, 120));
    expect(file.isPublic).toBe(true);
    const res = await t.request({ url: filePaths.publicContent(file.id) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers byte ranges (video seeking)', async () => {
    const bytes = padded(PDF_HEAD, 5000);
    const file = await stored(school, 'attachment', 'a.pdf', bytes);
    const res = await t.request({ url: filePaths.content(file.id), token: school, headers: { range: 'bytes=100-199' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 100-199/5000');
    expect(res.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
  });

  describe('resumable uploads (tus)', () => {
    const create = async (token: string, purpose: string, name: string, length: number) => {
      const res = await t.request({
        method: 'POST',
        url: TUS_PATH,
        token,
        headers: { ...EN, 'tus-resumable': '1.0.0', 'upload-length': String(length), 'upload-metadata': tusMeta({ purpose, filename: name }) },
      });
      expect(res.statusCode, res.body).toBe(201);
      const location = String(res.headers.location);
      expect(location).toMatch(new RegExp(`^${TUS_PATH}/[0-9a-f]{32}$`));
      return location;
    };
    const patch = (token: string, location: string, offset: number, bytes: Buffer) =>
      t.request({
        method: 'PATCH',
        url: location,
        token,
        headers: { ...EN, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        payload: bytes,
      });
    const head = (token: string, location: string) => t.request({ method: 'HEAD', url: location, token, headers: { 'tus-resumable': '1.0.0' } });

    it('resumes an interrupted upload from the offset the server reports, then serves the file', async () => {
      const video = mp4(300_000);
      const location = await create(school, 'lessonVideo', '第一课.mp4', video.length);
      // The connection drops after the first part.
      const first = await patch(school, location, 0, video.subarray(0, 120_000));
      expect(first.statusCode, first.body).toBe(204);
      // Another user cannot see or continue it.
      expect((await head(college, location)).statusCode).toBe(404);
      expect((await patch(college, location, 120_000, video.subarray(120_000))).statusCode).toBe(404);

      const probe = await head(school, location);
      expect(probe.statusCode).toBe(200);
      const offset = Number(probe.headers['upload-offset']);
      expect(offset).toBe(120_000);
      const last = await patch(school, location, offset, video.subarray(offset));
      expect(last.statusCode, last.body).toBe(200);
      const file = last.json<Envelope<StoredFile>>().data;
      expect(file).toMatchObject({ mime: 'video/mp4', size: video.length, name: '第一课.mp4' });

      // A client whose last response was lost asks again: complete.
      const done = await head(school, location);
      expect([done.statusCode, Number(done.headers['upload-offset'])]).toEqual([200, video.length]);
      const uploadId = location.slice(location.lastIndexOf('/') + 1);
      const result = await t.request({ url: filePaths.uploadResult(uploadId), token: school });
      expect(result.json<Envelope<StoredFile>>().data.id).toBe(file.id);
      const content = await t.request({ url: filePaths.content(file.id), token: school });
      expect(content.statusCode).toBe(200);
      expect(content.headers['content-type']).toBe('video/mp4');
      expect(content.rawPayload.equals(video)).toBe(true);
    });

    it('survives a connection dropped in the middle of a PATCH', async () => {
      const video = mp4(400_000);
      const location = await create(school, 'lessonVideo', 'dropped.mp4', video.length);
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      // The body announces every byte, but the connection dies after 150 000 of them.
      await new Promise<void>((resolve) => {
        const req = httpRequest(`${address}${location}`, {
          method: 'PATCH',
          headers: {
            authorization: `bearer ${school}`,
            'tus-resumable': '1.0.0',
            'upload-offset': '0',
            'content-type': 'application/offset+octet-stream',
            'content-length': String(video.length),
          },
        });
        req.on('error', () => resolve());
        req.on('response', () => resolve());
        req.write(video.subarray(0, 150_000), () => setImmediate(() => req.destroy()));
      });
      // The server settles what it received; ask it where to go on from, as tus clients do.
      let offset = -1;
      for (let i = 0; i < 50; i++) {
        const probe = await head(school, location);
        if (probe.statusCode === 200) {
          const now = Number(probe.headers['upload-offset']);
          if (now === offset) break;
          offset = now;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThanOrEqual(150_000);
      const rest = await patch(school, location, offset, video.subarray(offset));
      expect(rest.statusCode, rest.body).toBe(200);
      const file = rest.json<Envelope<StoredFile>>().data;
      const content = await t.request({ url: filePaths.content(file.id), token: school });
      expect(content.rawPayload.equals(video)).toBe(true);
    });

    it('checks a finished upload by content: an HTML page sent as a video is refused and dropped', async () => {
      const location = await create(school, 'attachment', 'clip.mp4', HTML.length);
      const res = await patch(school, location, 0, HTML);
      await refusedWith(res, en.fileFormat);
      expect((await head(school, location)).statusCode).toBe(404);
    });

    it('deletes an upload abandoned for a day, with its partial data', async () => {
      const video = mp4(100_000);
      const location = await create(school, 'lessonVideo', 'left.mp4', video.length);
      expect((await patch(school, location, 0, video.subarray(0, 40_000))).statusCode).toBe(204);
      const uploadId = location.slice(location.lastIndexOf('/') + 1);

      // Not yet a day: kept.
      t.clock.advance(ABANDONED_UPLOAD_MS - 60_000);
      expect((await sweepFiles(t.db, storage, t.clock.now())).abandonedUploads).toBe(0);
      // Sessions expire over a day: sign in again, as the person would.
      const again = (await t.login('school01')).access_token;
      expect((await head(again, location)).statusCode).toBe(200);

      t.clock.advance(2 * 60_000);
      expect((await sweepFiles(t.db, storage, t.clock.now())).abandonedUploads).toBeGreaterThanOrEqual(1);
      expect((await head(again, location)).statusCode).toBe(404);
      await expect(storage.tus.getUpload(uploadId)).rejects.toBeTruthy();
    });
  });
});

function tusMeta(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
}
