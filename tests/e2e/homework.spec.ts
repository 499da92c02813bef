import { expect, test } from '@playwright/test';
import { choose, shot, signIn } from './support';

/**
 * Sports homework end to end (docs/product-rules.md#homework): a teacher publishes homework to a class (a target out of
 * the item's range is refused on its field), sees it listed and opens the demo's running homework, whose results the
 * simulator sent (reviewing videos: tests/e2e/activities-flow.spec.ts).
 */
test('teacher01 publishes homework and opens the running one', async ({ page }) => {
  await page.goto('/busi/');
  await signIn(page, 'teacher01');
  await expect(page).toHaveURL(/\/k12\//);

  await page.goto('/busi/k12/sportsHomework/homeworkManagement');
  const list = page.getByTestId('homework-list');
  await expect(list.getByRole('cell', { name: '每日跳绳打卡' })).toBeVisible();
  await shot(page, 'homework-list');

  await page.getByTestId('list-add').click();
  const form = page.getByTestId('homework-form');
  await form.getByLabel('作业名称').fill('e2e跳绳作业');
  await form.locator('[data-field=classIds]').getByRole('checkbox').first().check();
  await choose(form.locator('[data-field="items.0.item"]').getByRole('combobox'), '1分钟跳绳');
  const target = form.locator('[data-field="items.0.target"]');
  await target.getByRole('spinbutton').fill('9999');
  await form.getByTestId('form-save').click();
  await expect(target).toContainText('目标值超出该项目的有效范围');
  await shot(page, 'homework-form');
  await target.getByRole('spinbutton').fill('150');
  await form.getByTestId('form-save').click();
  await expect(page).toHaveURL(/homeworkManagement$/);
  await expect(list.getByRole('cell', { name: 'e2e跳绳作业' })).toBeVisible();

  await list.getByRole('row', { name: /每日跳绳打卡/ }).getByTestId('row-detail').click();
  const detail = page.getByTestId('homework-detail');
  await expect(detail.getByRole('cell').first()).toBeVisible();
  await shot(page, 'homework-detail');
  await detail.getByTestId('homework-tab-submissions').click();
  await shot(page, 'homework-submissions');
});
