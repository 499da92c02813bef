import { expect, test } from '@playwright/test';
import { chooseLoginLanguage, openUserMenu, shot, signIn } from './support';

test.describe('sign-in', () => {
  for (const [account, family] of [
    ['district01', 'admin'],
    ['school01', 'k12'],
    ['teacher01', 'k12'],
    ['college01', 'gx'],
  ] as const) {
    test(`${account} lands on the first page of /${family}`, async ({ page }) => {
      await page.goto('/busi/');
      await signIn(page, account);
      await expect(page).toHaveURL(new RegExp(`/busi/${family}/`));
      await expect(page.getByTestId('side-menu')).toBeVisible();
      await expect(page.getByTestId('breadcrumbs')).toBeVisible();
      // The landing page is the first menu entry's default path (docs/product-rules.md#accounts-in-use).
      const first = page.getByTestId('side-menu').locator('a[href]').first();
      await expect(first).toHaveAttribute('href', new URL(page.url()).pathname);
    });
  }

  test('a wrong password warns, clears the captcha and loads a new one', async ({ page }) => {
    await page.goto('/busi/');
    const captcha = page.getByTestId('login-captcha');
    await expect(captcha).toBeVisible();
    const before = await captcha.getAttribute('src');
    await signIn(page, 'school01', 'Wrong@2026');
    // The toast shows the message (and announces it to screen readers).
    await expect(page.getByText('用户名或密码错误').first()).toBeVisible();
    await expect(page.getByTestId('login-code')).toHaveValue('');
    await expect(captcha).not.toHaveAttribute('src', before ?? '');
    await expect(page).toHaveURL(/\/busi\/?(\?.*)?$/);
  });

  test('the form refuses empty fields with a message per field', async ({ page }) => {
    await page.goto('/busi/');
    await page.getByTestId('login-submit').click();
    await expect(page.getByText('请填写登录用户名')).toBeVisible();
    await expect(page.getByText('请填写登录密码')).toBeVisible();
    await expect(page.getByText('请填写验证码')).toBeVisible();
  });

  test('the language dropdown switches the screen text', async ({ page }) => {
    await page.goto('/busi/');
    await expect(page.getByTestId('login-submit')).toHaveText(/登\s*录/);
    await shot(page, 'login-zh_cn');
    await chooseLoginLanguage(page, 'English');
    await expect(page.getByTestId('login-submit')).toHaveText(/Sign in/i);
    await shot(page, 'login-en_us');
    await page.getByTestId('login-submit').click();
    await expect(page.getByText('Please enter your username.')).toBeVisible();
    // The choice is kept across reloads.
    await page.reload();
    await expect(page.getByTestId('login-submit')).toHaveText(/Sign in/i);
  });

  test('an unauthenticated deep link goes to login and comes back after it (rt)', async ({ page }) => {
    await page.goto('/busi/k12/org/class');
    await expect(page).toHaveURL(/\/busi\/?\?rt=/);
    await expect(page.getByText('未登录，请登录').first()).toBeVisible();
    await signIn(page, 'school01');
    await expect(page).toHaveURL(/\/busi\/k12\/org\/class$/);
  });

  test('logout ends the session', async ({ page }) => {
    await page.goto('/busi/');
    await signIn(page, 'school01');
    await expect(page).toHaveURL(/\/busi\/k12\//);
    const landing = new URL(page.url()).pathname;
    await openUserMenu(page);
    await page.getByTestId('logout').click();
    await expect(page.getByTestId('login-form')).toBeVisible();
    await page.goto(landing);
    await expect(page).toHaveURL(/\/busi\/?\?rt=/);
  });
});

test.describe('switching', () => {
  test('an account with two organisations and roles chooses, then switches role and organisation', async ({ page }) => {
    await page.goto('/busi/');
    await signIn(page, 'multi0001');
    // Several accounts or roles: the personal centre lets the person choose (docs/product-rules.md#accounts-in-use).
    await expect(page).toHaveURL(/\/busi\/myInfo\/base$/);
    const chooser = page.getByTestId('account-chooser');
    await expect(chooser).toBeVisible();
    await expect(chooser.getByRole('heading', { name: '南京市江宁区实验学校' })).toBeVisible();
    await expect(chooser.getByRole('heading', { name: '江苏体育科技大学' })).toBeVisible();

    // The university account: its only role lands on the gx family.
    await chooser.getByRole('region', { name: '江苏体育科技大学' }).locator('[data-testid^="choose-role-"]').first().click();
    await expect(page).toHaveURL(/\/busi\/gx\//);
    await expect(page.getByTestId('side-menu')).toBeVisible();

    // Back to the school through the header's switcher: the k12 family and its menus.
    await openUserMenu(page);
    const school = page.getByTestId('user-menu-content').getByRole('group', { name: '南京市江宁区实验学校' });
    await school.locator('[data-testid^="switch-role-"]').first().click();
    await expect(page).toHaveURL(/\/busi\/k12\//);
    await expect(page.getByTestId('side-menu')).toBeVisible();
  });
});

test.describe('screens', () => {
  test('first page in zh_cn and en_us, desktop and wall display', async ({ page }) => {
    await page.goto('/busi/');
    await signIn(page, 'school01');
    await expect(page).toHaveURL(/\/busi\/k12\//);
    await expect(page.getByTestId('side-menu')).toBeVisible();
    await shot(page, 'k12-first-page-zh_cn');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot(page, 'k12-first-page-zh_cn-1920');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-en_us').click();
    await expect(page.getByTestId('side-menu')).toContainText(/[A-Za-z]{4,}/);
    await shot(page, 'k12-first-page-en_us');
    // An id of another family is a 404, not a crash.
    await page.goto('/busi/gx/org/college');
    await expect(page.getByTestId('not-found')).toBeVisible();
  });
});
