import { expect, test, type Page } from '@playwright/test';
import { chooseLoginLanguage, shot, signIn } from './support';

async function signedIn(page: Page, language?: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  if (language) await chooseLoginLanguage(page, language);
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
}

/** A school administrator adds a device (a bad MAC is refused on the field), then associates it with a venue and detaches it. */
test('school01 adds a device and associates it with a venue', async ({ page }) => {
  await signedIn(page);
  await page.goto('/busi/k12/device');
  const list = page.getByTestId('device-list');
  await expect(list.getByRole('cell', { name: '智能跳绳主机' })).toBeVisible();
  await shot(page, 'venue-devices-zh_cn');

  await page.getByTestId('list-add').click();
  const form = page.getByTestId('device-form');
  await form.getByLabel('设备名称').fill('e2e 跳远测试仪（备用机，放在风雨操场东侧器材室）');
  await form.getByLabel('序列号').fill('e2e-0001');
  await form.getByLabel('MAC地址').fill('3C:6D:66:00:00');
  await form.getByTestId('form-save').click();
  await expect(form).toContainText('MAC地址格式不正确');
  await shot(page, 'venue-device-form-zh_cn');
  await form.getByLabel('设备名称').fill('e2e跳远测试仪');
  await form.getByLabel('MAC地址').fill('3c-6d-66-00-00-99');
  await form.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/k12\/device$/);

  await page.goto('/busi/k12/place');
  const venues = page.getByTestId('venue-list');
  const row = venues.getByRole('row').filter({ hasText: '田径场' });
  await expect(row).toBeVisible();
  await shot(page, 'venue-places-zh_cn');
  await row.getByTestId('venue-devices').click();
  await expect(page).toHaveURL(/\/k12\/place\/device\/[0-9a-f-]+$/);
  const assoc = page.getByTestId('venue-devices');
  await expect(assoc.getByRole('cell', { name: '操场成绩大屏' })).toBeVisible();
  await page.getByTestId('list-device').click();
  const dialog = page.getByTestId('venue-device-attach');
  await dialog.getByTestId('candidate-E2E-0001').click();
  await shot(page, 'venue-attach-zh_cn');
  await dialog.getByTestId('venue-device-attach-confirm').click();
  const added = assoc.getByRole('row').filter({ hasText: 'e2e跳远测试仪' });
  await expect(added).toBeVisible();
  await shot(page, 'venue-place-devices-zh_cn');
  await added.getByTestId('venue-device-detach').click();
  await page.getByRole('alertdialog').getByRole('button', { name: '移出' }).click();
  await expect(added).toHaveCount(0);
});

test('the device and venue screens in English', async ({ page }) => {
  await signedIn(page, 'English');
  await page.goto('/busi/k12/device');
  await expect(page.getByTestId('device-list').getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByTestId('device-list')).toContainText('Serial number');
  await shot(page, 'venue-devices-en_us');
  await page.getByTestId('device-list').getByTestId('row-edit').first().click();
  await expect(page.getByTestId('device-form').getByLabel('Device name')).not.toHaveValue('');
  await shot(page, 'venue-device-form-en_us');
  await page.goto('/busi/k12/place');
  await expect(page.getByTestId('venue-list').getByRole('row').nth(1)).toBeVisible();
  await shot(page, 'venue-places-en_us');
  await page.getByTestId('list-add').click();
  const form = page.getByTestId('venue-form');
  await form.getByLabel('Venue ID').fill('1');
  await form.getByTestId('form-save').click();
  await expect(form).toContainText('The venue ID must be two digits');
  await shot(page, 'venue-place-form-en_us');
  await page.goto('/busi/k12/place');
  await page.getByTestId('venue-list').getByTestId('venue-devices').first().click();
  await expect(page.getByTestId('venue-devices').getByRole('row').nth(1)).toBeVisible();
  await shot(page, 'venue-place-devices-en_us');
});
