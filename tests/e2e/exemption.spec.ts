import { expect, test } from '@playwright/test';
import { axeProblems, clickRowAction, shot, signIn } from './support';

/**
 * An exemption from request to report (docs/product-rules.md#physique-year, "Exemptions"): a class teacher asks 免测
 * for a tested student of their class, the school's administrator approves it, the score list marks the student 免测
 * and the student's report says the year is 免测. The pages pass axe.
 */
test('myclass01 requests 免测, school01 approves, the score list and the report show 免测', async ({ browser }) => {
  test.slow();
  // A tested student of myclass01's classes without a mark yet: the last row of their score list.
  const teacher = await browser.newPage();
  await teacher.goto('/busi/');
  await signIn(teacher, 'myclass01');
  await expect(teacher).toHaveURL(/\/k12\//);
  await teacher.goto('/busi/k12/organizeTest/scoreSearch');
  const rows = teacher.getByRole('row').filter({ has: teacher.getByTestId('result-name') }).filter({ hasNot: teacher.getByTestId('result-exemption') });
  await expect(rows.first()).toBeVisible();
  const row = rows.last();
  const name = (await row.getByTestId('result-name').innerText()).trim();
  const regNo = (await row.locator('.tabular-nums').first().innerText()).trim();

  await teacher.goto('/busi/k12/physiqueManage/exemption');
  const list = teacher.getByTestId('exemption-list');
  await expect(list).toBeVisible();
  expect(await axeProblems(teacher)).toEqual([]);
  await teacher.getByTestId('list-add').click();
  const form = teacher.getByTestId('exemption-form');
  await form.getByTestId('exemption-student-picker').fill(regNo);
  await teacher.getByRole('option', { name: new RegExp(name) }).first().click();
  await expect(form.getByTestId('exemption-student')).toContainText(name);
  await form.getByLabel('申请理由').fill('先天性心脏病，医嘱避免剧烈运动（e2e）');
  expect(await axeProblems(teacher, '[data-testid=exemption-form]')).toEqual([]);
  await shot(teacher, 'exemption-form');
  await form.getByTestId('form-save').click();
  await expect(form).toBeHidden();
  await expect(list.getByRole('row', { name: new RegExp(name) }).first()).toContainText('待审核');
  await teacher.close();

  const admin = await browser.newPage();
  await admin.goto('/busi/');
  await signIn(admin, 'school01');
  await expect(admin).toHaveURL(/\/k12\//);
  await admin.goto('/busi/k12/physiqueManage/exemption?status=pending');
  const pending = admin.getByTestId('exemption-list').getByRole('row', { name: new RegExp(name) }).first();
  await clickRowAction(pending, 'row-audit');
  const decide = admin.getByTestId('exemption-decide');
  await expect(decide).toBeVisible();
  await decide.getByLabel('审核意见').fill('证明齐全，同意');
  await decide.getByTestId('form-save').click();
  await expect(decide).toBeHidden();
  await admin.goto('/busi/k12/physiqueManage/exemption');
  await expect(admin.getByTestId('exemption-list').getByRole('row', { name: new RegExp(name) }).first()).toContainText('已批准');
  await shot(admin, 'exemption-list');

  await admin.goto('/busi/k12/organizeTest/scoreSearch');
  await admin.getByPlaceholder('请输入姓名或学籍号').fill(regNo);
  await admin.keyboard.press('Enter');
  const marked = admin.getByRole('row').filter({ has: admin.getByTestId('result-name').getByText(name) }).first();
  await expect(marked.getByTestId('result-exemption')).toHaveText('免测');
  // The student's report says the year is 免测 (its year card reads the same approved request).
  await marked.getByTestId('result-report').click();
  await expect(admin.getByTestId('report-year-total')).toHaveText('免测');
  await admin.close();
});
