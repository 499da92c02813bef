import { expect, test, type Page } from '@playwright/test';
import { axeProblems, choose, clickRowAction, signIn } from './support';

/**
 * The live lesson monitor on a teacher's phone (docs/product-rules.md#lesson-load): a device opens a lesson, the
 * teacher lends bands from the console, the bands' samples arrive through the device API
 * (POST /api/v1/device/lessons/:id/heart-rate, the ingest), the tiles update, a danger alert appears and is
 * acknowledged with a note. Nothing here writes to the database behind the server's back.
 */
test.use({ viewport: { width: 390, height: 844 } });

const basic = (c: { serialNo: string; secret: string }) => ({ authorization: `Basic ${Buffer.from(`${c.serialNo}:${c.secret}`).toString('base64')}` });
async function ok<T>(res: { status(): number; json(): Promise<unknown>; text(): Promise<string> }): Promise<T> {
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

/** Signed in as the school's administrator; a lesson opened by a device 5 minutes ago, with two new bands of the school. */
async function lessonWithBands(page: Page) {
  const request = page.request;
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('tiyu.token') ?? 'null') as { access_token: string });
  const auth = { authorization: `bearer ${token.access_token}` };
  const suffix = Date.now().toString(36).toUpperCase();
  const bands = [`HR-E2E-${suffix}-1`, `HR-E2E-${suffix}-2`];
  for (const serialNo of bands) {
    await ok(await request.post('/api/busi/web/k12/device', { headers: auth, data: { name: `手环 ${serialNo.slice(-1)}`, serialNo, mac: '', venueId: '', parentId: '', status: 'online', kind: 'band', softwareVersion: '', activated: false } }));
  }
  const terminal = (await ok<{ records: { id: string; activatedAt: string | null; status: string; kind: string }[] }>(await request.get('/api/busi/web/k12/device/page?size=50&kind=terminal', { headers: auth }))).records.find(
    (d) => d.activatedAt && d.status !== 'disabled',
  )!;
  const device = await ok<{ serialNo: string; secret: string }>(await request.post(`/api/busi/web/k12/device/${terminal.id}/secret`, { headers: auth }));
  const roster = await ok<{ id: string; classId: string }[]>(await request.get('/api/v1/device/students', { headers: basic(device) }));
  const lesson = await ok<{ id: string }>(
    await request.post('/api/v1/device/lessons', {
      headers: basic(device),
      data: { clientId: `e2e-monitor-${suffix}`, type: 'practise', classId: roster[0].classId, items: ['rope1min'], startedAt: new Date(Date.now() - 5 * 60_000).toISOString() },
    }),
  );
  return { lessonId: lesson.id, device, bands };
}

/**
 * Lends the two new bands to the first two students of the roster through the monitor list's dialog (with `inOrder`,
 * the school's other free bands then go to the rest in roster order).
 */
async function lend(page: Page, lessonId: string, bands: readonly string[], inOrder = false) {
  await page.goto('/busi/k12/class/monitor');
  // On a phone the list's rows are cards (data-slot=data-table-row like a table's rows).
  const row = page.getByTestId('monitor-list').locator('[data-slot=data-table-row]').filter({ has: page.locator(`a[href$="${lessonId}"]`) });
  await clickRowAction(row, 'row-edit');
  const dialog = page.getByTestId('bands-dialog');
  for (const [i, band] of bands.entries()) await choose(dialog.getByRole('combobox').nth(i), new RegExp(band));
  if (inOrder) await dialog.getByTestId('bands-assign').click();
  await dialog.getByTestId('form-save').click();
  await expect(dialog).toBeHidden();
}

test('a lesson in progress gets bands from the console and its live view opens on a phone', async ({ page }) => {
  test.slow();
  const { lessonId, bands } = await lessonWithBands(page);
  await lend(page, lessonId, bands, true);
  await page.locator(`a[href$="${lessonId}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/k12/class/monitor/live/${lessonId}$`));
  const tiles = page.getByTestId('live-tile');
  await expect(tiles.first()).toBeVisible();
  // Lent, nothing reported yet: waiting for data.
  await expect(page.getByTestId('live-tiles').getByText(bands[0])).toBeVisible();
  await expect(tiles.filter({ hasText: bands[0] })).toHaveAttribute('data-state', 'waiting');
  expect(await axeProblems(page)).toEqual([]);
});

test('the tiles follow the samples posted by the bands; a danger alert is acknowledged with a note', async ({ page }) => {
  test.slow();
  const { lessonId, device, bands } = await lessonWithBands(page);
  const post = (samples: { band: string; at: string; bpm: number }[]) => page.request.post(`/api/v1/device/lessons/${lessonId}/heart-rate`, { headers: basic(device), data: { samples } });
  await lend(page, lessonId, bands);
  await page.goto(`/busi/k12/class/monitor/live/${lessonId}`);
  const tile = (band: string) => page.getByTestId('live-tile').filter({ hasText: band });
  await expect(tile(bands[0])).toHaveAttribute('data-state', 'waiting');

  // 40 s of a calm heart on band 2 and of 215 bpm (danger at any school age) on band 1, ending now.
  const now = Math.floor(Date.now() / 1000) * 1000;
  const at = (s: number) => new Date(now - (40 - s) * 1000).toISOString();
  await ok(await post(Array.from({ length: 40 }, (_, s) => ({ band: bands[1], at: at(s), bpm: 100 + (s % 3) }))));
  await ok(await post(Array.from({ length: 40 }, (_, s) => ({ band: bands[0], at: at(s), bpm: 215 }))));

  // The page reads again within seconds: the tiles and the alert appear without a reload.
  await expect(tile(bands[0])).toHaveAttribute('data-state', 'reading', { timeout: 15_000 });
  await expect(tile(bands[0]).getByTestId('tile-bpm')).toHaveText('215');
  await expect(tile(bands[0])).toContainText('危险');
  await expect(tile(bands[1]).getByTestId('tile-bpm')).toHaveText(/^10[0-2]$/);
  const alert = page.getByTestId('live-alert').filter({ hasText: '心率持续过高' });
  await expect(alert).toBeVisible();

  await alert.getByTestId('alert-acknowledge').click();
  const dialog = page.getByTestId('acknowledge-dialog');
  await dialog.getByRole('textbox').fill('已让学生停下休息');
  await dialog.getByTestId('form-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('live-alert').filter({ hasText: '心率持续过高' })).toHaveCount(0);
  await expect(page.getByTestId('live-history')).toContainText('已让学生停下休息');
});
