import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { axeProblems, shot, shown, signIn } from './support';

const photo = (seed: number) =>
  sharp({ create: { width: 240, height: 320, channels: 3, background: { r: 40 + seed * 40, g: 120, b: 200 - seed * 30 } } })
    .jpeg()
    .toBuffer();

/** Batch face photos: a school administrator uploads photos named by registration number, confirms, and sees them in the list. */
test('school01 uploads face photos for students by registration number', async ({ page }) => {
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);

  await page.goto('/busi/k12/user/student');
  const list = page.getByTestId('student-list');
  const photos = list.locator('[data-slot=photo-avatar] img');
  await expect(list.getByRole('cell', { name: /^G\d{17}[\dX]$/ }).first()).toBeVisible();
  // Students without a photo yet (a retry finds the first attempt's three with theirs). Distinct: a student with an app
  // account shows the 学籍号 again as the account's login.
  const before = await list.locator('[data-slot=photo-avatar][data-has-photo=true]').count();
  const regNos = list
    .getByRole('row')
    .filter({ has: page.locator('[data-slot=photo-avatar][data-has-photo=false]') })
    .getByRole('cell', { name: /^G\d{17}[\dX]$/ });
  const chosen = [...new Set(await regNos.allInnerTexts())].slice(0, 3);
  expect(chosen).toHaveLength(3);

  await page.getByTestId('list-facePhotos').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('照片以学籍号或姓名命名');
  await dialog.getByTestId('face-photos-files').setInputFiles([
    ...(await Promise.all(chosen.map(async (regNo, i) => ({ name: `${regNo}.jpg`, mimeType: 'image/jpeg', buffer: await photo(i) })))),
    { name: '查无此人.jpg', mimeType: 'image/jpeg', buffer: await photo(4) },
    { name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('<html>not a photo</html>') },
  ]);
  await expect(dialog.getByTestId('face-photos-matched')).toHaveText('已匹配 3');
  await expect(dialog.getByTestId('face-photos-unmatched')).toHaveText('未匹配 1');
  await expect(dialog.getByTestId('face-photos-refused')).toHaveText('未通过检查 1');
  await shot(page, 'people-photos-report');
  // The report passes axe too (the a11y table covers the dialog's first state).
  expect(await axeProblems(page, '[role=dialog]')).toEqual([]);
  const done = shown(page, '已为 3 人设置照片');
  await dialog.getByTestId('face-photos-confirm').click();
  await expect(dialog).toBeHidden();
  await done;

  // The list shows the photos of exactly those students.
  for (const regNo of chosen) {
    const row = list.getByRole('row').filter({ has: page.getByRole('cell', { name: regNo, exact: true }) });
    await expect(row.locator('[data-slot=photo-avatar] img')).toBeVisible();
  }
  await expect(photos).toHaveCount(before + 3);

  // Again with the same files: the students have photos now, so nothing is replaced unless asked.
  await page.getByTestId('list-facePhotos').click();
  await dialog.getByTestId('face-photos-files').setInputFiles(await Promise.all(chosen.map(async (regNo, i) => ({ name: `${regNo}.jpg`, mimeType: 'image/jpeg', buffer: await photo(i + 5) }))));
  await expect(dialog.getByTestId('face-photos-matched')).toHaveText('已匹配 3');
  await expect(dialog.getByTestId('face-photos-confirm')).toBeDisabled();
  await dialog.getByTestId('face-photos-replace').click();
  await expect(dialog.getByTestId('face-photos-confirm')).toBeEnabled();
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(dialog).toBeHidden();
});
