import { expect, test, type Browser, type Page } from '@playwright/test';
import { shot, signIn } from './support';

/**
 * A meet's live board as a wall link (docs/product-rules.md#meets): school01 hands out a board link of a meet whose
 * heat is confirmed but not yet published; a TV with no session opens it and shows nothing of that heat; the heat is
 * published in the console and appears on the TV without a reload; revoking the link stops the TV.
 */

const chinaDay = (plusDays = 0) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(Date.now() + plusDays * 86_400_000));

async function ok<T>(res: { status(): number; json(): Promise<unknown>; text(): Promise<string> }): Promise<T> {
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

async function openWall(browser: Browser, url: string, width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

test('a meet board link shows published results on a wall without sign-in, live, until revoked', async ({ page, request, browser }) => {
  test.slow();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('tiyu.token') ?? 'null') as { access_token: string });
  const headers = { authorization: `bearer ${token.access_token}` };
  const api = '/api/busi/web/k12/sportsMeet';

  // A meet with one heat of four boys, results entered and confirmed (not published): set up through the API.
  const meet = await ok<{ id: string; groups: { events: { id: string }[] }[] }>(
    await request.post(api, {
      headers,
      data: {
        name: 'e2e大屏运动会',
        signupStart: chinaDay(-1),
        signupEnd: chinaDay(1),
        startDate: chinaDay(2),
        endDate: chinaDay(2),
        athleteCap: 2,
        groups: [{ name: '初中男子组', gender: 'male', bibStart: 1001, gradeIds: [], events: [{ name: '60米', type: 'track', resultKind: 'time', lanes: 8, heatSize: 8, classCap: 2 }] }],
      },
    }),
  );
  const candidates = await ok<{ id: string; gender: string; className: string }[]>(await request.get(`${api}/${meet.id}/entries/candidates?keyword=`, { headers }));
  const perClass = new Map<string, number>();
  const boys = candidates.filter((c) => c.gender === 'male' && (perClass.set(c.className, (perClass.get(c.className) ?? 0) + 1).get(c.className) ?? 0) <= 2).slice(0, 4);
  expect(boys).toHaveLength(4);
  for (const b of boys) await ok(await request.post(`${api}/${meet.id}/entries`, { headers, data: { studentId: b.id, eventIds: [meet.groups[0].events[0].id] } }));
  const entries = await ok<{ records: { id: string }[] }>(await request.get(`${api}/${meet.id}/entries?size=80`, { headers }));
  await ok(await request.post(`${api}/${meet.id}/entries/review`, { headers, data: { ids: entries.records.map((e) => e.id), status: 'approved' } }));
  await ok(await request.post(`${api}/${meet.id}/draw`, { headers, data: { mode: 'random', seed: 11 } }));
  await ok(await request.post(`${api}/${meet.id}/schedule`, { headers, data: {} }));
  const heatId = (await ok<{ heats: { id: string }[] }>(await request.get(`${api}/${meet.id}/arrangement`, { headers }))).heats[0].id;
  const rows = await ok<{ id: string }[]>(await request.get(`${api}/${meet.id}/heats/${heatId}/results`, { headers }));
  await ok(await request.put(`${api}/${meet.id}/heats/${heatId}/results`, { headers, data: { results: rows.map((r, i) => ({ id: r.id, mark: 8.1 + i / 10 })) } }));
  await ok(await request.post(`${api}/${meet.id}/results/step`, { headers, data: { step: 'confirm', heatIds: [heatId] } }));

  // The board link, from the live board screen.
  await page.goto(`/busi/single/sportsMeet/score/screen/${meet.id}`);
  await page.getByTestId('board-links-open').click();
  const dialog = page.getByTestId('board-links-dialog');
  await dialog.getByTestId('board-link-name').fill('主席台大屏 e2e');
  await dialog.getByTestId('board-link-submit').click();
  const url = await dialog.getByTestId('screen-link-url').inputValue();
  expect(url).toMatch(/\/busi\/wall\/[A-Za-z0-9_-]{20,}$/);
  await expect(dialog.getByTestId('screen-link-row').first()).toContainText('主席台大屏 e2e');
  await shot(page, 'meet-board-links');

  // A TV with no session: the meet's board, without the confirmed heat.
  const tv = await openWall(browser, url, 1920, 1080);
  await expect(tv.getByTestId('wall-screen')).toHaveAttribute('data-state', 'ready');
  await expect(tv.getByTestId('app-header')).toHaveCount(0);
  await expect(tv.getByTestId('wall-scene-title')).toHaveText('e2e大屏运动会');
  await expect(tv.getByTestId('board-no-results')).toBeVisible();
  await expect(tv.getByTestId('board-upcoming')).toContainText('60米');
  await shot(tv, 'meet-board-wall-before');

  // Published in the console: the TV shows it within seconds, without a reload.
  await page.keyboard.press('Escape');
  await page.goto(`/busi/single/sportsMeet/score/${meet.id}`);
  await expect(page.getByTestId('result-state')).toHaveText('已审核');
  await page.getByTestId('results-publish').click();
  await expect(page.getByTestId('result-state')).toHaveText('已发布');
  const first = tv.getByTestId('board-result').first();
  await expect(first).toContainText('60米');
  await expect(first.getByRole('listitem')).toHaveCount(4);
  await expect(tv.getByTestId('board-points').getByRole('listitem').first()).toBeVisible();
  await shot(tv, 'meet-board-wall-1920x1080');

  // The same wall on a 4K screen and on a 1366 × 768 one: the design canvas scaled.
  const tv4k = await openWall(browser, url, 3840, 2160);
  await expect(tv4k.getByTestId('wall-canvas')).toHaveAttribute('data-scale', '2.0000');
  await expect(tv4k.getByTestId('board-result').first()).toBeVisible();
  await shot(tv4k, 'meet-board-wall-3840x2160');
  await tv4k.context().close();
  const small = await openWall(browser, `${url}?lang=en_us`, 1366, 768);
  await expect(small.getByTestId('board-result').first()).toBeVisible();
  await expect(small.getByTestId('wall-org')).toContainText('Live meet results');
  await shot(small, 'meet-board-wall-1366x768-en_us');
  await small.context().close();

  // Revoked: the running TV is refused at its next poll.
  await page.goto(`/busi/single/sportsMeet/score/screen/${meet.id}`);
  await page.getByTestId('board-links-open').click();
  await dialog.getByTestId('screen-link-revoke').first().click();
  await page.getByRole('alertdialog').getByRole('button', { name: '停用' }).click();
  await expect(dialog.getByTestId('screen-link-row').first()).toHaveAttribute('data-revoked', 'true');
  await expect(tv.getByTestId('wall-refused')).toContainText('停用');
  await tv.context().close();
});
