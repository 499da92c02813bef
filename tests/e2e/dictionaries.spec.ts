import { expect, test, type Page } from '@playwright/test';
import { chooseLoginLanguage, shot, signIn } from './support';

// docs/product-rules.md#dictionaries
async function signedIn(page: Page, language?: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  if (language) await chooseLoginLanguage(page, language);
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
}

/** A school adds its own venue type on 字典管理 and picks it in the venue form; platform entries stay read-only. */
test('school01 adds a venue type and sees it in the venue form', async ({ page }) => {
  await signedIn(page);
  await page.goto('/busi/k12/system/dictionary');
  const entries = page.getByTestId('dictionary-entries');
  await expect(entries.getByRole('cell', { name: '田径场' })).toBeVisible();
  // A platform row has no edit or delete button.
  await expect(entries.getByRole('row').filter({ hasText: '田径场' }).getByTestId('row-edit')).toHaveCount(0);

  await page.getByTestId('list-add').click();
  const form = page.getByTestId('dictionary-entry-form');
  await form.getByLabel('编码').fill('e2eClimb');
  await form.getByLabel('名称（简体中文）').fill('攀岩墙');
  await form.getByLabel('名称（英文）').fill('Climbing wall');
  await form.getByTestId('form-save').click();
  const mine = entries.getByRole('row').filter({ hasText: '攀岩墙' });
  await expect(mine).toBeVisible();
  await expect(mine).toContainText('本单位');
  await shot(page, 'dictionaries-zh_cn');

  // A platform dictionary takes no entry: no add button.
  await page.getByTestId('dictionary-deviceKind').click();
  await expect(entries.getByRole('cell', { name: '心率手环' })).toBeVisible();
  await expect(page.getByTestId('list-add')).toHaveCount(0);

  await page.goto('/busi/k12/place/add');
  const venue = page.getByTestId('venue-form');
  await venue.getByLabel('场地名称').fill('e2e攀岩馆');
  await venue.getByRole('combobox', { name: '场地类型' }).click();
  await page.getByRole('option', { name: '攀岩墙' }).click();
  await venue.getByLabel('场地ID').fill('88');
  await venue.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/k12\/place$/);
  await expect(page.getByTestId('venue-list').getByRole('row').filter({ hasText: 'e2e攀岩馆' })).toContainText('攀岩墙');
});

test('the dictionary screen in English', async ({ page }) => {
  await signedIn(page, 'English');
  await page.goto('/busi/k12/system/dictionary?dictionary=nation');
  await expect(page.getByTestId('dictionary-entries').getByRole('cell', { name: 'Han', exact: true })).toBeVisible();
  await shot(page, 'dictionaries-en_us');
});
