import { expect, test, type Browser, type Page } from '@playwright/test';
import { choose, chooseLoginLanguage, shot, signIn } from './support';

async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto('/busi/');
  return page;
}

/** district01 creates a school with its administrator, who signs in; disabling the school blocks the next sign-in. */
test('a school created with its administrator; disabling it blocks that administrator', async ({ page, browser }, testInfo) => {
  // Three sign-ins and a dozen saves: slow on a busy machine. A retry makes its own school, since the first attempt's
  // school (code and account are unique) may already exist.
  test.slow();
  const n = String(88 + testInfo.retry);
  const account = `e2eadmin${n}`;
  const schoolName = `江宁区e2e学校${n}`;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  await signIn(page, 'district01');
  await expect(page).toHaveURL(/\/admin\//);

  await page.goto('/busi/admin/currentOrg');
  await expect(page.getByTestId('current-org')).toContainText('上级机构');
  await shot(page, 'org-current-zh_cn');
  await page.getByTestId('current-org-edit').click();
  const currentForm = page.getByTestId('current-org-form');
  await currentForm.getByLabel('纬度').fill('91');
  await currentForm.getByTestId('form-save').click();
  await expect(currentForm).toContainText('纬度须在-90到90之间');
  await shot(page, 'org-current-form-zh_cn');

  await page.goto('/busi/admin/orgManage/orgInfo');
  const list = page.getByTestId('org-list');
  await expect(list.getByRole('row').nth(1)).toBeVisible();
  await page.getByTestId('list-add').click();
  const form = page.getByTestId('org-form');
  await form.getByLabel('机构名称').fill(schoolName);
  await form.getByLabel('机构编码').fill(n);
  await form.getByLabel('管理员姓名').fill('赵老师');
  await form.getByLabel('登录账号').fill(account);
  await form.getByLabel('登录密码').fill('E2ePass88');
  await shot(page, 'org-form-zh_cn');
  await form.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/admin\/orgManage\/orgInfo$/);
  const row = list.getByRole('row').filter({ hasText: schoolName });
  await expect(row).toBeVisible();
  await shot(page, 'org-list-zh_cn');

  const admin = await freshPage(browser);
  await signIn(admin, account, 'E2ePass88');
  await expect(admin).toHaveURL(/\/k12\//);
  // The new school starts empty: its administrator adds a school year, a grade and a class.
  await admin.goto('/busi/k12/org/acayear/add');
  const yearForm = admin.getByTestId('school-year-form');
  const academicYear = await yearForm.getByLabel(/学年/).first().inputValue();
  await yearForm.getByTestId('form-save').click();
  await expect(admin).toHaveURL(/\/k12\/org\/acayear$/);
  await expect(admin.getByTestId('school-year-list').getByRole('cell', { name: academicYear })).toBeVisible();
  await admin.goto('/busi/k12/org/grade/add');
  const gradeForm = admin.getByTestId('grade-form');
  // The grade follows from the stage and enrolment year (this year's entrants: 一年级).
  await expect(gradeForm.getByTestId('grade-derived')).toContainText('一年级');
  await gradeForm.getByTestId('form-save').click();
  await expect(admin).toHaveURL(/\/k12\/org\/grade$/);
  await expect(admin.getByTestId('grade-list').getByRole('cell', { name: '一年级', exact: true })).toBeVisible();
  await admin.goto('/busi/k12/org/class/add');
  const classForm = admin.getByTestId('class-form');
  await choose(classForm.locator('[data-field=gradeId]').getByRole('combobox'));
  await classForm.getByLabel('班级编号').fill('1');
  await classForm.getByLabel('班级名称').fill('一年级1班');
  await classForm.getByTestId('form-save').click();
  await expect(admin).toHaveURL(/\/k12\/org\/class$/);
  await expect(admin.getByTestId('class-list').getByRole('cell', { name: '一年级1班' })).toBeVisible();
  await admin.context().close();

  await row.getByTestId('org-disable').click();
  await expect(page.getByRole('alertdialog')).toContainText('账号将无法登录');
  await page.getByRole('alertdialog').getByRole('button', { name: '停用' }).click();
  await expect(row).toContainText('停用');

  const blocked = await freshPage(browser);
  await signIn(blocked, account, 'E2ePass88');
  await expect(blocked.getByText('账号已停用，请联系管理员', { exact: true })).toBeVisible();
  await blocked.context().close();
});

test('organisation screens in English', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  await chooseLoginLanguage(page, 'English');
  await signIn(page, 'district01');
  await expect(page).toHaveURL(/\/admin\//);
  await page.goto('/busi/admin/currentOrg');
  await expect(page.getByTestId('current-org')).toContainText('Superior organization');
  await shot(page, 'org-current-en_us');
  await page.getByTestId('current-org-edit').click();
  await expect(page.getByTestId('current-org-form')).toBeVisible();
  await shot(page, 'org-current-form-en_us');
  await page.goto('/busi/admin/orgManage/orgInfo');
  await expect(page.getByTestId('org-list').getByRole('row').nth(1)).toBeVisible();
  await shot(page, 'org-list-en_us');
  await page.getByTestId('list-add').click();
  await expect(page.getByTestId('org-form')).toBeVisible();
  await shot(page, 'org-form-en_us');
});
