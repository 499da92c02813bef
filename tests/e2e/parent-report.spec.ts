import { expect, test, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { axeProblems, clickRowAction, DEMO_PASSWORD, shot, shown, signIn } from './support';

/**
 * Reports parents read (docs/product-rules.md#physique-year, "Reports parents read"): the school releases an ended
 * plan's reports from the test plan list, a parent reads the released report through the app API and on the mobile
 * page (390×844), in Chinese and English, with axe. The demo released the K12 school's ended plans already, so the
 * school first withdraws the last one and releases it again.
 */
const PLAN = '2025-2026学年第一学期体质健康测试';
/** The demo parent whose child has released reports (README). */
const PARENT = 'parent002';

async function planRow(page: Page) {
  const row = page.locator('[data-slot=data-table-row]').filter({ hasText: PLAN }).first();
  await expect(row).toBeVisible();
  return row;
}

test('the school releases a plan; a parent reads the report through the app API and on the phone page', async ({ page, browser, request }) => {
  test.slow();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  await page.goto('/busi/k12/organizeTest/testManage');
  let row = await planRow(page);
  await expect(row.getByTestId('plan-released')).toBeVisible();

  await clickRowAction(row, 'plan-withdraw');
  await page.getByRole('alertdialog').getByRole('button', { name: '撤回报告' }).click();
  row = await planRow(page);
  await expect(row.getByTestId('plan-released')).toHaveCount(0);
  await expect(row).toContainText('未发布');

  const toast = shown(page, '报告已发布，已通知');
  await clickRowAction(row, 'plan-release');
  await page.getByRole('alertdialog').getByRole('button', { name: '发布报告' }).click();
  await toast;
  row = await planRow(page);
  await expect(row.getByTestId('plan-released')).toContainText('陈丽华');
  await shot(page, 'parent-report-release');

  // The app API: the parent's released reports, the report with bands and advice, the notification.
  const login = await request.post('/api/v1/app/login', { data: { account: PARENT, password: createHash('sha256').update(DEMO_PASSWORD).digest('hex') } });
  expect(login.ok()).toBe(true);
  const headers = { authorization: `Bearer ${(await login.json()).data.access_token as string}`, 'accept-language': 'en-US' };
  const list = (await (await request.get('/api/v1/app/reports', { headers })).json()).data as { studentId: string; planId: string; planName: string }[];
  const released = list.find((r) => r.planName === PLAN);
  expect(released).toBeTruthy();
  const report = (await (await request.get(`/api/v1/app/reports/${released!.studentId}?planId=${released!.planId}`, { headers })).json()).data;
  expect(report.items.length).toBeGreaterThan(3);
  expect(report.items.find((i: { item: string }) => i.item === 'run50m').bands).toMatchObject({ kind: 'table', lowerIsBetter: true });
  expect(report.items.every((i: { advice: string | null; level: string | null }) => !i.level || /^[A-Z]/.test(i.advice ?? ''))).toBe(true);
  const notes = (await (await request.get('/api/v1/app/notifications', { headers })).json()).data;
  expect(notes.records[0]).toMatchObject({ planId: released!.planId, title: 'Physique report released', readAt: null });

  // The phone page, signed in with the app account.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const m = await phone.newPage();
  await m.goto('/busi/m/report');
  await expect(m.getByTestId('app-sign-in')).toBeVisible();
  expect(await axeProblems(m)).toEqual([]);
  await m.locator('#app-account').fill(PARENT);
  await m.locator('#app-password').fill(DEMO_PASSWORD);
  await m.getByTestId('app-sign-in-submit').click();
  const shown2 = m.getByTestId('app-report');
  await expect(shown2).toBeVisible();
  await expect(shown2).toContainText(PLAN);
  await expect(m.getByTestId('app-total')).toHaveText(String(report.total));
  await expect(m.getByTestId('app-last-year')).toContainText('2024-2025');
  await expect(m.getByTestId('app-item-run50m').getByTestId('app-band-bar')).toBeVisible();
  await expect(m.getByTestId('app-advice').first()).not.toBeEmpty();
  await expect(m.getByTestId('app-unread')).toBeVisible();
  expect(await axeProblems(m)).toEqual([]);
  await shot(m, 'parent-report-phone-zh');

  await m.getByTestId('language-select').locator('select').selectOption('en_us');
  await expect(m.getByTestId('app-report')).toContainText('Items to improve');
  await expect(m.getByTestId('app-item-run50m').getByTestId('app-advice')).toContainText(/[A-Za-z]{4,}/);
  expect(await axeProblems(m)).toEqual([]);
  await shot(m, 'parent-report-phone-en');

  // Reading a notification lowers the unread count (the demo's older release was read already: this one was the last).
  const unread = await m.getByTestId('app-mark-read').count();
  await m.getByTestId('app-mark-read').first().click();
  await expect(m.getByTestId('app-mark-read')).toHaveCount(unread - 1);
  if (unread === 1) await expect(m.getByTestId('app-unread')).toHaveCount(0);
  await phone.close();
});
