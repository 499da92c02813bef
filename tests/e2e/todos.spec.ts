import { expect, test } from '@playwright/test';
import { PHONE, signIn } from './support';

/**
 * To-dos (docs/product-rules.md#to-dos-and-messages): the header bell shows how many rows wait for the user; an item of
 * its popover opens the list filtered to exactly those rows, as many as the item said. The landing page shows the same
 * items; on a phone the bell stays in the header.
 */
test('school01: the bell counts what waits, an item opens its list with that many rows', async ({ page }) => {
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\/dataCenter\/school/);
  const count = page.getByTestId('todo-bell-count');
  await expect(count).toBeVisible();
  expect(Number(await count.innerText())).toBeGreaterThan(0);
  await expect(page.getByTestId('todo-panel').getByTestId('todo-panel-item').first()).toBeVisible();

  await page.getByTestId('todo-bell').click();
  const item = page.getByTestId('todo-popover').locator('[data-kind=exemptionReview]');
  await expect(item).toBeVisible();
  const n = Number((await item.locator('span').last().innerText()).trim());
  expect(n).toBeGreaterThan(0);
  await item.click();
  await expect(page).toHaveURL(/\/k12\/physiqueManage\/exemption\?status=pending/);
  const list = page.getByTestId('exemption-list');
  await expect(list.getByText(`共 ${n} 条`)).toBeVisible();
  // Each row is a pending request.
  await expect(list.getByRole('row').filter({ hasText: '待审核' })).toHaveCount(Math.min(n, 10));
});

test('on a phone the bell stays in the header', async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  const bell = page.getByTestId('todo-bell');
  await expect(bell).toBeInViewport();
  await bell.click();
  await expect(page.getByTestId('todo-popover')).toBeInViewport();
});
