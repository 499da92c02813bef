import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { maskStudentName } from '../../src/domain/consent/consent';
import { DEMO_PASSWORD, shot, signIn } from './support';

/**
 * Guardian consent on a public board (docs/product-rules.md#consent): a parent's child runs in a published heat whose
 * board link a TV shows with the full name (the demo school recorded the family's consent); the parent withdraws
 * display consent through the app API and the TV shows surname + * beside the class, without a reload.
 */

const chinaDay = (plusDays = 0) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(Date.now() + plusDays * 86_400_000));
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

async function ok<T>(res: { status(): number; json(): Promise<unknown>; text(): Promise<string> }): Promise<T> {
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

test('a parent withdraws display consent in the app and the meet board shows 张*', async ({ page, request, browser }) => {
  test.slow();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('tiyu.token') ?? 'null') as { access_token: string });
  const headers = { authorization: `bearer ${token.access_token}` };
  const api = '/api/busi/web/k12/sportsMeet';

  // The parent signs in to the app and names its child.
  const login = await ok<{ access_token: string }>(await request.post('/api/v1/app/login', { data: { account: 'parent001', password: sha256(DEMO_PASSWORD) } }));
  const app = { authorization: `Bearer ${login.access_token}` };
  const me = await ok<{ students: { id: string; name: string; className: string }[] }>(await request.get('/api/v1/app/me', { headers: app }));
  const child = me.students[0];

  // A mixed meet with the child and three others in one heat, published (set up through the API).
  const meet = await ok<{ id: string; groups: { events: { id: string }[] }[] }>(
    await request.post(api, {
      headers,
      data: {
        name: 'e2e同意运动会',
        signupStart: chinaDay(-1),
        signupEnd: chinaDay(1),
        startDate: chinaDay(2),
        endDate: chinaDay(2),
        athleteCap: 2,
        groups: [{ name: '混合组', gender: 'mixed', bibStart: 1001, gradeIds: [], events: [{ name: '60米', type: 'track', resultKind: 'time', lanes: 8, heatSize: 8, classCap: 2 }] }],
      },
    }),
  );
  // The candidate list answers a page: the child is found by name, the others from the first page.
  const found = await ok<{ id: string }[]>(await request.get(`${api}/${meet.id}/entries/candidates?keyword=${encodeURIComponent(child.name)}`, { headers }));
  expect(found.some((c) => c.id === child.id)).toBe(true);
  const all = await ok<{ id: string; className: string }[]>(await request.get(`${api}/${meet.id}/entries/candidates?keyword=`, { headers }));
  const perClass = new Map<string, number>([[child.className, 1]]);
  const others = all.filter((c) => c.id !== child.id && (perClass.set(c.className, (perClass.get(c.className) ?? 0) + 1).get(c.className) ?? 0) <= 2).slice(0, 3);
  for (const s of [{ id: child.id }, ...others]) await ok(await request.post(`${api}/${meet.id}/entries`, { headers, data: { studentId: s.id, eventIds: [meet.groups[0].events[0].id] } }));
  const entries = await ok<{ records: { id: string }[] }>(await request.get(`${api}/${meet.id}/entries?size=80`, { headers }));
  await ok(await request.post(`${api}/${meet.id}/entries/review`, { headers, data: { ids: entries.records.map((e) => e.id), status: 'approved' } }));
  await ok(await request.post(`${api}/${meet.id}/draw`, { headers, data: { mode: 'random', seed: 11 } }));
  await ok(await request.post(`${api}/${meet.id}/schedule`, { headers, data: {} }));
  const heatId = (await ok<{ heats: { id: string }[] }>(await request.get(`${api}/${meet.id}/arrangement`, { headers }))).heats[0].id;
  const rows = await ok<{ id: string }[]>(await request.get(`${api}/${meet.id}/heats/${heatId}/results`, { headers }));
  await ok(await request.put(`${api}/${meet.id}/heats/${heatId}/results`, { headers, data: { results: rows.map((r, i) => ({ id: r.id, mark: 8.1 + i / 10 })) } }));
  await ok(await request.post(`${api}/${meet.id}/results/step`, { headers, data: { step: 'confirm', heatIds: [heatId] } }));
  await ok(await request.post(`${api}/${meet.id}/results/step`, { headers, data: { step: 'publish', heatIds: [heatId] } }));
  const link = await ok<{ token: string }>(await request.post(`${api}/${meet.id}/boardLinks`, { headers, data: { name: '同意大屏 e2e' } }));

  // A TV with no session: the child's full name beside the class.
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const tv = await context.newPage();
  await tv.goto(`/busi/wall/${link.token}`);
  await expect(tv.getByTestId('wall-screen')).toHaveAttribute('data-state', 'ready');
  const result = tv.getByTestId('board-result').first();
  const childRow = result.getByRole('listitem').filter({ hasText: child.name });
  await expect(childRow).toContainText(child.className);

  // The parent withdraws display consent in the app: the TV shows surname + * and the class at its next poll.
  await ok(await request.put(`/api/v1/app/consents/${child.id}/publicName`, { headers: app, data: { state: 'withdrawn' } }));
  const masked = maskStudentName(child.name);
  await expect(result).not.toContainText(child.name, { timeout: 20_000 });
  await expect(result.getByRole('listitem').filter({ hasText: masked }).filter({ hasText: child.className }).first()).toBeVisible();
  await shot(tv, 'consent-board-masked');
  await context.close();
});
