import { and, eq } from 'drizzle-orm';
import fontkit from '@pdf-lib/fontkit';
import { decodePDFRawStream, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import { DEFAULT_CERTIFICATE_FIELDS, type CertificateForm, type CertificateRow, type PhotoRow, type StampRow } from '@/domain/meets/documents';
import type { StoredFile } from '@/domain/uploads/stored-file';
import { filePaths } from '@/domain/uploads/stored-file';
import { pageAccess } from '@/domain/menus/access';
import { auditLogs } from '../../../server/db/schema/audit';
import { memberships, membershipRoles, menus, roleMenus, users } from '../../../server/db/schema/auth';
import { files } from '../../../server/db/schema/files';
import { meetPhotos, meets } from '../../../server/db/schema/meets';
import { certificateFileNames } from '../../../server/modules/meets/certificate-pdf';
import { dataOf, DEMO, orgOf } from '../../support/factories';
import { jobFile } from '../../support/jobs';
import { createTestApp, type TestApp } from '../../support/server-app';
import { multipartBody, noisyJpeg, png } from '../files/fixtures';

let t: TestApp;
let k12Id: string;
let springId: string;

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  k12Id = (await orgOf(t, DEMO.school)).orgId;
  springId = (await t.db.select({ id: meets.id }).from(meets).where(and(eq(meets.orgId, k12Id), eq(meets.name, '2026年春季田径运动会'))))[0].id;
});
afterAll(async () => {
  await t?.close();
});

/** Issuing is a job (docs/product-rules.md#jobs): start it, wait for it, download its file. */
const issue = async (templateId: string, account: string, payload: unknown) =>
  jobFile(t, await t.as(account).token(), (await t.as(account).post(`/api/busi/web/k12/sportsMeet/certificates/${templateId}/issue`, payload)).res);

async function upload(account: string, purpose: string, name: string, bytes: Buffer): Promise<{ status: number; file: StoredFile; msg: string }> {
  const part = multipartBody(name, bytes);
  const res = await t.as(account).post<StoredFile>(`${filePaths.upload}?purpose=${purpose}`, part.payload, { headers: { 'content-type': part.contentType } });
  return { status: res.status, file: res.body.data, msg: res.body.msg };
}
const stampPng = (side = 240) => sharp({ create: { width: side, height: side, channels: 4, background: { r: 200, g: 20, b: 20, alpha: 0.9 } } }).png().toBuffer();

const template = (over: Partial<CertificateForm> = {}): CertificateForm => ({ name: '田径获奖证书', orientation: 'landscape', fields: DEFAULT_CERTIFICATE_FIELDS, backgroundFileId: null, stampId: null, ...over });

