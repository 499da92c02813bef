import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { CertificateRow, PhotoRow, StampRow } from '@/domain/meets/documents';
import { filePaths } from '@/domain/uploads/stored-file';
import { seedMeetDocumentsDemo } from '../../../server/seed/meet-documents-demo';
import { meets } from '../../../server/db/schema/meets';
import { localStorage } from '../../../server/lib/storage/local';
import { jobFile } from '../../support/jobs';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let dir: string;
let token: string;
let springId: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiyu-meet-docs-'));
  t = await createTestApp({ env: { STORAGE_DIR: dir }, jobWorker: true });
  token = (await t.login('school01')).access_token;
  springId = (await t.db.select({ id: meets.id }).from(meets).where(and(eq(meets.name, '2026年春季田径运动会'))))[0].id;
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (url: string) => t.request({ url: `/api/busi/web/k12/sportsMeet/${url}`, token });
const data = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>().data;

describe('demo meet documents', () => {
  it('seeds two seals, a template printing one, and captioned style photos of the finished meet, once', async () => {
    const storage = await localStorage(dir);
    expect(await seedMeetDocumentsDemo(t.db, storage, t.clock.now())).toBe(true);
    expect(await seedMeetDocumentsDemo(t.db, storage, t.clock.now())).toBe(false);

    const stamps = data<StampRow[]>(await get('stamps'));
    expect(stamps.map((s) => s.name).sort()).toEqual(['体育组公章', '运动会专用章']);
    // A real 1:1 PNG with transparency, served from the file store.
    const png = await t.request({ url: filePaths.content(stamps[0].fileId), token });
    expect(png.statusCode).toBe(200);
    const meta = await sharp(png.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 400, 400, true]);

    const templates = data<Page<CertificateRow>>(await get('certificates/page?size=10')).records;
    const tpl = templates.find((c) => c.name === '运动会获奖证书')!;
    expect(tpl).toMatchObject({ stampName: '运动会专用章' });
    const issued = await jobFile(t, token, await t.request({ method: 'POST', url: `/api/busi/web/k12/sportsMeet/certificates/${tpl.id}/issue`, token, payload: { meetId: springId, fromPlace: 1, toPlace: 1 } }));
    expect(issued.statusCode).toBe(200);
    expect((await PDFDocument.load(issued.rawPayload)).getPageCount()).toBeGreaterThan(0);

    const photos = data<PhotoRow[]>(await get(`${springId}/photos`));
    expect(photos.map((p) => p.caption)).toEqual(['男子组100米决赛起跑', '男子组跳远', '女子组100米冲线瞬间']);
  });
});
