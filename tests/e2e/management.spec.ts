import { expect, test } from '@playwright/test';
import { choose, shot, signIn } from './support';

/** The management kit end to end: a school administrator adds a school year and a class, and sees them listed. */
test('school01 creates a school year and a class', async ({ page }, testInfo) => {
  // A retry adds its own class: the first attempt's may be saved already.
  const className = `e2e测试班${testInfo.retry || ''}`;
  const classCode = String(88 - testInfo.retry);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);

  await page.goto('/busi/k12/org/acayear');
  const years = page.getByTestId('school-year-list');
  await expect(years.getByRole('row').nth(1)).toBeVisible();
  await shot(page, 'management-school-years');
  await page.getByTestId('list-add').click();
  const form = page.getByTestId('school-year-form');
  const academicYear = form.getByLabel(/学年/).first();
  await expect(academicYear).toHaveValue(/^\d{4}-\d{4}$/);
  const year = await academicYear.inputValue();
  await shot(page, 'management-school-year-form');
  await form.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/k12\/org\/acayear$/);
  await expect(years.getByRole('cell', { name: year })).toBeVisible();

  await page.goto('/busi/k12/org/class');
  const list = page.getByTestId('class-list');
  await expect(list.getByRole('row').nth(1)).toBeVisible();
  // The action column is pinned to the right edge of the table's visible width.
  const table = list.locator('[data-slot=data-table-scroll]');
  const action = list.locator('[data-slot=row-actions]').first();
  const [tableBox, actionBox] = [await table.boundingBox(), await action.boundingBox()];
  expect(actionBox!.x + actionBox!.width).toBeLessThanOrEqual(tableBox!.x + tableBox!.width + 1);
  await shot(page, 'management-classes');

  await page.getByTestId('list-add').click();
  const classForm = page.getByTestId('class-form');
  // Leaving a changed form asks first.
  await classForm.getByLabel('班级名称').fill(className);
  await classForm.getByTestId('form-cancel').click();
  await expect(page.getByRole('alertdialog')).toContainText('是否返回上一页？');
  await page.getByRole('alertdialog').getByRole('button', { name: '取消' }).click();

  await choose(classForm.locator('[data-field=gradeId]').getByRole('combobox'));
  await classForm.getByLabel('班级编号').fill('100');
  await classForm.getByTestId('form-save').click();
  await expect(classForm.locator('[data-field=code]')).toContainText('班级编号不能大于99');
  await classForm.getByLabel('班级编号').fill(classCode);
  await shot(page, 'management-class-form');
  await classForm.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/k12\/org\/class$/);
  // Within the list: until the list has rendered, the form (and its own 班级名称 field) can still be on screen.
  await list.getByLabel('班级名称').fill(className);
  await list.getByRole('button', { name: '查询' }).click();
  await expect(list.getByRole('cell', { name: className, exact: true })).toBeVisible();
  await expect(page).toHaveURL(/name=e2e/);
});
