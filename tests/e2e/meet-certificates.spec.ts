import { writeFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { choose, clickRowAction, shot, signIn } from './support';

/**
 * Meet documents (docs/product-rules.md#meet-documents): school01 uploads an e-stamp, makes a certificate template
 * with it, issues the finished demo meet's certificates as one PDF and downloads it, then adds style photos to a meet
 * and captions one.
 */
const png = async (name: string, width: number, height: number, background: string) => ({
  name,
  mimeType: 'image/png',
  buffer: await sharp({ create: { width, height, channels: 4, background } }).png().toBuffer(),
});

test('school01 uploads a stamp, makes a template, issues certificates and adds style photos', async ({ page }) => {
  test.slow();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);

  // E-stamp.
  await page.goto('/busi/single/sportsMeet/eStamp');
  await page.getByTestId('stamp-upload').click();
  const stampDialog = page.getByTestId('stamp-dialog');
  await stampDialog.getByTestId('stamp-name').fill('e2e学校公章');
  await stampDialog.locator('input[type=file]').setInputFiles(await png('seal.png', 240, 240, '#dc2626cc'));
  await expect(stampDialog.locator('li img')).toBeVisible();
  await stampDialog.getByTestId('stamp-save').click();
  await expect(page.getByTestId('stamp-screen').getByText('e2e学校公章')).toBeVisible();
  await shot(page, 'meet-stamps');

  // Template with the stamp.
  await page.goto('/busi/single/sportsMeet/certificate/add');
  const form = page.getByTestId('certificate-form');
  await form.locator('[data-field="name"] input').fill('e2e获奖证书');
  await choose(form.locator('[data-field="stampId"]').getByRole('combobox'), 'e2e学校公章');
  await expect(form.getByTestId('certificate-preview').locator('img')).toBeVisible();
  await shot(page, 'meet-certificate-form');
  await form.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/single\/sportsMeet\/certificate$/);
  const row = page.getByTestId('certificate-list').getByRole('row', { name: /e2e获奖证书/ });
  await expect(row).toBeVisible();
  await shot(page, 'meet-certificates');

  // Issue the finished meet's places 1–3 as one PDF.
  await row.getByRole('button', { name: '发放证书' }).click();
  const issue = page.getByTestId('issue-dialog');
  await expect(issue.getByTestId('issue-meet')).toBeVisible();
  await issue.getByTestId('issue-to').fill('3');
  await shot(page, 'meet-certificate-issue');
  // Issuing is a job: the dialog shows its bar, then saves the file; the header's 任务 lists it with its download.
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), issue.getByTestId('issue-submit').click()]);
  expect(download.suggestedFilename()).toMatch(/获奖证书\.pdf$/);
  await expect(issue.locator('[data-testid=job-progress][data-state=done]')).toBeVisible();
  await issue.locator('[data-slot=dialog-footer] button').first().click();
  await page.getByTestId('tasks-open').click();
  await expect(page.getByTestId('tasks-panel').getByTestId('job-download').first()).toBeVisible();
  await page.keyboard.press('Escape');
  const path = await download.path();
  const bytes = await (await import('node:fs/promises')).readFile(path);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  await writeFile('tests/e2e/screenshots/meet-certificates.pdf', bytes);

  // Style photos of the finished meet: two images, a caption.
  await page.goto('/busi/k12/sportsMeet');
  await clickRowAction(page.getByTestId('meet-list').getByRole('row', { name: /2026年春季田径运动会/ }), 'row-demeanor');
  await expect(page).toHaveURL(/\/k12\/sportsMeet\/demeanor\/[0-9a-f-]+$/);
  // The demo's three photos, then two more.
  const captions = page.getByTestId('photo-caption');
  await expect(captions).toHaveCount(3);
  await page.getByTestId('photo-upload').click();
  const photoDialog = page.getByTestId('photo-dialog');
  await photoDialog.locator('input[type=file]').setInputFiles([await png('start.png', 800, 600, '#2563eb'), await png('finish.png', 800, 600, '#16a34a')]);
  await expect(photoDialog.locator('li img')).toHaveCount(2);
  await photoDialog.getByTestId('photo-save').click();
  await expect(captions).toHaveCount(5);
  await captions.nth(3).fill('男子100米起跑');
  await captions.nth(3).press('Enter');
  await expect(page.getByText('说明已保存', { exact: true })).toBeVisible();
  await expect(captions.nth(3)).toHaveValue('男子100米起跑');
  await shot(page, 'meet-photos');
});
