import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { axeProblems, clickRowAction, shot, signIn } from './support';

/**
 * A lesson's load report (docs/product-rules.md#lesson-load, "Reports"): from the list of lessons with heart-rate data
 * (the demo's simulated lessons) a PE teacher opens a closed lesson's report, reads its figures against the curriculum
 * targets and each student's, and prints it: an A4 PDF downloads.
 */
test('a teacher opens a lesson report from the list, sees its figures and prints it', async ({ page }) => {
  test.slow();
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  await page.goto('/busi/k12/class/load');
  const list = page.getByTestId('load-list');
  // A closed lesson: its verdict is met or missed, not in progress.
  const row = list.locator('[data-slot=data-table-row]').filter({ hasNotText: '进行中' }).first();
  await expect(row).toBeVisible();
  const className = (await row.locator('td').nth(1).innerText()).trim();
  const groupDensity = (await row.locator('td').nth(7).innerText()).trim();
  await clickRowAction(row, 'load-open');

  await expect(page).toHaveURL(/\/k12\/class\/load\/lesson\//);
  const report = page.getByTestId('load-report');
  await expect(report.locator('[data-slot=page-header]')).toContainText(className);
  // The list's figure is the report's.
  await expect(page.getByTestId('load-group-density')).toContainText(groupDensity);
  await expect(page.getByTestId('load-main-mean')).toContainText(/达标|未达标/);
  await expect(page.getByTestId('load-students').locator('tbody tr').first()).toBeVisible();
  await page.getByTestId('load-density-help').locator('summary').click();
  await expect(page.getByTestId('load-density-help')).toContainText('120');
  expect(await axeProblems(page)).toEqual([]);
  await shot(page, 'lesson-load-report');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('load-print').click()]);
  expect(download.suggestedFilename()).toMatch(/^课堂负荷报告 .+\.pdf$/);
  const pdf = await PDFDocument.load(await readFile((await download.path())!));
  expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1);
  expect(Math.round(pdf.getPage(0).getWidth())).toBe(595);
});
