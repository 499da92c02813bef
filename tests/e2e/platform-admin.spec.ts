import { expect, test } from '@playwright/test';
import { dashboardSettled, signIn } from './support';

test.describe('platform administration', () => {
  test('a district administrator lands on its schools, opens one read-only down to a class, and reads its sign-ins and sessions', async ({ page }) => {
    test.slow();
    await page.goto('/busi/');
    await signIn(page, 'district01');
    await expect(page).toHaveURL(/\/busi\/admin\/dataCenter\/overview/);
    // The demo's three schools side by side in the schools table under the charts (another spec may have added a
    // school of its own to the district).
    const overview = page.getByTestId('district-schools');
    for (const school of ['江苏体育科技大学', '南京市江宁区实验学校', '南京市江宁区东山小学'])
      await expect(overview.getByRole('row', { name: new RegExp(school) })).toHaveCount(1);

    await overview.getByRole('row', { name: /南京市江宁区实验学校/ }).click();
    await expect(page).toHaveURL(/\/busi\/admin\/dataCenter\/overview\/school\/[0-9a-f-]{36}\?.*orgId=/);
    await dashboardSettled(page);
    // Read-only: no wall-link manager on the school's dashboard.
    await expect(page.getByTestId('screen-links-open')).toHaveCount(0);
    const schoolUrl = page.url();
    // The school's grades and classes open under the overview, for that school, and lead back to it.
    await page.getByTestId('items-by-grade').getByRole('rowheader', { name: '七年级' }).click();
    await expect(page).toHaveURL(/\/busi\/admin\/dataCenter\/overview\/grade\?.*orgId=/);
    await expect(page.getByTestId('dc-grade')).toBeVisible();
    await dashboardSettled(page);
    await page.getByTestId('ranking-table').locator('[data-slot=data-table-row]').first().click();
    await expect(page).toHaveURL(/\/busi\/admin\/dataCenter\/overview\/class\/detail\/[0-9a-f-]{36}\?/);
    await dashboardSettled(page);
    // The trail's school step links back once the class view has named its school.
    await page.getByTestId('drill-breadcrumbs').getByRole('link', { name: '南京市江宁区实验学校' }).click();
    await expect(page.getByTestId('dc-school')).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(new URL(schoolUrl).pathname);

    await page.goto('/busi/admin/system/signInLog');
    const signIns = page.getByTestId('sign-in-log');
    await expect(signIns.getByRole('row', { name: /district01/ }).first()).toContainText('成功');

    await page.goto('/busi/admin/system/onlineSession');
    await expect(page.getByTestId('online-sessions').getByRole('row', { name: /当前会话/ })).toHaveCount(1);
  });
});
