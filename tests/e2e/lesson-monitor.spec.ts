import { expect, test, type Locator, type Page } from '@playwright/test';
import { DANGER_SUSTAIN_S, SILENT_AFTER_S } from '../../src/domain/lesson-load/alerts';
import { runLive, type LiveScript } from '../../server/simulate/live';
import { axeProblems, choose, clickRowAction, signIn } from './support';

/**
 * The live lesson monitor on a teacher's phone (docs/product-rules.md#lesson-load): a device opens a lesson and the
 * teacher lends bands from the console; the product's device simulator (server/simulate/live.ts, what
 * `npm run simulate -- --live-lesson` runs) drives the demo school's hub over HTTP, its samples arrive through the
 * device API (POST /api/v1/device/lessons/:id/heart-rate, the ingest), the tiles update, its scripted danger student
 * and silent band raise alerts that are acknowledged with a note. Nothing here writes to the database behind the
 * server's back.
 */
test.use({ viewport: { width: 390, height: 844 } });

const basic = (c: { serialNo: string; secret: string }) => ({ authorization: `Basic ${Buffer.from(`${c.serialNo}:${c.secret}`).toString('base64')}` });
async function ok<T>(res: { status(): number; json(): Promise<unknown>; text(): Promise<string> }): Promise<T> {
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

/** Signed in as the school's administrator: the console API's authorization header. */
async function signedIn(page: Page) {
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('tiyu.token') ?? 'null') as { access_token: string });
  return { authorization: `bearer ${token.access_token}` };
}

/** Signed in as the school's administrator; a lesson opened by a device 5 minutes ago, with two new bands of the school. */
async function lessonWithBands(page: Page) {
  const request = page.request;
  const auth = await signedIn(page);
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
  return { lessonId: lesson.id, bands };
}

/**
 * Lends the two new bands to the first two students of the roster through the monitor list's dialog; the school's
 * other free bands then go to the rest in roster order.
 */
async function lend(page: Page, lessonId: string, bands: readonly string[]) {
  await page.goto('/busi/k12/class/monitor');
  // On a phone the list's rows are cards (data-slot=data-table-row like a table's rows).
  const row = page.getByTestId('monitor-list').locator('[data-slot=data-table-row]').filter({ has: page.locator(`a[href$="${lessonId}"]`) });
  await clickRowAction(row, 'row-edit');
  const dialog = page.getByTestId('bands-dialog');
  for (const [i, band] of bands.entries()) await choose(dialog.getByRole('combobox').nth(i), new RegExp(band));
  await dialog.getByTestId('bands-assign').click();
  await dialog.getByTestId('form-save').click();
  await expect(dialog).toBeHidden();
}

test('a lesson in progress gets bands from the console and its live view opens on a phone', async ({ page }) => {
  test.slow();
  const { lessonId, bands } = await lessonWithBands(page);
  await lend(page, lessonId, bands);
  await page.locator(`a[href$="${lessonId}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/k12/class/monitor/live/${lessonId}$`));
  const tiles = page.getByTestId('live-tile');
  await expect(tiles.first()).toBeVisible();
  // Lent, nothing reported yet: waiting for data.
  await expect(page.getByTestId('live-tiles').getByText(bands[0])).toBeVisible();
  await expect(tiles.filter({ hasText: bands[0] })).toHaveAttribute('data-state', 'waiting');
  expect(await axeProblems(page)).toEqual([]);
});

