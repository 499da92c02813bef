import { expect, test, type Browser, type Page } from '@playwright/test';
import { chooseLoginLanguage, shot, signIn } from './support';

async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto('/busi/');
  return page;
}

/** The district administrator resets a user's password; the user signs in with it and must change it first. */
test('a reset password must be changed at the next sign-in', async ({ page, browser }) => {
  await page.goto('/busi/');
  await signIn(page, 'district01');
  await expect(page).toHaveURL(/\/admin\//);

  await page.goto('/busi/admin/user');
  const list = page.getByTestId('user-list');
  const row = list.getByRole('row').filter({ hasText: 'jiaoyan02' });
  await expect(row).toBeVisible();
  await row.getByTestId('user-reset-password').click();
  const dialog = page.getByTestId('user-reset-dialog');
  await dialog.getByTestId('user-reset-confirm').click();
  const shown = dialog.getByTestId('user-one-time-password');
  await expect(shown).toHaveText(/^[A-Za-z0-9]{10}$/);
  const oneTime = (await shown.textContent())!.trim();
  await shot(page, 'admin-user-reset-zh_cn');
  await dialog.getByTestId('user-reset-close').click();
  await expect(row).toContainText('待改密码');

  const user = await freshPage(browser);
  await signIn(user, 'jiaoyan02', oneTime);
  await expect(user).toHaveURL(/\/changePassword$/);
  await expect(user.getByTestId('forced-password-change')).toContainText('密码由管理员设置');
  await shot(user, 'admin-user-forced-change-zh_cn');
  // Nothing else opens until the password is changed: the menu route goes back through sign-in to this form.
  await user.goto('/busi/admin/organizeTest/testManage');
  await expect(user).toHaveURL(/\/changePassword$/);
  await user.getByTestId('old-password').fill(oneTime);
  await user.getByTestId('new-password').fill('Mine2026!');
  await user.getByTestId('confirm-password').fill('Mine2026!');
  await user.getByTestId('change-password-submit').click();
  // The session ends; the person signs in again with the new password, as the form says.
  await expect(user.getByText('密码修改成功，请重新登录', { exact: true }).first()).toBeVisible();
  await expect(user.getByTestId('login-username')).toBeVisible();
  await signIn(user, 'jiaoyan02', 'Mine2026!');
  await expect(user).toHaveURL(/\/admin\//);
  await user.context().close();
});

const SCREENS = [
  ['admin-user-list', '/busi/admin/user', 'user-list'],
  ['admin-user-form', '/busi/admin/user/add', 'user-form'],
  ['admin-department-list', '/busi/admin/departmentManage', 'department-list'],
  ['admin-department-form', '/busi/admin/departmentManage/add', 'department-form'],
  ['admin-org-list', '/busi/admin/orgManage/orgInfo', 'org-list'],
] as const;

/** Screenshots of every list and form of the district's management screens, zh_cn and en_us. */
for (const [language, name] of [
  ['zh_cn', '简体中文'],
  ['en_us', 'English'],
] as const) {
  test(`management screens render (${language})`, async ({ page }) => {
    // Five screens, a department's members, its form, and an organisation's detail and edit pages in one test.
    test.slow();
    await page.goto('/busi/');
    await chooseLoginLanguage(page, name);
    await signIn(page, 'district01');
    await expect(page).toHaveURL(/\/admin\//);
    for (const [file, path, testId] of SCREENS) {
      await page.goto(path);
      await expect(page.getByTestId(testId)).toBeVisible();
      await expect(page.locator('[aria-busy=true]')).toHaveCount(0);
      await shot(page, `${file}-${language}`);
    }
    // The members of a department, and a department's edit form with a refused code.
    await page.goto('/busi/admin/departmentManage');
    const pe = page.getByRole('row').filter({ hasText: language === 'zh_cn' ? '体育组' : '体育组' });
    await pe.getByTestId('department-members').click();
    await expect(page.getByTestId('department-members').getByRole('row').nth(1)).toBeVisible();
    await shot(page, `admin-department-members-${language}`);
    await page.goto('/busi/admin/departmentManage');
    await page.getByRole('row').filter({ hasText: '信息中心' }).getByTestId('row-edit').click();
    const form = page.getByTestId('department-form');
    await form.locator('input[name=code]').fill('1');
    await form.getByTestId('form-save').click();
    await expect(form.locator('[role=alert], [data-slot=form-message]').first()).toBeVisible();
    await shot(page, `admin-department-form-error-${language}`);
    // A lower organisation's detail and edit pages.
    await page.goto('/busi/admin/orgManage/orgInfo');
    const school = page.getByRole('row').filter({ hasText: '东山小学' });
    await school.getByTestId('org-detail').click();
    await expect(page.getByTestId('org-admins')).toContainText('school02');
    await shot(page, `admin-org-detail-${language}`);
    await page.goto('/busi/admin/orgManage/orgInfo');
    await page.getByRole('row').filter({ hasText: '东山小学' }).getByTestId('row-edit').click();
    await expect(page.getByTestId('org-edit-form').locator('input[name=name]')).toHaveValue('南京市江宁区东山小学');
    await shot(page, `admin-org-edit-${language}`);
  });
}
