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

/**
 * The same request opens wherever an export is started: here a homework's detail page, whose export (every
 * submission of four classes) is above the threshold. The dialog says where to follow the request; the administrator
 * approves it there and the requester downloads the homework's workbook.
 * (Following it leads to 个人中心 › 我的导出, every requester's; this administrator then decides on the approvals page.)
 */
test('an export started on a detail page goes through the same approval', async ({ page }) => {
  test.slow();
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  await page.goto('/busi/k12/sportsHomework/homeworkManagement');
  await page.getByRole('row', { name: /每日跳绳打卡/ }).getByTestId('row-detail').first().click();
  await page.getByTestId('homework-export').click();
  const dialog = page.getByTestId('export-approval-dialog');
  await expect(dialog).toContainText('需申请审批');
  await expect(dialog.getByTestId('export-approval-page')).toContainText('作业管理');
  // No reason: the schema's message, and nothing is sent.
  await dialog.getByTestId('form-save').click();
  await expect(dialog).toContainText('请填写申请理由');
  await dialog.getByTestId('export-approval-reason').fill('每日跳绳打卡完成情况归档');
  await dialog.getByTestId('form-save').click();
  const sent = page.getByTestId('export-approval-sent');
  await expect(sent).toContainText('个人中心 › 我的导出');
  await sent.getByTestId('export-approval-follow').click();
  await expect(page).toHaveURL(/\/myInfo\/exports$/);
  await expect(page.getByTestId('my-exports').getByRole('row').filter({ hasText: '每日跳绳打卡完成情况归档' })).toContainText('待审批');
  await page.goto('/busi/k12/system/exportApproval?mine=true');

  const row = page.getByTestId('export-approval').getByRole('row').filter({ hasText: '每日跳绳打卡完成情况归档' });
  await expect(row).toContainText('待审批');
  await expect(row).toContainText('作业管理');
  await clickRowAction(row, 'row-audit');
  const decide = page.getByTestId('export-approval-decide');
  await decide.getByRole('textbox').fill('同意');
  await decide.getByTestId('form-save').click();
  await expect(row).toContainText('已批准');
  const [file] = await Promise.all([page.waitForEvent('download'), row.getByTestId('export-approval-download').click()]);
  const book = XLSX.read(await readFile(await file.path()));
  const longest = Math.max(...book.SheetNames.map((name) => XLSX.utils.sheet_to_json<string[]>(book.Sheets[name], { header: 1 }).length - 1));
  expect(longest).toBeGreaterThan(100);
});
