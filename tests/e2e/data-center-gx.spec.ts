import { expect, test, type Page } from '@playwright/test';
import { dashboardSettled, shot, signIn } from './support';

const params = (page: Page) => new URL(page.url()).searchParams;

test.describe('university data centre', () => {
  test('college01 lands on the school dashboard and drills to a college, a class and a student', async ({ page }) => {
    await page.goto('/busi/');
    await signIn(page, 'college01');
    // The school dashboard is the university landing page too (default menu code 101201).
    await expect(page).toHaveURL(/\/busi\/gx\/dataCenter\/school/);
    await expect(page.getByTestId('dc-school')).toBeVisible();
    await expect(page.getByTestId('kpi-cards')).toBeVisible();
    // Years of study of a university, and the administrator's wall-link button.
    await expect(page.getByTestId('items-by-grade').getByRole('rowheader', { name: '大一' })).toBeVisible();
    await expect(page.getByTestId('screen-links-open')).toBeVisible();
    await dashboardSettled(page);
    await shot(page, 'dc-gx-school');

    // School → a year of study: its colleges side by side.
    await page.getByTestId('items-by-grade').getByRole('rowheader', { name: '大一' }).click();
    await expect(page).toHaveURL(/\/gx\/dataCenter\/college\?/);
    expect(params(page).get('gradeNo')).toBe('13');
    await expect(page.getByTestId('dc-college-list')).toBeVisible();
    await dashboardSettled(page);

    // → one college (every year of study): its classes side by side.
    await page.getByTestId('drill-breadcrumbs').getByRole('link', { name: '全部学院' }).click();
    await expect(page).toHaveURL(/\/gx\/dataCenter\/college(\?(?!.*gradeNo)|$)/);
    await dashboardSettled(page);
    const college = page.getByTestId('ranking-table').locator('[data-slot=data-table-row]').first();
    const collegeName = (await college.locator('td').nth(1).innerText()).trim();
    await college.click();
    await expect(page).toHaveURL(/collegeId=[0-9a-f-]{36}/);
    await expect(page.getByTestId('dc-college')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: collegeName })).toBeVisible();
    await expect(page.getByTestId('kpi-cards')).toBeVisible();
    await dashboardSettled(page);
    await shot(page, 'dc-gx-college');

    // College → class → student.
    const firstClass = page.getByTestId('ranking-table').locator('[data-slot=data-table-row]').first();
    const className = (await firstClass.locator('td').nth(1).innerText()).trim();
    await firstClass.click();
    await expect(page).toHaveURL(/\/gx\/dataCenter\/class\/detail\/[0-9a-f-]{36}/);
    await expect(page.getByRole('heading', { level: 1, name: className })).toBeVisible();
    await expect(page.getByTestId('drill-breadcrumbs').getByRole('link', { name: collegeName })).toBeVisible();
    const firstStudent = page.getByTestId('class-students').locator('[data-slot=data-table-row]').first();
    const studentName = (await firstStudent.locator('td').nth(1).innerText()).trim();
    await firstStudent.click();
    await expect(page).toHaveURL(/\/gx\/dataCenter\/student\/detail\/[0-9a-f-]{36}/);
    await expect(page.getByRole('heading', { level: 1, name: studentName })).toBeVisible();
    await expect(page.getByTestId('student-history')).toBeVisible();
    await dashboardSettled(page);
    await shot(page, 'dc-gx-student');

    // Breadcrumbs lead back to the school.
    await page.getByTestId('drill-breadcrumbs').getByRole('link').first().click();
    await expect(page).toHaveURL(/\/gx\/dataCenter\/school/);
    await expect(page.getByTestId('dc-school')).toBeVisible();
  });
});
