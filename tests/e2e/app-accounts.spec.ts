import { expect, test } from '@playwright/test';
import { shot, signIn } from './support';

/**
 * The student list's app-account actions live in the row's "更多" menu (the row-actions kit's `maxInline`): the school
 * office gives a student an app account from it and sees the one-time password once.
 */
test('school01 gives a student an app account from the row’s more menu', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);

  await page.goto('/busi/k12/user/student');
  const list = page.getByTestId('student-list');
  const row = list.locator('[data-slot=data-table-row]').filter({ hasText: '未开通' }).first();
  await expect(row).toBeVisible();
  // Edit and transfer stay buttons; the app account is in the menu.
  await expect(row.getByTestId('app-account-give')).toHaveCount(0);
  await row.getByTestId('row-more').click();
  await shot(page, 'student-row-more');
  await page.getByRole('menuitem', { name: '开通 App' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '开通 App' }).click();
  const given = page.getByTestId('app-account-given');
  await expect(given).toContainText(/已为 \S+ 开通 App 账号/);
  await expect(given.getByTestId('app-account-password')).toHaveText(/\S{6,}/);
  await shot(page, 'student-app-account-given');
  await given.getByRole('button').last().click();
  await expect(given).toBeHidden();
});
