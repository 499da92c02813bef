import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CERTIFICATE_FIELDS } from '@/domain/meets/documents';
import type { JobRow } from '@/domain/jobs';
import { auditLogs } from '../../../server/db/schema/audit';
import { files } from '../../../server/db/schema/files';
import { meets } from '../../../server/db/schema/meets';
import { dataOf, DEMO, orgOf } from '../../support/factories';
import { waitForJob } from '../../support/jobs';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
const api = '/api/busi/web';
let springId: string;
let tplId: string;

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  const k12 = await orgOf(t, DEMO.school);
  springId = (await t.db.select({ id: meets.id }).from(meets).where(and(eq(meets.orgId, k12.orgId), eq(meets.name, '2026年春季田径运动会'))))[0].id;
  const tpl = await t.as(DEMO.school).post<{ id: string }>(`${api}/k12/sportsMeet/certificates`, { name: '任务测试证书', orientation: 'landscape', fields: DEFAULT_CERTIFICATE_FIELDS, backgroundFileId: null, stampId: null });
  tplId = dataOf(tpl).id;
});
afterAll(async () => {
  await t?.close();
});

const startIssue = async (account: string, payload: Record<string, unknown>) => {
  const res = await t.as(account).post<{ id: string }>(`${api}/k12/sportsMeet/certificates/${tplId}/issue`, { meetId: springId, ...payload });
  expect(res.status).toBe(200);
  return res.body.data.id;
};

describe('jobs', () => {
  it('issues certificates as a job: it answers at once, its progress moves, the tasks list shows it, the file downloads', async () => {
    const id = await startIssue('teacher01', { fromPlace: 1, toPlace: 8, format: 'zip' });
    const seen = await waitForJob(t, await t.as('teacher01').token(), id);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ kind: 'certificates', state: 'done', error: null });
    expect(last.done).toBe(last.total);
    expect(last.total).toBeGreaterThan(2);
    expect(last.result?.message).toBe(`已生成 ${last.result?.counts?.certificates} 张证书`);
    // The bar moved: a running state was seen part way, with a translated stage.
    const partWay = seen.filter((j) => j.state === 'running' && j.done > 0 && j.done < j.total);
    expect(partWay.length).toBeGreaterThan(0);
    expect(['生成证书', '打包文件']).toContain(partWay[0].stage);

    const file = await t.as('teacher01').get(`${api}/jobs/${id}/download`);
    expect(file.status).toBe(200);
    expect(file.res.headers['content-type']).toBe('application/zip');
    expect(decodeURIComponent(String(file.res.headers['content-disposition']))).toContain('2026年春季田径运动会-获奖证书.zip');

    // The starter's list, in their language; the school's administrator sees it too.
    const mine = dataOf(await t.as('teacher01', { language: 'en-US' }).get<JobRow[]>(`${api}/jobs`));
    expect(mine.find((j) => j.id === id)).toMatchObject({ state: 'done', result: { message: `${last.result?.counts?.certificates} certificates issued` } });
    expect(dataOf(await t.as('school01').get<JobRow[]>(`${api}/jobs`)).map((j) => j.id)).toContain(id);
  });

  it('another organisation’s job is 404, its file too, and it is not listed', async () => {
    const id = await startIssue('school01', { fromPlace: 1, toPlace: 1 });
    await waitForJob(t, await t.as('school01').token(), id);
    expect((await t.as('college01').get(`${api}/jobs/${id}`)).status).toBe(404);
    expect((await t.as('college01').get(`${api}/jobs/${id}/download`)).status).toBe(404);
    expect(dataOf(await t.as('college01').get<JobRow[]>(`${api}/jobs`)).map((j) => j.id)).not.toContain(id);
    // The PDF itself is the same as ever.
    const pdf = (await t.as('school01').get(`${api}/jobs/${id}/download`)).res;
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect((await PDFDocument.load(pdf.rawPayload)).getPageCount()).toBeGreaterThan(0);
  });

  it('a job that throws half-way writes nothing and shows failed with a translated message', async () => {
    const real = { files: await t.db.$count(files), audits: await t.db.$count(auditLogs, eq(auditLogs.action, 'issue')) };
    // The job gets as far as its write (file row and audit entry) and then breaks.
    t.app.jobs.define('certificates', async ({ actor, progress, finish }) => {
      await progress(1, 2, 'jobs:stage.drawing');
      await finish(async (tx) => {
        await tx.insert(files).values({ orgId: actor.tenantOrgId, purpose: 'attachment', name: 'half.pdf', hash: '0'.repeat(64), size: 1, mime: 'application/pdf' });
        await tx.insert(auditLogs).values({ userId: actor.userId, orgId: actor.tenantOrgId, action: 'issue', entity: 'meetCertificate' });
        throw new Error('disk full');
      });
    });
    const id = await startIssue('school01', { fromPlace: 1, toPlace: 1 });
    const last = (await waitForJob(t, await t.as('school01').token(), id)).at(-1)!;
    expect(last).toMatchObject({ state: 'failed', result: null, error: '任务执行失败，未写入任何数据，请重试或联系管理员。' });
    expect(dataOf(await t.as('school01', { language: 'en-US' }).get<JobRow>(`${api}/jobs/${id}`)).error).toBe('The task failed and wrote nothing. Try again, or contact your administrator.');
    expect(await t.db.$count(files)).toBe(real.files);
    expect(await t.db.$count(auditLogs, eq(auditLogs.action, 'issue'))).toBe(real.audits);
    expect((await t.as('school01').get(`${api}/jobs/${id}/download`)).status).toBe(404);
  });
});
