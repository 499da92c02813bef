import { expect, test } from '@playwright/test';
import { choose, DEMO_PASSWORD, shot, signIn } from './support';

/**
 * The console frame (docs/product-rules.md#tab-bar, #menu-search, #lock-screen): pages open as tabs and a filtered list
 * comes back as it was left, the menu search finds a page by pinyin initials, the lock screen holds until the password.
 */
test('three pages as tabs: back at the filtered list, unchanged; the tabs survive a reload', async ({ page }) => {
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  const bar = page.getByTestId('tab-bar');
  await expect(bar).toBeVisible();

  // 年级管理, filtered to 初中.
  await page.getByTestId('menu-group-k12.org').click();
  await page.getByTestId('menu-item-k12.org.grade').click();
  await expect(page).toHaveURL(/\/k12\/org\/grade$/);
  const main = page.locator('#main-content');
  await choose(main.getByRole('combobox').first(), '初中');
  await main.getByRole('button', { name: '查询' }).click();
  await expect(page).toHaveURL(/\/k12\/org\/grade\?.+/);
  const filtered = page.url();
  const rows = main.getByRole('row');
  await expect(rows.filter({ hasText: '初中' }).first()).toBeVisible();
  await expect(rows.filter({ hasText: '小学' })).toHaveCount(0);

  // Two more pages.
  await page.getByTestId('menu-item-k12.org.class').click();
  await expect(page).toHaveURL(/\/k12\/org\/class/);
  await page.getByTestId('menu-group-k12.user').click();
  await page.getByTestId('menu-item-k12.user.student').click();
  await expect(page).toHaveURL(/\/k12\/user\/student/);
  await expect(bar.getByTestId('page-tab')).toHaveCount(4);
  await shot(page, 'shell-tabs-zh_cn');

  // Back through the tab: the same filter, the same rows.
  await bar.getByRole('link', { name: '年级管理' }).click();
  await expect(page).toHaveURL(filtered);
  await expect(rows.filter({ hasText: '初中' }).first()).toBeVisible();
  await expect(rows.filter({ hasText: '小学' })).toHaveCount(0);
  await expect(main.getByRole('combobox').first()).toContainText('初中');

  // The side menu's link reopens the tab as it was too.
  await bar.getByRole('link', { name: '学生管理' }).click();
  await page.getByTestId('menu-item-k12.org.grade').click();
  await expect(page).toHaveURL(filtered);

  // A reload keeps the open tabs; closing one leaves the others.
  await page.reload();
  await expect(bar.getByTestId('page-tab')).toHaveCount(4);
  await bar.getByTestId('page-tab').filter({ hasText: '班级管理' }).getByTestId('page-tab-close').click();
  await expect(bar.getByTestId('page-tab')).toHaveCount(3);
});

test('Ctrl+K finds a page by pinyin initials and Enter opens it', async ({ page }) => {
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await page.keyboard.press('Control+k');
  const input = page.getByTestId('menu-search-input');
  await expect(input).toBeFocused();
  await input.fill('bjgl');
  await expect(page.getByTestId('menu-search-item').first()).toContainText('班级管理');
  await shot(page, 'shell-menu-search-zh_cn');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/k12\/org\/class/);
  await expect(page.getByTestId('menu-search')).toHaveCount(0);
});

test('Alt+L locks the console until the password; a reload stays locked', async ({ page }) => {
  await page.goto('/busi/');
  await signIn(page, 'teacher01');
  await expect(page).toHaveURL(/\/k12\//);
  // The shortcut listens once the frame is drawn.
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await page.keyboard.press('Alt+l');
  const lock = page.getByTestId('lock-screen');
  await expect(lock).toBeVisible();
  await expect(page.getByTestId('lock-password')).toBeFocused();

  await page.reload();
  await expect(lock).toBeVisible();
  await page.getByTestId('lock-password').fill('Wrong@2026');
  await page.getByTestId('lock-unlock').click();
  await expect(page.getByTestId('lock-error')).toContainText('密码错误');
  await expect(lock).toBeVisible();
  await shot(page, 'shell-lock-zh_cn');

  await page.getByTestId('lock-password').fill(DEMO_PASSWORD);
  await page.getByTestId('lock-unlock').click();
  await expect(lock).toHaveCount(0);
  // The session stayed: the console works without signing in again.
  await expect(page).toHaveURL(/\/k12\//);
  await expect(page.getByTestId('user-menu')).toBeVisible();
});
