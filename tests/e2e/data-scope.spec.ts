import { expect, test, type Page } from '@playwright/test';
import { shot, signIn } from './support';

/** The signed-in session's API headers (the token the app keeps in localStorage). */
async function apiHeaders(page: Page): Promise<Record<string, string>> {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('tiyu.token') ?? 'null') as { access_token: string } | null);
  if (!token) throw new Error('not signed in');
  return { Authorization: `bearer ${token.access_token}` };
}

/** The options of a Radix select, opened and closed again with Escape. */
async function selectOptions(page: Page, name: string): Promise<string[]> {
  await page.getByRole('combobox', { name, exact: true }).click();
  const names = (await page.getByRole('option').allInnerTexts()).map((s) => s.trim());
  await page.keyboard.press('Escape');
  return names;
}

// docs/product-rules.md#data-scopes: myclass01's role (本班体育教师) has the 'classes' scope; she teaches two classes.
test.describe('data scopes', () => {
  test('a teacher with "my classes" sees only her classes in score lookup and the data centre', async ({ page }) => {
    test.slow();
    await page.goto('/busi/');
    await signIn(page, 'myclass01');
    await expect(page).toHaveURL(/\/busi\/k12\//);
    const headers = await apiHeaders(page);
    const filters = await page.request.get('/api/busi/web/k12/dataCenter/filters', { headers });
    const mine = ((await filters.json()) as { data: { classes: { name: string }[] } }).data.classes.map((c) => c.name).sort();
    expect(mine).toHaveLength(2);

    // Score lookup: every result row is of her classes, and the class filter offers only them.
    await page.goto('/busi/k12/organizeTest/scoreSearch');
    await expect(page.getByTestId('score-search')).toBeVisible();
    await expect(page.getByTestId('result-name').first()).toBeVisible();
    const table = page.getByTestId('score-search').locator('table');
    const column = (await table.locator('thead th').allInnerTexts()).findIndex((h) => h.trim() === '班级');
    const shown = await table.locator('[data-slot=data-table-row]').evaluateAll(
      (trs, i) => trs.map((tr) => tr.querySelectorAll('td')[i]?.querySelector('span > span')?.textContent?.trim() ?? ''),
      column,
    );
    expect(shown.length).toBeGreaterThan(0);
    for (const name of shown) expect(mine).toContain(name);
    expect((await selectOptions(page, '班级')).filter((o) => o !== '全部').sort()).toEqual(mine);
    await shot(page, 'data-scope-score-search');

    // The data centre's class list ranks exactly her two classes, and its class filter offers only them.
    await page.goto('/busi/k12/dataCenter/class');
    const ranking = page.getByTestId('ranking-table');
    await expect(ranking.locator('[data-slot=data-table-row]')).toHaveCount(2);
    const ranked = (await ranking.locator('[data-slot=data-table-row]').evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[1]?.textContent?.trim() ?? ''))).sort();
    expect(ranked).toEqual(mine);
    await page.goto('/busi/k12/dataCenter/student');
    await expect(page.getByTestId('filter-classId')).toBeVisible();
    // The filter's options arrive with the page's first answer: open the list again until they are in.
    await expect.poll(async () => (await selectOptions(page, '班级')).slice(1).sort()).toEqual(mine);
    await shot(page, 'data-scope-dc-students');
  });
});