describe('e-stamps', () => {
  it('takes PNG 1:1 stamps through the file store, at most 10 per organisation, with the product’s messages', async () => {
    // Judged by content: a JPEG named .png, and a 2:1 PNG, never become stamp files.
    const jpeg = await upload('school01', 'stamp', 'seal.png', await noisyJpeg(200));
    expect([jpeg.status, jpeg.msg]).toEqual([400, '文件格式错误']);
    const wide = await upload('school01', 'stamp', 'seal.png', await png(200, 100));
    expect([wide.status, wide.msg]).toEqual([400, '分辨率或尺寸不在允许范围内']);

    // A file uploaded for another purpose is not a stamp.
    const style = await upload('school01', 'style', 'photo.png', await png(300, 200));
    const wrong = await t.as('school01').post('/api/busi/web/k12/sportsMeet/stamps', { name: '校章', fileId: style.file.id });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ msg: '文件不存在或不属于本单位，请重新上传', data: { field: 'fileId' } });
    expect((await t.as('school01').post('/api/busi/web/k12/sportsMeet/stamps', { name: ' ', fileId: style.file.id })).body).toMatchObject({ msg: '请填写印章名称', data: { field: 'name' } });

    const added: StampRow[] = [];
    for (let i = 0; i < 10; i++) {
      const file = await upload('school01', 'stamp', `seal${i}.png`, await stampPng(200 + i));
      expect(file.status).toBe(200);
      const res = await t.as('school01').post<StampRow>('/api/busi/web/k12/sportsMeet/stamps', { name: `印章${i}`, fileId: file.file.id });
      expect(res.status).toBe(200);
      added.push(res.body.data);
    }
    expect(added[3]).toMatchObject({ name: '印章3', width: 203, height: 203 });
    const eleventh = await upload('school01', 'stamp', 'seal10.png', await stampPng());
    const refused = await t.as('school01').post('/api/busi/web/k12/sportsMeet/stamps', { name: '第十一个', fileId: eleventh.file.id });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('电子印章最多上传10个');
    expect((await t.as('school01', { language: 'en-US' }).post('/api/busi/web/k12/sportsMeet/stamps', { name: 'eleventh', fileId: eleventh.file.id })).body.msg).toBe('At most 10 e-stamps can be uploaded');

    const list = dataOf(await t.as('school01').get<StampRow[]>('/api/busi/web/k12/sportsMeet/stamps'));
    expect(list.map((s) => s.name)).toEqual(added.map((s) => s.name));
    // Another organisation sees none of them and cannot delete them; a teacher may not upload.
    expect(dataOf(await t.as('college01').get<StampRow[]>('/api/busi/web/gx/sportsMeet/stamps'))).toEqual([]);
    expect((await t.as('college01').delete(`/api/busi/web/gx/sportsMeet/stamps/${added[0].id}`)).status).toBe(404);
    expect((await t.as('teacher01').post('/api/busi/web/k12/sportsMeet/stamps', { name: 'x', fileId: eleventh.file.id })).status).toBe(403);

    // Deleting frees a place; its file goes with it.
    expect((await t.as('school01').delete(`/api/busi/web/k12/sportsMeet/stamps/${added[9].id}`)).status).toBe(200);
    const [gone] = await t.db.select({ deletedAt: files.deletedAt }).from(files).where(eq(files.id, added[9].fileId));
    expect(gone.deletedAt).not.toBeNull();
    expect((await t.as('school01').post('/api/busi/web/k12/sportsMeet/stamps', { name: '第十个', fileId: eleventh.file.id })).status).toBe(200);
    const audited = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'meetStamp'), eq(auditLogs.entityId, added[9].id)));
    expect(audited.map((a) => a.action).sort()).toEqual(['create', 'delete']);
  });
});

