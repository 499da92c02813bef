import AxeBuilder from '@axe-core/playwright';
import { expect, type Browser, type Locator, type Page } from '@playwright/test';

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
  await expect(page.locator('[data-slot=dc-chart]').first()).toBeVisible();
  await expect(page.locator('[data-slot=dc-chart][data-finished=false]')).toHaveCount(0);
  await expect(page.locator('table[aria-busy=true]')).toHaveCount(0);
}

/**
 * Clicks a row action by its test id, through the row's "更多" menu when the kit put it there (a row with four or
 * more actions keeps only the first two as buttons: src/components/list/row-actions.tsx).
 */
export async function clickRowAction(row: Locator, testId: string): Promise<void> {
  const actions = row.locator('[data-slot=row-actions]');
  await expect(actions).toBeVisible();
  // The row renders its buttons and its menu trigger at once: if the button is not there, it is in the menu.
  if ((await actions.getByTestId(testId).count()) > 0) return actions.getByTestId(testId).click();
  await actions.getByTestId('row-more').click();
  await row.page().getByTestId('row-more-menu').getByTestId(testId).click();
}

/**
 * axe's serious and critical WCAG 2.1 A/AA violations on the page (or inside `include`), one line per node.
 * Legacy mode runs axe.run in the page itself: the default runs it per frame and then aggregates in a new blank page,
 * which cost a second per check on the 2-core CI machine; the screens have no cross-origin frames to lose.
 * axe's source (1.5 MB, which AxeBuilder evaluates twice a check) goes into a document once: a page that already has
 * it in every frame (the accessibility sweep moves inside one document from screen to screen) gets an empty source, so
 * AxeBuilder only configures and runs it. Only violations are reported in full: axe still runs every rule on every node,
 * but no longer builds a selector and an HTML snippet for each of the thousands of nodes that pass (axe-core's
 * `resultTypes`). Together a third of the sweep's axe time (docs/performance.md, "CI time").
 */
export async function axeProblems(page: Page, include?: string): Promise<{ rule: string; impact: string; nodes: string[] }[]> {
  const present = await Promise.all(page.frames().map((frame) => frame.evaluate(() => 'axe' in window).catch(() => false)));
  const builder = new AxeBuilder(present.every(Boolean) ? { page, axeSource: ';' } : { page })
    .setLegacyMode()
    // Before withTags, which adds runOnly to these options (options() replaces them).
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const { violations } = await (include ? builder.include(include) : builder).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, impact: v.impact!, nodes: v.nodes.map((n) => `${n.target.join(' ')} — ${n.failureSummary ?? ''}`) }));
}

/**
 * Opens a select and picks an option (by name, or the n-th). Radix Select swallows a click on an option that lands
 * before its list has seen the pointer move after opening (its guard against choosing with the opening press); a
 * synthetic click on a loaded machine can land there, leaving the list open. The pick repeats until the list closes.
 */
export async function choose(trigger: Locator, option: string | RegExp | number = 0, exact = false): Promise<void> {
  const page = trigger.page();
  const listbox = page.getByRole('listbox');
  const target = typeof option === 'number' ? page.getByRole('option').nth(option) : page.getByRole('option', { name: option, exact });
  await expect(async () => {
    if ((await listbox.count()) === 0) await trigger.click();
    await target.click({ timeout: 10_000 });
    await expect(listbox).toHaveCount(0, { timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
}

/**
 * Resolves once `text` has been in the page, however briefly. A success toast shows for 3 s; on a loaded 2-core machine
 * one round of expect's polling can take longer than that, so a toast can come and go between two polls. This checks
 * in the page itself at every frame instead. Start it before the action that raises the text, and await it after.
 */
export function shown(page: Page, text: string): Promise<unknown> {
  return page.waitForFunction((wanted) => document.body.textContent?.includes(wanted), text, { polling: 'raf', timeout: 60_000 });
}

/** The phone a teacher holds on the field (docs/decisions/054-phone-layout.md). */
export const PHONE = { width: 390, height: 844 };

/** A new browser context at phone size, signed in as `account` to a K12 school. */
export async function phoneSignedIn(browser: Browser, account: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  await page.goto('/busi/');
  await signIn(page, account);
  await expect(page).toHaveURL(/\/k12\//);
  return page;
}

/** The signed-in page's token as request headers, for setting up or undoing data through the API. */
export async function authHeaders(page: Page) {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('tiyu.token') ?? 'null') as { access_token: string } | null);
  if (!token) throw new Error('not signed in');
  return { Authorization: `bearer ${token.access_token}` };
}
