import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import * as XLSX from 'xlsx';
import { clickRowAction, signIn } from './support';

/**
 * Export approval (docs/product-rules.md#personal-data-access): the demo school has more students than the default
 * threshold (100), so exporting them all asks for a reason; the administrator approves on 系统管理 › 导出审批 and the
 * requester downloads the file there, with the exporter in its footer. The people list carries the watermark.
 */
test('an export above the threshold goes through approval', async ({ page }) => {
  test.slow();
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  await page.goto('/busi/k12/user/student');
  await expect(page.getByTestId('watermark')).toHaveAttribute('data-text', /school01/);
  await page.getByTestId('list-export').click();
  const dialog = page.getByTestId('export-approval-dialog');
  await expect(dialog).toContainText('需申请审批');
  await dialog.getByTestId('export-approval-reason').fill('学期末体质健康档案归档');
  await dialog.getByTestId('form-save').click();
  await expect(page.getByText('已提交导出申请').first()).toBeVisible();

  await page.goto('/busi/k12/system/exportApproval');
  const row = page.getByTestId('export-approval').getByRole('row').filter({ hasText: '学期末体质健康档案归档' });
  await expect(row).toContainText('待审批');
  await clickRowAction(row, 'row-audit');
  const decide = page.getByTestId('export-approval-decide');
  await decide.getByRole('textbox').fill('同意归档');
  await decide.getByTestId('form-save').click();
  await expect(row).toContainText('已批准');
  const [file] = await Promise.all([page.waitForEvent('download'), row.getByTestId('export-approval-download').click()]);
  const book = XLSX.read(await readFile(await file.path()));
  const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets['学生'], { header: 1 });
  expect(rows.length - 1).toBeGreaterThan(100);
  await expect(row).toContainText('同意归档');
});