describe('certificate templates and issuing', () => {
  let stamp: StampRow;
  let tpl: CertificateRow;

  beforeAll(async () => {
    const file = await upload('school01', 'stamp', 'school-seal.png', await stampPng());
    // The stamp test may have filled the ten places: make room.
    const list = dataOf(await t.as('school01').get<StampRow[]>('/api/busi/web/k12/sportsMeet/stamps'));
    if (list.length >= 10) await t.as('school01').delete(`/api/busi/web/k12/sportsMeet/stamps/${list[0].id}`);
    stamp = dataOf(await t.as('school01').post<StampRow>('/api/busi/web/k12/sportsMeet/stamps', { name: '学校公章', fileId: file.file.id }));
  });

  it('saves a template with a background, positioned texts and a stamp; refuses bad ones naming the field', async () => {
    const bg = await upload('school01', 'certificate', 'bg.jpg', await noisyJpeg(600));
    expect(bg.status).toBe(200);
    const bad = await t.as('school01').post('/api/busi/web/k12/sportsMeet/certificates', template({ fields: [{ field: 'name', x: 300, y: 50, size: 20, color: '#000000' }] }));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ msg: '位置须在页面范围内', data: { field: 'fields.0.x' } });
    expect((await t.as('school01').post('/api/busi/web/k12/sportsMeet/certificates', template({ fields: [{ field: 'text', x: 10, y: 10, size: 20, color: '#000000' }] }))).body).toMatchObject({ msg: '请填写固定文字', data: { field: 'fields.0.text' } });
    expect((await t.as('school01').post('/api/busi/web/k12/sportsMeet/certificates', template({ fields: [{ field: 'name', x: 10, y: 10, size: 200, color: 'red' }] }))).body).toMatchObject({ msg: '字号为6到96' });
    expect((await t.as('school01').post('/api/busi/web/k12/sportsMeet/certificates', template({ stampId: stamp.id }))).body).toMatchObject({ msg: '请设置印章位置（须在页面范围内）', data: { field: 'stampX' } });
    // Portrait pages are 210 mm wide.
    expect((await t.as('school01').post('/api/busi/web/k12/sportsMeet/certificates', template({ orientation: 'portrait', fields: [{ field: 'name', x: 250, y: 10, size: 20, color: '#000000' }] }))).body).toMatchObject({ data: { field: 'fields.0.x' } });
    // Files and stamps of the tenant only.
    const style = await upload('school01', 'style', 'p.png', await png(300, 200));
    expect((await t.as('school01').post('/api/busi/web/k12/sportsMeet/certificates', template({ backgroundFileId: style.file.id }))).body).toMatchObject({ data: { field: 'backgroundFileId' } });
    const foreign = await upload('college01', 'stamp', 'gx.png', await stampPng());
    const gxStamp = dataOf(await t.as('college01').post<StampRow>('/api/busi/web/gx/sportsMeet/stamps', { name: '学院章', fileId: foreign.file.id }));
    expect((await t.as('school01').post('/api/busi/web/k12/sportsMeet/certificates', template({ stampId: gxStamp.id, stampX: 230, stampY: 170, stampSize: 40 }))).body).toMatchObject({ msg: '印章不存在', data: { field: 'stampId' } });

    const fields = [...DEFAULT_CERTIFICATE_FIELDS, { field: 'text' as const, x: 148.5, y: 60, size: 40, color: '#b91c1c', align: 'center' as const, bold: true, text: '荣誉证书' }];
    const res = await t.as('school01').post<CertificateRow>('/api/busi/web/k12/sportsMeet/certificates', template({ backgroundFileId: bg.file.id, fields, stampId: stamp.id, stampX: 225, stampY: 170, stampSize: 40 }));
    expect(res.status).toBe(200);
    tpl = res.body.data;
    expect(tpl).toMatchObject({ stampName: '学校公章', stampFileId: stamp.fileId, version: 1 });
    expect(tpl.fields).toHaveLength(fields.length);

    // Edit with the version read; a stale version is 409.
    const saved = await t.as('school01').put<CertificateRow>(`/api/busi/web/k12/sportsMeet/certificates/${tpl.id}`, { ...template({ backgroundFileId: bg.file.id, fields, stampId: stamp.id, stampX: 225, stampY: 170, stampSize: 36 }), version: 1 });
    expect(saved.body.data).toMatchObject({ stampSize: 36, version: 2 });
    expect((await t.as('school01').put(`/api/busi/web/k12/sportsMeet/certificates/${tpl.id}`, { ...template(), version: 1 })).status).toBe(409);
    tpl = saved.body.data;

    const page = dataOf(await t.as('school01').get<Page<CertificateRow>>('/api/busi/web/k12/sportsMeet/certificates/page?size=10'));
    expect(page.records.map((r) => r.id)).toContain(tpl.id);
    // Another organisation: 404 for the template, and an empty list; a teacher may not add.
    expect((await t.as('college01').get(`/api/busi/web/gx/sportsMeet/certificates/${tpl.id}`)).status).toBe(404);
    expect((await t.as('college01').put(`/api/busi/web/gx/sportsMeet/certificates/${tpl.id}`, { ...template(), version: 2 })).status).toBe(404);
    expect(dataOf(await t.as('college01').get<Page<CertificateRow>>('/api/busi/web/gx/sportsMeet/certificates/page')).total).toBe(0);
    expect((await t.as('teacher01').post('/api/busi/web/k12/sportsMeet/certificates', template())).status).toBe(403);
  });

  it('refuses deleting a stamp a template uses, naming the template', async () => {
    const res = await t.as('school01').delete(`/api/busi/web/k12/sportsMeet/stamps/${stamp.id}`);
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('该数据已被证书模板使用（1条：田径获奖证书），不能删除');
  });

  it('issues one PDF with a page per published place in the range, Chinese font embedded as a subset', async () => {
    const options = dataOf(await t.as('teacher01').get<{ id: string; name: string; events: { id: string; name: string; groupName: string; places: number }[] }[]>('/api/busi/web/k12/sportsMeet/certificates/issue/options'));
    const spring = options.find((m) => m.id === springId)!;
    expect(spring.events.length).toBeGreaterThan(0);
    const run = spring.events.find((e) => e.groupName === '男子组' && e.name === '100米')!;
    expect(run.places).toBeGreaterThanOrEqual(3);

    // A teacher issues (the catalogue gives teachers issue and download).
    const res = await issue(tpl.id, 'teacher01', { meetId: springId, eventId: run.id, fromPlace: 1, toPlace: 3 });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain('2026年春季田径运动会-获奖证书.pdf');
    const pdf = await PDFDocument.load(res.rawPayload);
    expect(pdf.getPageCount()).toBe(3);
    const [w, h] = [pdf.getPage(0).getWidth(), pdf.getPage(0).getHeight()];
    expect([Math.round(w), Math.round(h)]).toEqual([842, 595]);
    // The Chinese font is embedded, as a subset: the whole font is 10 MB, the PDF stays well under 1 MB.
    const fontNames = pdf.context
      .enumerateIndirectObjects()
      .map(([, o]) => (o instanceof PDFDict ? o.get(PDFName.of('BaseFont')) : undefined))
      .filter((n) => n instanceof PDFName)
      .map((n) => n.decodeText());
    expect(fontNames.some((n) => n.startsWith('NotoSansSC'))).toBe(true);
    expect(res.rawPayload.length).toBeLessThan(1_000_000);
    // Every glyph of the embedded subsets has an outline (no character prints blank), the space aside.
    for (const [, o] of pdf.context.enumerateIndirectObjects()) {
      const file = o instanceof PDFDict ? o.lookup(PDFName.of('FontFile2')) : undefined;
      if (!(file instanceof PDFRawStream)) continue;
      const font = fontkit.create(Buffer.from(decodePDFRawStream(file).decode()));
      const blank = Array.from({ length: font.numGlyphs - 1 }, (_, i) => font.getGlyph(i + 1)).filter((g) => g.path.toSVG() === '');
      expect(blank.length).toBeLessThanOrEqual(1);
    }

    // Every event: as many pages as published places 1–8 of the meet's last rounds.
    const all = await issue(tpl.id, 'school01', { meetId: springId, fromPlace: 1, toPlace: 8 });
    const expected = spring.events.reduce((n, e) => n + Math.min(e.places, 8), 0);
    expect((await PDFDocument.load(all.rawPayload)).getPageCount()).toBe(expected);
    const audited = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'meetCertificate'), eq(auditLogs.action, 'issue')));
    expect(audited.length).toBeGreaterThanOrEqual(2);
  });

  it('issues a zip with one PDF per athlete named by event, place and name, and an index naming them', async () => {
    const res = await issue(tpl.id, 'school01', { meetId: springId, fromPlace: 1, toPlace: 2, format: 'zip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const zip = unzipSync(new Uint8Array(res.rawPayload));
    const names = Object.keys(zip);
    const pdfs = names.filter((n) => n.endsWith('.pdf'));
    const csv = Buffer.from(zip['index.csv']).toString('utf8');
    const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('文件,姓名,班级,项目,名次,成绩');
    expect(lines).toHaveLength(pdfs.length + 1);
    // The Chinese names survive the round trip: the index's first row names the first file, which exists as named.
    const [file, name, , event, place] = lines[1].split(',');
    expect(lines[1]).toMatch(/^男子组 100米-01-.+\.pdf,.+,.+,男子组 100米,第1名,\d+\.\d\d秒$/);
    expect([event, place]).toEqual(['男子组 100米', '第1名']);
    expect(file).toBe(`男子组 100米-01-${name}.pdf`);
    expect(pdfs).toContain(file);
    expect(new Set(pdfs).size).toBe(pdfs.length);
    // Each Chinese name carries the UTF-8 flag (general purpose bit 11), so unzip tools do not read it as CP437/GBK.
    const raw = res.rawPayload;
    let flagged = 0;
    for (let at = raw.indexOf('PK\x03\x04'); at >= 0; at = raw.indexOf('PK\x03\x04', at + 4)) {
      const entry = raw.subarray(at + 30, at + 30 + raw.readUInt16LE(at + 26));
      if (entry.some((b) => b >= 0x80)) flagged += raw.readUInt16LE(at + 6) & 0x800 ? 1 : 0;
    }
    expect(flagged).toBe(pdfs.length);
    for (const f of pdfs.slice(0, 2)) expect((await PDFDocument.load(zip[f])).getPageCount()).toBe(1);
  });

  it('names zip entries safely for file systems and uniquely', () => {
    expect(certificateFileNames([
      { event: '男子组 4×100米/接力', place: 1, name: '张三' },
      { event: '男子组 4×100米/接力', place: 1, name: '张三' },
      { event: 'a:b*c?', place: 12, name: ' ..李"四<>|. ' },
      { event: '跳远', place: 3, name: '\u0000' },
    ])).toEqual(['男子组 4×100米_接力-01-张三.pdf', '男子组 4×100米_接力-01-张三(2).pdf', 'a_b_c_-12-李_四_.pdf', '跳远-03-_.pdf']);
  });

  it('refuses bad issues: places, no published result, another meet’s event, another organisation’s meet', async () => {
    const url = `/api/busi/web/k12/sportsMeet/certificates/${tpl.id}/issue`;
    expect((await t.as('school01').post(url, { meetId: springId, fromPlace: 5, toPlace: 2 })).body).toMatchObject({ msg: '名次范围为1到99，且结束名次不小于起始名次', data: { field: 'toPlace' } });
    expect((await t.as('school01').post(url, { meetId: springId, fromPlace: 90, toPlace: 99 })).body).toMatchObject({ msg: '所选名次范围内没有已发布的成绩' });
    const [autumn] = await t.db.select({ id: meets.id }).from(meets).where(and(eq(meets.orgId, k12Id), eq(meets.name, '2026年秋季运动会')));
    const options = dataOf(await t.as('school01').get<{ id: string; events: { id: string }[] }[]>('/api/busi/web/k12/sportsMeet/certificates/issue/options'));
    const springEvent = options.find((m) => m.id === springId)!.events[0].id;
    expect((await t.as('school01').post(url, { meetId: autumn.id, eventId: springEvent })).body).toMatchObject({ msg: '该项目不属于所选运动会', data: { field: 'eventId' } });
    // The autumn meet has no published result.
    expect((await t.as('school01').post(url, { meetId: autumn.id })).body.msg).toBe('所选名次范围内没有已发布的成绩');
    // The gx college: its own template cannot print the school's meet, and the school's template is 404.
    const gxTpl = dataOf(await t.as('college01').post<CertificateRow>('/api/busi/web/gx/sportsMeet/certificates', template()));
    expect((await t.as('college01').post(`/api/busi/web/gx/sportsMeet/certificates/${gxTpl.id}/issue`, { meetId: springId })).status).toBe(404);
    expect((await t.as('college01').post(`/api/busi/web/gx/sportsMeet/certificates/${tpl.id}/issue`, { meetId: springId })).status).toBe(404);
  });

  it('takes the download button as well as issue: a role without it is refused the file, and still reads the options', async () => {
    const [teacher] = await t.db
      .select({ roleId: membershipRoles.roleId })
      .from(users)
      .innerJoin(memberships, eq(memberships.userId, users.id))
      .innerJoin(membershipRoles, eq(membershipRoles.membershipId, memberships.id))
      .where(eq(users.accountNum, 'teacher01'));
    const [button] = await t.db.select({ menuId: menus.menuId }).from(menus).where(eq(menus.permission, pageAccess('single.sportsMeet.certificate').need('download')));
    await t.db.delete(roleMenus).where(and(eq(roleMenus.roleId, teacher.roleId), eq(roleMenus.menuId, button.menuId)));
    const res = await t.as('teacher01').post(`/api/busi/web/k12/sportsMeet/certificates/${tpl.id}/issue`, { meetId: springId, fromPlace: 1, toPlace: 1 });
    expect(res.status).toBe(403);
    expect(res.res.headers['content-type']).toMatch(/json/);
    expect((await t.as('teacher01').get('/api/busi/web/k12/sportsMeet/certificates/issue/options')).status).toBe(200);
    await t.db.insert(roleMenus).values({ roleId: teacher.roleId, menuId: button.menuId });
    expect((await t.as('teacher01').post(`/api/busi/web/k12/sportsMeet/certificates/${tpl.id}/issue`, { meetId: springId, fromPlace: 1, toPlace: 1 })).status).toBe(200);
  });
});

