import { expect, test, type Browser, type Page } from '@playwright/test';
import { dashboardSettled, shot, signIn } from './support';

/** Records every Content-Security-Policy violation of a page (events, and the console errors Chromium prints). */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const logged: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) logged.push(msg.text());
  });
  await page.addInitScript(() => {
    const list: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = list;
    document.addEventListener('securitypolicyviolation', (e) => list.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return async () => [...logged, ...(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []))];
}

async function openPage(browser: Browser, width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  return context.newPage();
}

test.describe('platform', () => {
  test("a screen outside the user's menu, opened by URL, is the route guard's 404", async ({ page }) => {
    await page.goto('/busi/');
    await signIn(page, 'teacher01');
    await expect(page.getByTestId('app-header')).toBeVisible();
    await page.goto('/busi/k12/org/class');
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page.getByTestId('not-available')).toHaveCount(0);
  });

  test('the console and the wall work under the security headers: no CSP violation, fonts load', async ({ page, browser }) => {
    test.slow();
    const violations = await watchCsp(page);
    const res = await page.goto('/busi/');
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(res?.headers()['x-frame-options']).toBe('DENY');
    await signIn(page, 'school01');
    await expect(page).toHaveURL(/\/busi\/k12\/dataCenter\/school/);
    await dashboardSettled(page);
    // The bundled CJK font loads after the first screen (src/styles/fonts.css).
    await expect.poll(() => page.evaluate(() => [...document.fonts].some((f) => /noto sans sc/i.test(f.family) && f.status === 'loaded'))).toBe(true);
    await shot(page, 'platform-school-dashboard-csp');

    await page.getByTestId('screen-links-open').click();
    const dialog = page.getByTestId('screen-links-dialog');
    await dialog.getByTestId('screen-link-name').fill('CSP 检查大屏');
    await dialog.getByTestId('screen-link-submit').click();
    const url = await dialog.getByTestId('screen-link-url').inputValue();
    expect(await violations()).toEqual([]);

    for (const [width, height] of [
      [1920, 1080],
      [3840, 2160],
    ] as const) {
      const tv = await openPage(browser, width, height);
      const tvViolations = await watchCsp(tv);
      await tv.goto(url);
      await expect(tv.getByTestId('wall-screen')).toHaveAttribute('data-state', 'ready');
      await dashboardSettled(tv);
      await shot(tv, `platform-wall-${width}x${height}`);
      expect(await tvViolations()).toEqual([]);
      await tv.context().close();
    }
  });
});
