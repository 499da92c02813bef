import { expect, test } from '@playwright/test';
import { openUserMenu, shot, signIn } from './support';

test.describe('menu management', () => {
  test('a platform operator renames a page; the side menu shows the new name after a reload; a reset brings the old one back', async ({ page }) => {
    await page.goto('/busi/');
    await signIn(page, 'district01');
    await expect(page.getByTestId('app-header')).toBeVisible();

    // Platform operators reach it from the header's account menu; the family tabs pick the tree.
    await openUserMenu(page);
    await shot(page, 'menu-management-entry-zh_cn');
    await page.getByTestId('menu-menu-management').click();
    await expect(page).toHaveURL(/\/busi\/menuManagement/);
    await page.getByRole('tab', { name: '管理单位' }).click();
    const screen = page.getByTestId('menu-management');
    const row = screen.locator('[data-slot=data-table-row]', { hasText: '/admin/user' }).first();
    await row.getByTestId('menu-edit').click();
    const form = page.getByTestId('menu-form');
    await form.locator('input[name="names.zh_cn"]').fill('账号名册');
    await shot(page, 'menu-management-form');
    await form.getByTestId('form-save').click();
    await expect(form).toHaveCount(0);
    await expect(row).toContainText('账号名册');

    await page.reload();
    await page.getByTestId('menu-group-admin.user').click();
    await expect(page.getByTestId('side-menu').getByTestId('menu-item-admin.user.user')).toHaveText('账号名册');

    await row.getByTestId('menu-reset').click();
    await page.getByRole('alertdialog').getByRole('button').last().click();
    await expect(row).not.toContainText('账号名册');
    await page.reload();
    await page.getByTestId('menu-group-admin.user').click();
    await expect(page.getByTestId('side-menu').getByTestId('menu-item-admin.user.user')).toHaveText('用户列表');
  });
});
