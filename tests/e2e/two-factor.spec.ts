import { expect, test } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { signIn } from './support';

/** The code an authenticator app shows now for a key as the enrolment page prints it (groups of four). */
const codeOf = (shownKey: string, at = Date.now()) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(shownKey.replace(/\s+/g, '')), digits: 6, period: 30 }).generate({ timestamp: at });

test('an administrator turns on two-step verification and signs in with a code of the app', async ({ page }) => {
  await page.goto('/busi/');
  await signIn(page, 'district02');
  await expect(page).toHaveURL(/\/busi\/admin\//);

  await page.goto('/busi/myInfo/security');
  await expect(page.getByTestId('two-factor-state')).toHaveText(/未开启/);
  await page.getByTestId('enrol-start').click();
  await expect(page.getByTestId('enrol-qr')).toBeVisible();
  const key = (await page.getByTestId('enrol-secret').textContent())!;
  await page.getByTestId('enrol-code').fill(codeOf(key));
  await page.getByTestId('enrol-confirm').click();
  const codes = page.getByTestId('recovery-codes').locator('li');
  await expect(codes).toHaveCount(10);
  await page.getByTestId('enrol-done').click();
  await expect(page.getByTestId('two-factor-state')).toHaveText(/已开启/);
  // The key is never shown again.
  await page.reload();
  await expect(page.getByTestId('two-factor-state')).toHaveText(/已开启/);
  await expect(page.getByText(key)).toHaveCount(0);

  // Sign out, then the password is followed by the code step.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/busi/');
  await signIn(page, 'district02');
  await expect(page.getByTestId('totp-step')).toBeVisible();
  await page.getByTestId('totp-code').fill('000000');
  await page.getByTestId('totp-submit').click();
  await expect(page.getByText('验证码错误', { exact: true })).toBeVisible();
  // The next step's code: the code of the step the enrolment used is already spent (replay).
  await page.getByTestId('totp-code').fill(codeOf(key, Date.now() + 30_000));
  await page.getByTestId('totp-submit').click();
  await expect(page.getByTestId('totp-step')).toHaveCount(0);
  await expect(page).toHaveURL(/\/busi\/admin\//);
  // The previous sign-in is named after signing in.
  await expect(page.getByText('上次登录', { exact: true })).toBeVisible();
});