test('the monitor follows the simulated hub as it posts; the danger and silent-band alerts are acknowledged', async ({ page }) => {
  test.slow();
  const auth = await signedIn(page);
  // The demo school's heart-rate hub, with a secret issued from the console as a school would.
  const hub = (await ok<{ records: { id: string; serialNo: string }[] }>(await page.request.get('/api/busi/web/k12/device/page?size=50&kind=hub', { headers: auth }))).records[0];
  const credentials = await ok<{ serialNo: string; secret: string }>(await page.request.post(`/api/busi/web/k12/device/${hub.id}/secret`, { headers: auth }));
  const roster = await ok<{ className: string }[]>(await page.request.get('/api/v1/device/students', { headers: basic(credentials) }));
  // A class of 12–13-year-olds: the simulator aims its danger run above the threshold of the age it is given.
  const className = roster.find((s) => s.className.startsWith('七年级'))!.className;

  // The product's simulator (`npm run simulate -- --live-lesson`) runs the hub: it joins a lesson 3 minutes in (the
  // bands' stored samples in one go), then posts every 5 s; its danger student and silent band begin as it joins.
  // It is held after that first post until the page has shown the lesson before them.
  let go!: () => void;
  const held = new Promise<void>((resolve) => (go = resolve));
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  let started!: (lesson: { id: string; script: LiveScript }) => void;
  const lesson = new Promise<{ id: string; script: LiveScript }>((resolve) => (started = resolve));
  const hubRun = runLive({
    url: test.info().project.use.baseURL!,
    credentials,
    className,
    minutes: 40,
    backfillMinutes: 3,
    age: 13,
    alertsIn: 0,
    seed: 30,
    stop: stopped,
    sleep: (ms) => held.then(() => new Promise((resolve) => setTimeout(resolve, ms))),
    onLesson: (id, script) => started({ id, script }),
    say: () => {},
  });
  try {
    const { id, script } = await lesson;
    const danger = script.danger!;
    const silent = script.silent!;

    await page.goto('/busi/k12/class/monitor');
    await page.getByTestId('monitor-list').locator(`a[href$="${id}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/k12/class/monitor/live/${id}$`));
    const tile = (band: string) => page.getByTestId('live-tile').filter({ hasText: band });
    // What the hub sent as it joined: every band reading, the danger student not in danger yet, no alert.
    await expect(tile(danger.band)).toHaveAttribute('data-state', 'reading');
    await expect(tile(silent.band)).toHaveAttribute('data-state', 'reading');
    await expect(tile(danger.band)).not.toContainText('危险');
    await expect(page.getByTestId('live-alert')).toHaveCount(0);
    const before = await tile(danger.band).getByTestId('tile-bpm').textContent();

    // The hub posts as the lesson goes on: the danger student's heart climbs into the danger zone, stays there for
    // DANGER_SUSTAIN_S (the alert), and the silent band's last sample grows SILENT_AFTER_S old (the other alert).
    go();
    await expect(tile(danger.band).getByTestId('tile-bpm')).not.toHaveText(before!);
    await expect(tile(danger.band)).toContainText('危险');
    const alert = (kind: string) => page.getByTestId('live-alert').filter({ hasText: kind });
    await expect(alert('心率持续过高')).toBeVisible({ timeout: (DANGER_SUSTAIN_S + 60) * 1000 });
    await acknowledge(page, alert('心率持续过高'), '已让学生停下休息');
    await expect(tile(silent.band)).toHaveAttribute('data-state', 'silent', { timeout: (SILENT_AFTER_S + 60) * 1000 });
    await expect(alert('手环无信号')).toBeVisible();
    await acknowledge(page, alert('手环无信号'), '手环松了，已重新戴好');
    await expect(page.getByTestId('live-alert')).toHaveCount(0);
    await expect(page.getByTestId('live-history')).toContainText('已让学生停下休息');
    await expect(page.getByTestId('live-history')).toContainText('手环松了，已重新戴好');
  } finally {
    go();
    stop();
    await hubRun;
  }
});

async function acknowledge(page: Page, alert: Locator, note: string) {
  await alert.getByTestId('alert-acknowledge').click();
  const dialog = page.getByTestId('acknowledge-dialog');
  await dialog.getByRole('textbox').fill(note);
  await dialog.getByTestId('form-save').click();
  await expect(dialog).toBeHidden();
  await expect(alert).toHaveCount(0);
}
