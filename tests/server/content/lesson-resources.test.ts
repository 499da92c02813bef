import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { LessonResourceRow, LibraryRow } from '@/domain/content/lesson-resources';
import { filePaths } from '@/domain/uploads/stored-file';
import { files } from '../../../server/db/schema/files';
import { createTestApp, type TestApp } from '../../support/server-app';
import { mp4, multipartBody, PDF_HEAD, padded, png } from '../files/fixtures';
import { contentClient } from './content-fixtures';

let t: TestApp;
let c: ReturnType<typeof contentClient>;

beforeAll(async () => {
  t = await createTestApp();
  c = contentClient(t);
});
afterAll(async () => {
  await t?.close();
});

const school = 'k12/lessonAssistant/lessonResourceList';
const library = 'admin/lessonAssistant/resourceList';
const resource = (extra: Record<string, unknown> = {}) => ({ title: '立定跳远教学', grade: 5, topic: '立定跳远', description: '摆臂与蹬地', attachmentFileIds: [], ...extra });

describe('lesson resources', () => {
  it('saves a school resource with cover, video and attachments of the right kinds; a file of the wrong kind is refused naming the field', async () => {
    const cover = (await c.upload('school01', 'lessonCover', 'cover.png', await png(400, 300))).id;
    const video = (await c.upload('school01', 'lessonVideo', 'lesson.mp4', mp4(64 * 1024))).id;
    const plan = (await c.upload('school01', 'attachment', 'plan.pdf', padded(PDF_HEAD, 2048))).id;
    const saved = await c.data<LessonResourceRow>(c.call('POST', school, 'school01', resource({ coverFileId: cover, videoFileId: video, attachmentFileIds: [plan] })));
    expect(saved).toMatchObject({ title: '立定跳远教学', grade: 5, coverFileId: cover, videoFileId: video, attachmentFileIds: [plan], copiedFromId: null });
    await c.refused(c.call('POST', school, 'school01', resource({ videoFileId: cover })), 400, '文件不存在或不属于本单位，请重新上传', 'videoFileId');
    await c.refused(c.call('POST', school, 'school01', resource({ coverFileId: video })), 400, undefined, 'coverFileId');
    await c.refused(c.call('POST', school, 'school01', resource({ grade: 13 }), 'en-US'), 400, 'Choose the grade', 'grade');
    await c.refused(c.call('POST', school, 'school01', resource({ title: '' })), 400, '请填写资源标题', 'title');
    // The file store refuses a PNG renamed .mp4 where a lesson video is wanted.
    const fake = multipartBody('fake.mp4', await png(10, 10), 'video/mp4');
    const { res } = await t.as('school01').post(`${filePaths.upload}?purpose=lessonVideo`, fake.payload, { headers: { 'content-type': fake.contentType } });
    expect(res.statusCode).toBe(400);
    // Another school cannot see or change it.
    await c.refused(c.call('GET', `${school}/${saved.id}`, 'school02'), 404);
    await c.refused(c.call('PUT', `${school}/${saved.id}`, 'school02', resource({ version: saved.version })), 404);
    const updated = await c.data<LessonResourceRow>(c.call('PUT', `${school}/${saved.id}`, 'school01', resource({ title: '立定跳远（二）', version: saved.version })));
    expect(updated.title).toBe('立定跳远（二）');
    await c.refused(c.call('PUT', `${school}/${saved.id}`, 'school01', resource({ version: saved.version })), 409);
  });

  it('the district publishes to its schools: each browses the library and copies a resource, files included, once', async () => {
    const cover = (await c.upload('district01', 'lessonCover', 'c.png', await png(400, 300))).id;
    const video = (await c.upload('district01', 'lessonVideo', 'v.mp4', mp4(32 * 1024))).id;
    const pub = await c.data<LessonResourceRow>(c.call('POST', library, 'district01', resource({ title: '区级示范课：跳绳', grade: 3, topic: '跳绳', coverFileId: cover, videoFileId: video })));
    const page = await c.data<Page<LibraryRow>>(c.call('GET', `${school}/library/page?size=20`, 'school01'));
    const row = page.records.find((r) => r.id === pub.id)!;
    expect(row).toMatchObject({ title: '区级示范课：跳绳', hasCover: true, hasVideo: true, attachmentCount: 0, copyId: null });
    expect(row.orgName).toBeTruthy();
    // The school cannot read the district's files directly, nor edit the library; the library answers the cover.
    expect((await t.as('school01').get(filePaths.content(video)).then((a) => a.res)).statusCode).toBe(404);
    expect((await t.as('school01').get(filePaths.thumbnail(cover)).then((a) => a.res)).statusCode).toBe(404);
    const shown = await t.as('school01').get(`/api/busi/web/${school}/library/${pub.id}/cover`).then((a) => a.res);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/webp');
    expect(shown.headers['content-security-policy']).toContain('sandbox');
    expect(shown.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
    await c.refused(c.call('PUT', `${library}/${pub.id}`, 'school01', resource({ version: pub.version })), 403);

    const copy = await c.data<LessonResourceRow>(c.call('POST', `${school}/library/${pub.id}/copy`, 'school01'));
    expect(copy).toMatchObject({ title: '区级示范课：跳绳', grade: 3, copiedFromId: pub.id });
    expect(copy.videoFileId).not.toBe(video);
    // The copy's files are the school's own, with the same bytes.
    const got = await t.as('school01').get(filePaths.content(copy.videoFileId!)).then((a) => a.res);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.length).toBe(32 * 1024);
    expect(copy.coverFileId).not.toBe(cover);
    const copiedCover = await t.as('school01').get(filePaths.thumbnail(copy.coverFileId!)).then((a) => a.res);
    expect(copiedCover.statusCode).toBe(200);
    expect(copiedCover.rawPayload.equals(shown.rawPayload)).toBe(true);
    // The copy keeps its cover when the school saves it again (its files are its own).
    const [copied] = await t.db.select().from(files).where(eq(files.id, copy.videoFileId!));
    const [original] = await t.db.select().from(files).where(eq(files.id, video));
    expect(copied.hash).toBe(original.hash);
    await c.refused(c.call('POST', `${school}/library/${pub.id}/copy`, 'school01'), 409, '本校已复制过该资源');
    expect((await c.data<Page<LibraryRow>>(c.call('GET', `${school}/library/page?size=20`, 'school01'))).records.find((r) => r.id === pub.id)!.copyId).toBe(copy.id);
    // Another school in the district copies too; its copy is its own.
    const other = await c.data<LessonResourceRow>(c.call('POST', `${school}/library/${pub.id}/copy`, 'school02'));
    expect(other.id).not.toBe(copy.id);
    // The copy is the school's to change; the library's resource stays as it was.
    await c.data(c.call('PUT', `${school}/${copy.id}`, 'school01', resource({ title: '我校改编', coverFileId: copy.coverFileId, videoFileId: copy.videoFileId, version: copy.version })));
    expect((await c.data<LessonResourceRow>(c.call('GET', `${library}/${pub.id}`, 'district01'))).title).toBe('区级示范课：跳绳');
    // Deleting the library resource leaves the copies (without the link back).
    await c.data(c.call('DELETE', `${library}/${pub.id}`, 'district01'));
    expect((await c.data<LessonResourceRow>(c.call('GET', `${school}/${copy.id}`, 'school01'))).copiedFromId).toBeNull();
  });

  it('keeps the library to the schools below: a school\'s own resources and another district\'s are not in it', async () => {
    const own = await c.data<LessonResourceRow>(c.call('POST', school, 'school02', resource({ title: '东山小学自编' })));
    const page = await c.data<Page<LibraryRow>>(c.call('GET', `${school}/library/page?size=80`, 'school01'));
    expect(page.records.map((r) => r.id)).not.toContain(own.id);
    await c.refused(c.call('POST', `${school}/library/${own.id}/copy`, 'school01'), 404);
    // Nor is its cover: a resource outside the library, or one without a cover, answers 404.
    await c.refused(c.call('GET', `${school}/library/${own.id}/cover`, 'school01'), 404);
    const bare = await c.data<LessonResourceRow>(c.call('POST', library, 'district01', resource({ title: '无封面' })));
    await c.refused(c.call('GET', `${school}/library/${bare.id}/cover`, 'school01'), 404);
    // The university has no K12 lesson resources.
    await c.refused(c.call('GET', `${school}/page`, 'college01'), 403);
  });
});
