import { createHash } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createRandom } from '../../server/seed/people';
import { driveContest, tinyMp4, uploadAppVideo, type Send } from '../../server/simulate/traffic';
import { clickRowAction, DEMO_PASSWORD, shot, signIn } from './support';

/**
 * Activities fed through the device and app API (docs/product-rules.md#ingest): the simulator's device enters a new
 * contest while its data screen is open, an early end refuses the next entry; homework handed in through the app with
 * a video is reviewed in the console.
 */

/** The simulator's HTTP calls against the e2e server. */
const sendOver =
  (request: APIRequestContext): Send =>
  async (method, url, headers, body) => {
    const res = await request.fetch(url, { method, headers, ...(body === undefined ? {} : { data: body as object }) });
    const text = await res.text();
    return { status: res.status(), json: text ? (JSON.parse(text) as unknown) : null, headers: res.headers() };
  };

const chinaDay = (plusDays = 0) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(Date.now() + plusDays * 86_400_000));

async function consoleAs(page: Page, account: string) {
  await page.goto('/busi/');
  await signIn(page, account);
  await expect(page).toHaveURL(/\/k12\//);
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('tiyu.token') ?? 'null') as { access_token: string });
  return { authorization: `bearer ${token.access_token}` };
}

async function ok<T>(res: { status(): number; json(): Promise<unknown>; text(): Promise<string> }): Promise<T> {
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

test('a contest fills from a simulated device, and refuses entries once ended early', async ({ page, request }) => {
  const auth = await consoleAs(page, 'school01');
  const device = (await ok<{ records: { id: string; activatedAt: string | null; status: string }[] }>(await request.get('/api/busi/web/k12/device/page?size=50', { headers: auth }))).records.find(
    (d) => d.activatedAt && d.status !== 'disabled',
  )!;
  const credentials = await ok<{ serialNo: string; secret: string }>(await request.post(`/api/busi/web/k12/device/${device.id}/secret`, { headers: auth }));
  const roster = await ok<{ id: string; classId: string }[]>(await request.get('/api/v1/device/students', { headers: { authorization: `Basic ${Buffer.from(`${credentials.serialNo}:${credentials.secret}`).toString('base64')}` } }));
  const classId = roster[0].classId;
  const contest = await ok<{ id: string }>(
    await request.post('/api/busi/web/k12/onlineManagement/competitionRank', {
      headers: auth,
      data: { name: 'e2e 设备跳绳赛', startDate: chinaDay(), endDate: chinaDay(5), classIds: [classId], items: ['rope1min'], rule: 'best' },
    }),
  );

  await page.goto('/busi/k12/onlineManagement/competitionRank');
  await clickRowAction(page.getByTestId('contest-list').getByRole('row').filter({ hasText: 'e2e 设备跳绳赛' }), 'row-data');
  const data = page.getByTestId('contest-data');
  await expect(data).toContainText('e2e 设备跳绳赛');
  const rows = data.getByRole('table').first().locator('[data-slot=data-table-row]');
  await expect(rows).toHaveCount(0);

  // The simulator's device enters the class's students (the running board refreshes on its own).
  const sim = await driveContest(
    sendOver(request),
    credentials,
    { id: contest.id, orgId: '', items: ['rope1min'], start: new Date(`${chinaDay()}T00:00:00+08:00`), end: new Date(`${chinaDay(6)}T00:00:00+08:00`), gradeNos: [], classIds: [classId], collegeIds: [] },
    roster.filter((s) => s.classId === classId).map((s) => ({ ...s, gradeNo: 0, collegeId: null })),
    { days: 1, perDay: 12, now: new Date(), rnd: createRandom(7) },
  );
  expect(sim.accepted).toBeGreaterThan(0);
  expect(sim.rejected).toBe(0);
  await expect(rows.first()).toBeVisible();
  await shot(page, 'activities-flow-board');

  await page.goBack();
  const row = page.getByTestId('contest-list').getByRole('row').filter({ hasText: 'e2e 设备跳绳赛' });
  await clickRowAction(row, 'row-end');
  await page.getByRole('alertdialog').getByRole('button', { name: '提前结束' }).click();
  await expect(row).toContainText('已结束');

  const late = await ok<{ rejected: number; results: { reason?: string }[] }>(
    await request.post('/api/v1/device/records', {
      headers: { authorization: `Basic ${Buffer.from(`${credentials.serialNo}:${credentials.secret}`).toString('base64')}` },
      data: { records: [{ clientId: `e2e-late-${Date.now()}`, studentId: roster.find((s) => s.classId === classId)!.id, kind: 'contest', refId: contest.id, item: 'rope1min', value: 150, measuredAt: new Date().toISOString() }] },
    }),
  );
  expect(late.rejected).toBe(1);
  expect(late.results[0].reason).toContain('已结束');
});

test('homework handed in through the app with a video is reviewed in the console', async ({ page, request }) => {
  const send = sendOver(request);
  const login = await ok<{ access_token: string }>(
    await request.post('/api/v1/app/login', { data: { account: 'student001', password: createHash('sha256').update(DEMO_PASSWORD).digest('hex') } }),
  );
  const app = { authorization: `bearer ${login.access_token}` };
  const me = await ok<{ students: { id: string; classId: string }[] }>(await request.get('/api/v1/app/me', { headers: app }));
  const student = me.students[0];

  const auth = await consoleAs(page, 'teacher01');
  const hw = await ok<{ id: string }>(
    await request.post('/api/busi/web/k12/sportsHomework/homeworkManagement', {
      headers: auth,
      data: { name: 'e2e视频作业', note: '', classIds: [student.classId], items: [{ item: 'rope1min', target: 120, intensity: 'medium' }], cycle: 'daily', startDate: chinaDay(), endDate: chinaDay(3) },
    }),
  );
  const videos = [await uploadAppVideo(send, app, student.id, 'rope-a.mp4', tinyMp4(1)), await uploadAppVideo(send, app, student.id, 'rope-b.mp4', tinyMp4(2))];
  const sent = await ok<{ accepted: number }>(
    await request.post('/api/v1/app/records', {
      headers: app,
      data: {
        records: videos.map((videoFileId, i) => ({ clientId: `e2e-hw-${Date.now()}-${i}`, kind: 'homework', refId: hw.id, item: 'rope1min', value: 130 + i, measuredAt: new Date(Date.now() - 120_000).toISOString(), videoFileId })),
      },
    }),
  );
  expect(sent.accepted).toBe(2);

  await page.goto('/busi/k12/sportsHomework/homeworkManagement');
  await page.getByTestId('homework-list').getByRole('row', { name: /e2e视频作业/ }).getByTestId('row-detail').click();
  const detail = page.getByTestId('homework-detail');
  await detail.getByTestId('homework-tab-submissions').click();
  const pending = detail.locator('[data-review=pending]');
  await expect(pending).toHaveCount(2);
  await detail.getByTestId('play-video').first().click();
  await expect(page.getByRole('dialog').locator('video')).toBeVisible();
  await page.keyboard.press('Escape');
  await detail.getByTestId('review-valid').first().click();
  await expect(pending).toHaveCount(1);
  await detail.locator('[data-slot=data-table-row]').filter({ has: page.locator('[data-review=pending]') }).getByTestId('review-invalid').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('review-invalid-confirm').click();
  await expect(dialog.getByRole('alert')).toHaveText('请填写无效原因');
  await dialog.getByTestId('review-reason').fill('视频不清晰');
  await dialog.getByTestId('review-invalid-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(pending).toHaveCount(0);
  await expect(detail.locator('[data-review=valid]')).toHaveCount(1);
  await expect(detail.locator('[data-review=invalid]')).toHaveCount(1);
});
