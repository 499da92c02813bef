import { expect, test } from '@playwright/test';
import { axeProblems, choose, shot, signIn } from './support';

/**
 * Students and parents end to end: the school office adds a student with a new parent in one save, finds the student,
 * transfers them to another class (the edit screen shows the history) and finds the parent in the parent list.
 */
test('school01 adds a student with a new parent, transfers them, and sees the parent listed', async ({ page }) => {
  const stamp = String(Date.now()).slice(-8);
  const regNo = `E2E${stamp}`;
  const mobile = `137${stamp}`;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);

  await page.goto('/busi/k12/user/student');
  const list = page.getByTestId('student-list');
  await expect(list.getByRole('row').nth(1)).toBeVisible();
  await page.getByTestId('list-add').click();

  const form = page.getByTestId('student-form');
  await form.getByLabel('姓名').first().fill('端到端学生');
  await form.getByLabel('学籍号').fill(regNo);
  await choose(form.locator('[data-field=classId]').getByRole('combobox'));
  await form.locator('[data-field=gender]').getByLabel('女').check();
  await form.getByTestId('add-new-parent').click();
  const parent = form.getByTestId('new-parent');
  await parent.getByLabel('家长姓名').fill('端到端家长');
  await parent.getByLabel('手机号码').fill('123');
  await form.getByTestId('form-save').click();
  await expect(parent.locator('[data-field="newParents.0.mobile"]')).toContainText('家长手机号码格式不正确');
  await parent.getByLabel('手机号码').fill(mobile);
  await form.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/k12\/user\/student$/);

  await list.getByLabel('关键字').fill(regNo);
  await list.getByRole('button', { name: '查询' }).click();
  const row = list.getByRole('row').filter({ hasText: regNo });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('端到端家长（母亲）');
  const before = (await row.getByRole('cell').nth(4).textContent())!;

  await row.getByTestId('row-transfer').click();
  const dialog = page.getByTestId('student-transfer-dialog');
  await expect(dialog).toBeVisible();
  // The dialog is not an address of its own, so its accessibility check lives here (the a11y table opens addresses).
  expect(await axeProblems(page, '[data-testid=student-transfer-dialog]')).toEqual([]);
  await choose(dialog.getByRole('combobox'), 1);
  await dialog.getByTestId('transfer-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('cell').nth(4)).not.toHaveText(before);

  await row.getByTestId('row-edit').click();
  const history = page.getByTestId('student-history');
  await expect(history.getByRole('row')).toHaveCount(3);
  await expect(history).toContainText('调班');
  await expect(history).toContainText(before);

  await page.goto('/busi/k12/user/parent');
  const parents = page.getByTestId('parent-list');
  await parents.getByLabel('家长', { exact: true }).fill(mobile);
  await parents.getByRole('button', { name: '查询' }).click();
  const parentRow = parents.getByRole('row').filter({ hasText: mobile });
  await expect(parentRow).toContainText('端到端家长');
  await expect(parentRow).toContainText('端到端学生');
  await shot(page, 'people-parents');
});
