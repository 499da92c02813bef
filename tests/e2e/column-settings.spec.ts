import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import * as XLSX from 'xlsx';
import { signIn } from './support';

/**
 * Column settings follow the user (docs/decisions/049-list-settings-on-the-server.md): a column hidden on the student
 * list is still hidden after signing in from another browser, and the export leaves it out.
 */
test('a hidden column stays hidden in a new browser and the export leaves it out', async ({ browser }) => {
  test.slow();
  const first = await browser.newContext();
  const page = await first.newPage();
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  await page.goto('/busi/k12/user/student');
  const list = page.getByTestId('student-list');
  await expect(list.getByRole('columnheader', { name: '学号' })).toBeVisible();
  await page.getByTestId('list-columns').click();
  const saved = page.waitForResponse((r) => r.url().includes('/listSettings/save') && r.status() === 200);
  await page.getByTestId('column-settings').getByRole('checkbox', { name: '显示“学号”' }).click();
  await saved;
  await expect(list.getByRole('columnheader', { name: '学号' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  // One class: the whole school is above the export approval threshold (tests/e2e/export-approval.spec.ts).
  await list.getByLabel('关键字').fill('2026010106');
  await page.getByRole('button', { name: '查询' }).click();
  await expect(page.getByTestId('list-export')).toHaveAttribute('title', /^导出当前筛选的 \d+ 条，按当前显示的列$/);

  const [exported] = await Promise.all([page.waitForEvent('download'), page.getByTestId('list-export').click()]);
  const rows = XLSX.utils.sheet_to_json<string[]>(XLSX.read(await readFile(await exported.path())).Sheets['学生'], { header: 1 });
  expect(rows[0]).not.toContain('学号');
  expect(rows[0]).toEqual(expect.arrayContaining(['姓名', '学籍号', '班级']));
  await first.close();

  const second = await browser.newContext();
  const again = await second.newPage();
  await again.goto('/busi/');
  await signIn(again, 'school01');
  await expect(again).toHaveURL(/\/k12\//);
  await again.goto('/busi/k12/user/student');
  const list2 = again.getByTestId('student-list');
  await expect(list2.getByRole('columnheader', { name: '学籍号' })).toBeVisible();
  await expect(list2.getByRole('columnheader', { name: '学号' })).toHaveCount(0);
  // Back to the defaults, so the other flows see the list as it is declared.
  await again.getByTestId('list-columns').click();
  const reset = again.waitForResponse((r) => r.url().includes('/listSettings/reset'));
  await again.getByTestId('column-settings-reset').click();
  await reset;
  await expect(list2.getByRole('columnheader', { name: '学号' })).toBeVisible();
  await second.close();
});
