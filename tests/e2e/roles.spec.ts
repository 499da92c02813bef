import { expect, test, type Page } from '@playwright/test';
import { shot, signIn } from './support';

const ROLE = 'e2e班级角色';

async function apiHeaders(page: Page): Promise<Record<string, string>> {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('tiyu.token') ?? 'null') as { access_token: string } | null);
  if (!token) throw new Error('not signed in');
  return { Authorization: `bearer ${token.access_token}` };
}

/**
 * Roles end to end: school01 makes a role with only the class screens and gives it to an account without a role; that
 * account then sees only those menus and is refused another screen's API.
 */
test('a role with only the class screens limits its member to them', async ({ page, browser }) => {
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);

  await page.goto('/busi/k12/role');
  const list = page.getByTestId('role-list');
  await expect(list.getByRole('cell', { name: /管理员/ }).first()).toBeVisible();
  await shot(page, 'roles-list-zh_cn');

  await page.getByTestId('list-add').click();
  const form = page.getByTestId('role-form');
  await form.getByLabel('角色名称').fill('班级-角色');
  await form.getByTestId('form-save').click();
  await expect(form.locator('[data-field=name]')).toContainText('角色名称只能包含中文、英文字母和数字');
  await form.getByLabel('角色名称').fill(ROLE);
  await form.getByTestId('perm-k12.org.class').click();
  await expect(form.getByTestId('perm-k12.org.class#add')).toBeChecked();
  await shot(page, 'roles-form-zh_cn');
  await form.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/k12\/role$/);

  const row = list.getByRole('row').filter({ hasText: ROLE });
  await row.getByRole('button', { name: '成员管理' }).click();
  await expect(page).toHaveURL(/\/k12\/role\/members\//);
  const members = page.getByTestId('role-members');
  await members.getByRole('button', { name: '添加成员' }).click();
  const dialog = page.getByTestId('role-member-add');
  await dialog.getByRole('textbox').fill('staff0001');
  await dialog.getByTestId('candidate-staff0001').click();
  await dialog.getByTestId('role-member-add-confirm').click();
  await expect(members.getByRole('cell', { name: 'staff0001' })).toBeVisible();
  await shot(page, 'roles-members-zh_cn');

  // The new member signs in: only the class screens, and another screen's API answers 403.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const other = await context.newPage();
  await other.goto('/busi/');
  await signIn(other, 'staff0001');
  await expect(other).toHaveURL(/\/k12\/org\/class/);
  const menu = other.getByTestId('side-menu');
  await expect(menu.getByRole('link', { name: '班级管理' })).toBeVisible();
  await expect(menu.getByRole('link', { name: '学年学期' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: '角色管理' })).toHaveCount(0);
  const headers = await apiHeaders(other);
  expect((await other.request.get('/api/busi/web/k12/org/class/page', { headers })).status()).toBe(200);
  expect((await other.request.get('/api/busi/web/k12/org/acayear/page', { headers })).status()).toBe(403);
  expect((await other.request.get('/api/busi/web/k12/role/page', { headers })).status()).toBe(403);
  await context.close();
});

test('role screens in English', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('tiyu.language', 'en_us'));
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  await page.goto('/busi/k12/role');
  await expect(page.getByTestId('role-list').getByRole('row').nth(1)).toBeVisible();
  await shot(page, 'roles-list-en_us');
  await page.getByTestId('list-add').click();
  await expect(page.getByTestId('role-form')).toBeVisible();
  await shot(page, 'roles-form-en_us');
});
