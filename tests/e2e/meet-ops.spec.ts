import { expect, test } from '@playwright/test';
import { shot, signIn } from './support';

/**
 * Meet operations beyond the main path (docs/product-rules.md#meets): a school record added by hand becomes current
 * over the demo's; a result of the finished demo meet is set invalid with its reason and restored.
 */
test('school01 keeps records and sets a result invalid and back', async ({ page }) => {
  test.slow();
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);

  await page.goto('/busi/single/sportsMeet/record/add');
  const form = page.getByTestId('record-form');
  await form.getByLabel('学校纪录').check();
  await form.getByLabel('组别').fill('男子组');
  await form.getByLabel('项目').fill('100米');
  await form.locator('[data-field="mark"] input').fill('11.79');
  await form.locator('[data-field="holder"] input').fill('司马长风');
  await form.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/single\/sportsMeet\/record$/);
  const list = page.getByTestId('record-list');
  await expect(list.getByRole('row', { name: /司马长风/ })).toContainText('现纪录');
  await expect(list.getByRole('row', { name: /欧阳子轩/ })).toContainText('历史纪录');
  await shot(page, 'meets-records');

  await page.goto('/busi/single/sportsMeet/score');
  await page.getByTestId('meet-picker').getByRole('row', { name: /2026年春季田径运动会/ }).getByRole('button', { name: '成绩录入' }).click();
  const first = page.getByTestId('result-row').first();
  await first.getByTestId('result-invalidate').click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByRole('button', { name: '设为无效' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('请填写作废原因');
  await dialog.getByLabel('无效原因').fill('起跑犯规，裁判复核');
  await dialog.getByRole('button', { name: '设为无效' }).click();
  await expect(first.getByTestId('result-invalid')).toContainText('起跑犯规');
  await shot(page, 'meets-score-invalid');
  await first.getByTestId('result-restore').click();
  await page.getByRole('alertdialog').getByRole('button', { name: '恢复有效' }).click();
  await expect(first.getByTestId('result-invalid')).toBeHidden();
});
