import { expect, test, type Browser, type Page } from '@playwright/test';
import { choose, dashboardSettled, shot, signIn } from './support';

async function scrollMain(page: Page, y: number): Promise<void> {
  await page.evaluate((top) => document.getElementById('main-content')?.scrollTo({ top }), y);
}

async function openSchoolDashboard(page: Page): Promise<void> {
  await page.goto('/busi/');
  await signIn(page, 'school01');
  // The school dashboard is the K12 landing page (default menu code 101101).
  // Sign-in and the first dashboard took over 10 s while four e2e servers shared the machine.
  await expect(page).toHaveURL(/\/busi\/k12\/dataCenter\/school/);
  await expect(page.getByTestId('kpi-cards')).toBeVisible();
}

const params = (page: Page) => new URL(page.url()).searchParams;

test.describe('data centre', () => {
  test('drills from the school to one student, with breadcrumbs back up', async ({ page }) => {
    await openSchoolDashboard(page);
    await dashboardSettled(page);
    await shot(page, 'dc-school');
    await scrollMain(page, 860);
    await shot(page, 'dc-school-2');
    await scrollMain(page, 1700);
    await shot(page, 'dc-school-3');

    // School → grade: a row of the item-by-grade table.
    await page.getByTestId('items-by-grade').getByRole('rowheader', { name: '七年级' }).click();
    await expect(page).toHaveURL(/\/dataCenter\/grade\?/);
    expect(params(page).get('gradeNo')).toBe('7');
    expect(params(page).get('schoolYear')).toMatch(/^\d{4}$/);
    await expect(page.getByTestId('dc-grade')).toBeVisible();
    await expect(page.getByTestId('kpi-cards')).toBeVisible();
    await dashboardSettled(page);
    await shot(page, 'dc-grade');
    await scrollMain(page, 860);
    await shot(page, 'dc-grade-2');

    // Grade → class: the best class of the ranking.
    const firstClass = page.getByTestId('ranking-table').locator('[data-slot=data-table-row]').first();
    const className = (await firstClass.locator('td').nth(1).innerText()).trim();
    await firstClass.click();
    await expect(page).toHaveURL(/\/dataCenter\/class\/detail\/[0-9a-f-]{36}\?/);
    await expect(page.getByRole('heading', { level: 1, name: className })).toBeVisible();
    await dashboardSettled(page);
    await shot(page, 'dc-class');
    await scrollMain(page, 600);
    await shot(page, 'dc-class-2');

    // The student table is wider than the page and draws only the cells in view: scrolled to its right end, the last
    // item's cells are drawn under their header.
    const studentTable = page.getByTestId('class-students');
    const firstStudent = studentTable.locator('[data-slot=data-table-row]').first();
    await studentTable.locator('[data-slot=data-table-scroll]').evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    /** The row's cells are drawn under the headers at `end` of the table (cells out of view are not drawn). */
    const cellsLineUp = (end: 'first' | 'last') =>
      expect(async () => {
        const [th, td] = await Promise.all([studentTable.locator('thead th')[end]().boundingBox(), firstStudent.locator('td')[end]().boundingBox()]);
        expect(td?.x).toBe(th?.x);
        expect(td?.width).toBe(th?.width);
      }).toPass();
    await expect(studentTable.locator('thead th').last()).toBeInViewport();
    await cellsLineUp('last');
    await shot(page, 'dc-class-table-right');
    await studentTable.locator('[data-slot=data-table-scroll]').evaluate((el) => el.scrollTo({ left: 0 }));
    await cellsLineUp('first');

    // Class → student, by keyboard: a row of the virtualised student table, Arrow Down to the next, Enter.
    const secondStudent = studentTable.locator('[data-slot=data-table-row]').nth(1);
    const studentName = (await secondStudent.locator('td').nth(1).innerText()).trim();
    await firstStudent.focus();
    await page.keyboard.press('ArrowDown');
    await expect(secondStudent).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dataCenter\/student\/detail\/[0-9a-f-]{36}/);
    await expect(page.getByRole('heading', { level: 1, name: studentName })).toBeVisible();
    await expect(page.getByTestId('student-history')).toBeVisible();
    await expect(page.getByTestId('dc-student-report')).toBeVisible();
    await dashboardSettled(page);
    await shot(page, 'dc-student');
    await scrollMain(page, 700);
    await shot(page, 'dc-student-2');

    // Breadcrumbs lead back up: class, then grade, then school.
    const crumbs = page.getByTestId('drill-breadcrumbs');
    await expect(crumbs.getByRole('link')).toHaveCount(3);
    await crumbs.getByRole('link', { name: className }).click();
    await expect(page).toHaveURL(/\/dataCenter\/class\/detail\//);
    await page.getByTestId('drill-breadcrumbs').getByRole('link', { name: '七年级', exact: true }).click();
    await expect(page).toHaveURL(/\/dataCenter\/grade\?.*gradeNo=7/);
    await page.getByTestId('drill-breadcrumbs').getByRole('link').first().click();
    await expect(page).toHaveURL(/\/dataCenter\/school/);
    await expect(page.getByTestId('dc-school')).toBeVisible();
  });

  test('the class and student lists open from the side menu, keep the period, and lead to details', async ({ page }) => {
    await openSchoolDashboard(page);
    await choose(page.getByTestId('filter-semesterCode').getByRole('combobox'), '秋季学期');
    await expect(page).toHaveURL(/semesterCode=13/);

    // The side menu links carry no filters: the chosen period comes along.
    await page.getByTestId('side-menu').getByRole('link', { name: '班级数据' }).click();
    await expect(page).toHaveURL(/\/dataCenter\/class\?.*semesterCode=13/);
    await expect(page.getByTestId('dc-class-list')).toBeVisible();
    await dashboardSettled(page);
    await shot(page, 'dc-class-list');

    await page.getByTestId('side-menu').getByRole('link', { name: '学生数据' }).click();
    await expect(page).toHaveURL(/\/dataCenter\/student\?.*semesterCode=13/);
    const rows = page.getByTestId('dc-student-list').locator('[data-slot=data-table-row]');
    await expect(rows.first()).toBeVisible();
    await shot(page, 'dc-student-list');
    const name = (await rows.first().locator('td').nth(1).innerText()).trim();
    await page.getByTestId('student-keyword').fill(name);
    await page.getByRole('button', { name: '查询' }).click();
    await expect(page).toHaveURL(/keyword=/);
    await expect(rows.first()).toContainText(name);
    await rows.first().click();
    await expect(page).toHaveURL(/\/dataCenter\/student\/detail\//);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  });

  test('the filters live in the URL: a link reopens the same view and back undoes a change', async ({ page }) => {
    await openSchoolDashboard(page);
    const year = params(page).get('schoolYear');
    const tested = page.getByTestId('kpi-tested').locator('dd').first();
    await dashboardSettled(page);
    const everyone = await tested.innerText();
    await choose(page.getByTestId('filter-gender').getByRole('combobox'), '女', true);
    await expect(page).toHaveURL(/gender=female/);
    // The URL changes before the girls' figures arrive: read them once they have replaced everyone's.
    await expect(tested).not.toHaveText(everyone);
    const female = await tested.innerText();

    // The same link in a fresh tab shows the same figures and filter.
    const link = page.url();
    const other = await page.context().newPage();
    await other.goto(link);
    await expect(other.getByTestId('kpi-tested').locator('dd').first()).toHaveText(female);
    await expect(other.getByTestId('filter-gender').getByRole('combobox')).toHaveText('女');
    await other.close();

    await page.goBack();
    await expect(page).not.toHaveURL(/gender=/);
    await expect(page.getByTestId('filter-gender').getByRole('combobox')).toHaveText('男女生');
    expect(params(page).get('schoolYear')).toBe(year);
    await page.goForward();
    await expect(page).toHaveURL(/gender=female/);
  });

  test('switches language on the dashboards', async ({ page }) => {
    await openSchoolDashboard(page);
    await expect(page.getByRole('heading', { level: 1, name: '学校数据' })).toBeVisible();
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-en_us').click();
    await expect(page.getByRole('heading', { level: 1, name: 'School dashboard' })).toBeVisible();
    await expect(page.getByTestId('kpi-participation')).toContainText('Participation');
    await expect(page.getByText('Levels by grade')).toBeVisible();
    await dashboardSettled(page);
    await shot(page, 'dc-school-en_us');
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-zh_tw').click();
    await expect(page.getByRole('heading', { level: 1, name: '學校資料' })).toBeVisible();
    await expect(page.getByText('各年級等級分布')).toBeVisible();
    await dashboardSettled(page);
    await shot(page, 'dc-school-zh_tw');
    // Back to the default for the next tests.
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-zh_cn').click();
    await expect(page.getByRole('heading', { level: 1, name: '学校数据' })).toBeVisible();
  });

  test("the class table's headers stay inside their columns on a phone in English", async ({ page }) => {
    await openSchoolDashboard(page);
    await page.getByTestId('items-by-grade').getByRole('rowheader', { name: '七年级' }).click();
    await page.getByTestId('ranking-table').locator('[data-slot=data-table-row]').first().click();
    await expect(page).toHaveURL(/\/dataCenter\/class\/detail\//);
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-en_us').click();
    await page.setViewportSize({ width: 390, height: 844 });
    const table = page.getByTestId('class-students');
    await expect(table.locator('thead th').filter({ hasText: 'Annual total' })).toBeVisible();
    await expect(table.locator('[data-slot=data-table-row]').first()).toBeVisible();
    await table.scrollIntoViewIfNeeded();
    await shot(page, 'dc-class-table-phone-en_us');
    // Each header's text (with its sort button) lies inside its own cell, so no two headers' texts meet: a column
    // declared for 性别 reads "Gender" here ("Gender" once ran into "Annual total").
    const spills = await table.locator('thead th').evaluateAll((cells) =>
      cells.flatMap((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        const text = range.getBoundingClientRect();
        const cell = th.getBoundingClientRect();
        return text.left < cell.left - 0.5 || text.right > cell.right + 0.5 ? [`${th.textContent}: ${text.left}–${text.right} in ${cell.left}–${cell.right}`] : [];
      }),
    );
    expect(spills).toEqual([]);
  });

  test('a wall link opens without signing in, refreshes by itself, and is refused once revoked', async ({ page, browser }) => {
    test.slow();
    await openSchoolDashboard(page);
    await page.getByTestId('screen-links-open').click();
    const dialog = page.getByTestId('screen-links-dialog');
    await dialog.getByTestId('screen-link-name').fill('体育馆大屏 e2e');
    // The shortest intervals the server allows: rotate every 5 s, refresh every 30 s.
    await dialog.getByTestId('screen-link-interval').fill('5');
    await dialog.getByTestId('screen-link-refresh').fill('30');
    await dialog.getByTestId('screen-link-submit').click();
    const url = await dialog.getByTestId('screen-link-url').inputValue();
    expect(url).toMatch(/\/busi\/wall\/[A-Za-z0-9_-]{20,}$/);
    await expect(dialog.getByTestId('screen-link-row').first()).toContainText('体育馆大屏 e2e');

    // A TV: another browser with no session at all. Its clock is Playwright's, so the test jumps to the next refresh
    // instead of waiting out the 30 s twice (the refresh and the revoked link's stop are timers of the page).
    const tv = await openWall(browser, url, 1920, 1080, { clock: true });
    await expect(tv.getByTestId('wall-screen')).toHaveAttribute('data-state', 'ready');
    await expect(tv.getByTestId('app-header')).toHaveCount(0);
    await expect(tv.getByTestId('wall-as-of')).toContainText('数据截至');
    await expect(tv.locator('html')).toHaveClass(/wall/);
    await dashboardSettled(tv);
    await shot(tv, 'wall-1920x1080');

    // It refreshes on its own: new data time, the countdown starts over, the figures never leave the screen.
    const first = Number(await tv.getByTestId('wall-screen').getAttribute('data-updated-at'));
    await tv.clock.fastForward('00:30');
    await expect.poll(async () => Number(await tv.getByTestId('wall-screen').getAttribute('data-updated-at'))).toBeGreaterThan(first);
    await expect(tv.getByTestId('wall-screen')).toHaveAttribute('data-state', 'ready');
    await expect(tv.getByTestId('wall-countdown')).toHaveAttribute('data-seconds', /^(2\d|30)$/);
    // The playlist rotates.
    await expect.poll(async () => tv.getByTestId('wall-scene').getAttribute('data-index')).not.toBe('0');
    // The class ranking's tenth row stays inside its panel.
    const ranking = tv.getByTestId('wall-class-ranking');
    await expect(ranking).toBeVisible();
    const panel = (await ranking.locator('section').nth(1).boundingBox())!;
    const tenth = (await ranking.locator('tbody tr').last().boundingBox())!;
    expect(tenth.y + tenth.height).toBeLessThanOrEqual(panel.y + panel.height);

    // The same wall on a 4K screen: the 1920 × 1080 design scaled 2×.
    const tv4k = await openWall(browser, url, 3840, 2160);
    await expect(tv4k.getByTestId('wall-canvas')).toHaveAttribute('data-scale', '2.0000');
    await dashboardSettled(tv4k);
    await shot(tv4k, 'wall-3840x2160');
    await tv4k.context().close();

    // Revoke it: a new visit is refused, and the running wall stops at its next refresh.
    await dialog.getByTestId('screen-link-revoke').first().click();
    await page.getByRole('alertdialog').getByRole('button', { name: '停用' }).click();
    await expect(dialog.getByTestId('screen-link-row').first()).toHaveAttribute('data-revoked', 'true');
    const again = await tv.context().newPage();
    await again.goto(url);
    await expect(again.getByTestId('wall-refused')).toContainText('停用');
    await shot(again, 'wall-revoked');
    await tv.clock.fastForward('00:30');
    await expect(tv.getByTestId('wall-refused')).toBeVisible();
    await tv.context().close();
  });

  test('an unknown wall token is refused without asking anyone to sign in', async ({ browser }) => {
    const context = await browser.newContext();
    const tv = await context.newPage();
    await tv.goto(new URL('/busi/wall/not-a-real-token-000000000000', test.info().project.use.baseURL).toString());
    await expect(tv.getByTestId('wall-refused')).toBeVisible();
    await expect(tv).toHaveURL(/\/busi\/wall\//);
    await context.close();
  });
});

async function openWall(browser: Browser, url: string, width: number, height: number, { clock = false } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  if (clock) await page.clock.install();
  await page.goto(url);
  return page;
}