describe('style photos', () => {
  it('adds uploaded images to a meet, edits captions, deletes; at most 100 per meet', async () => {
    const base = `/api/busi/web/k12/sportsMeet/${springId}/photos`;
    // Images only, judged by content; at most 20 MB (the store's limit for the purpose).
    const pdf = await upload('school01', 'style', 'fake.jpg', Buffer.from('%PDF-1.7\n' + 'x'.repeat(2000)));
    expect([pdf.status, pdf.msg]).toEqual([400, '文件格式错误']);
    const a = await upload('school01', 'style', '起跑.jpg', await noisyJpeg(900));
    const b = await upload('school01', 'style', '冲线.png', await png(640, 480));
    const res = await t.as('school01').post<PhotoRow[]>(base, { fileIds: [a.file.id, b.file.id] });
    expect(res.status).toBe(200);
    const added = res.body.data;
    expect(added.map((p) => p.name)).toEqual(['起跑.jpg', '冲线.png']);

    // Captions: length rule, stale version 409.
    const long = await t.as('school01').put(`${base}/${added[0].id}`, { caption: '长'.repeat(51), version: 1 });
    expect(long.body).toMatchObject({ msg: '图片说明最多50个字', data: { field: 'caption' } });
    const captioned = await t.as('school01').put<PhotoRow>(`${base}/${added[0].id}`, { caption: '男子100米决赛起跑', version: 1 });
    expect(captioned.body.data).toMatchObject({ caption: '男子100米决赛起跑', version: 2 });
    expect((await t.as('school01').put(`${base}/${added[0].id}`, { caption: 'x', version: 1 })).status).toBe(409);
    expect(dataOf(await t.as('school01').get<PhotoRow[]>(base)).map((p) => p.caption)).toEqual(['男子100米决赛起跑', null]);

    // A file of another purpose, or of another organisation, is refused.
    const stampFile = await upload('school01', 'stamp', 's.png', await stampPng());
    expect((await t.as('school01').post(base, { fileIds: [stampFile.file.id] })).body).toMatchObject({ data: { field: 'fileIds' } });
    const gxFile = await upload('college01', 'style', 'gx.png', await png(100, 100));
    expect((await t.as('school01').post(base, { fileIds: [gxFile.file.id] })).status).toBe(400);
    // Another organisation: 404 for the meet and its photos.
    expect((await t.as('college01').get(`/api/busi/web/gx/sportsMeet/${springId}/photos`)).status).toBe(404);
    expect((await t.as('college01').delete(`/api/busi/web/gx/sportsMeet/${springId}/photos/${added[1].id}`)).status).toBe(404);

    // Fill to 99 (rows pointing at copies of one stored image), then 2 more are refused whole and 1 is taken.
    const [row] = await t.db.select().from(files).where(eq(files.id, b.file.id));
    const { id: _id, ...copy } = row;
    const copies = await t.db.insert(files).values(Array.from({ length: 97 }, () => copy)).returning({ id: files.id });
    await t.db.insert(meetPhotos).values(copies.map((c) => ({ meetId: springId, fileId: c.id })));
    const more = await Promise.all([1, 2].map(async (i) => (await upload('school01', 'style', `more${i}.png`, await png(200 + i, 100))).file.id));
    const over = await t.as('school01').post(base, { fileIds: more });
    expect(over.status).toBe(400);
    expect(over.body.msg).toBe('导入失败，每个运动会最多支持100张图片');
    expect((await t.as('school01', { language: 'en-US' }).post(base, { fileIds: more })).body.msg).toBe('Import failed: each meet supports at most 100 images');
    expect((await t.as('school01').post(base, { fileIds: [more[0]] })).status).toBe(200);
    expect(dataOf(await t.as('school01').get<PhotoRow[]>(base))).toHaveLength(100);

    // Deleting a photo removes its file too and frees a place.
    expect((await t.as('school01').delete(`${base}/${added[1].id}`)).status).toBe(200);
    const [gone] = await t.db.select({ deletedAt: files.deletedAt }).from(files).where(eq(files.id, b.file.id));
    expect(gone.deletedAt).not.toBeNull();
    expect((await t.as('school01').post(base, { fileIds: [more[1]] })).status).toBe(200);
  });
});
