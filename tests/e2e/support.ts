import { expect, type Locator, type Page } from '@playwright/test';

/** Every demo account signs in with this password; the e2e server answers every captcha with 1234. */
export const DEMO_PASSWORD = 'Tiyu@2026';
export const FIXED_CAPTCHA = '1234';

/** Fills and submits the login form (docs/product-rules.md#sign-in). */
export async function signIn(page: Page, account: string, password = DEMO_PASSWORD): Promise<void> {
  await expect(page.getByTestId('login-captcha')).toBeVisible();
  await page.getByTestId('login-username').fill(account);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-code').fill(FIXED_CAPTCHA);
  await page.getByTestId('login-submit').click();
}

/** Chooses a language in the login screen's dropdown. */
export async function chooseLoginLanguage(page: Page, name: string): Promise<void> {
  await page.getByTestId('language-select').getByRole('combobox').selectOption({ label: name });
}

export async function openUserMenu(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('user-menu-content')).toBeVisible();
}

/** Saves a screenshot next to the other e2e screenshots (kept out of git). */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `tests/e2e/screenshots/${name}.png`, fullPage: false });
}

/**
 * Waits until a data-centre page shows its current figures: every chart has drawn its current option (ECharts
 * 'finished') and no table is still refreshing (the old rows stay on screen, busy, while new ones load).
 */
export async function dashboardSettled(page: Page): Promise<void> {
  await expect(page.locator('[data-slot=dc-chart]').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('[data-slot=dc-chart][data-finished=false]')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('table[aria-busy=true]')).toHaveCount(0, { timeout: 20_000 });
}

/**
 * Clicks a row action by its test id, through the row's "更多" menu when the kit put it there (a row with four or
 * more actions keeps only the first two as buttons: src/components/list/row-actions.tsx).
 */
export async function clickRowAction(row: Locator, testId: string): Promise<void> {
  const actions = row.locator('[data-slot=row-actions]');
  await expect(actions).toBeVisible({ timeout: 20_000 });
  // The row renders its buttons and its menu trigger at once: if the button is not there, it is in the menu.
  if ((await actions.getByTestId(testId).count()) > 0) return actions.getByTestId(testId).click();
  await actions.getByTestId('row-more').click();
  await row.page().getByTestId('row-more-menu').getByTestId(testId).click();
}
