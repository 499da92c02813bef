import { expect, test, type Page } from '@playwright/test';
import { PHONE, shot, signIn } from './support';

/** Notices (docs/product-rules.md#notices): the district publishes, a school reads, the district sees the receipt. */

async function signedIn(page: Page, account: string, family: string) {
  await page.goto('/busi/');
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/(${family}|myInfo)/`));
}

test('a notice the district publishes is read by a school, and the district sees the receipt', async ({ browser }) => {
  const title = `冬季长跑通知 ${Date.now()}`;
  const district = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signedIn(district, 'district01', 'admin');
  await district.goto('/busi/admin/system/notice');
  await expect(district.getByTestId('notice-list')).toBeVisible();
  await district.getByTestId('list-add').click();
  const form = district.getByTestId('notice-form');
  await form.getByRole('textbox', { name: '标题', exact: true }).fill(title);
  await form.getByText('立即发布').click();
  await form.locator('.ProseMirror').click();
  await district.keyboard.type('各学校：请于本周内组织冬季长跑。<script>alert(1)</script>');
  await shot(district, 'notices-form-zh_cn');
  await form.getByTestId('form-save').click();
  const row = district.getByTestId('notice-list').getByRole('row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('notice-reads')).toHaveText(/^0 \/ \d+$/);
  await shot(district, 'notices-list-zh_cn');

  // A school reads it on a phone: unread first, opening shows it (typed markup stays text) and marks it read.
  const school = await (await browser.newContext({ viewport: PHONE })).newPage();
  await signedIn(school, 'school01', 'k12');
  await school.goto('/busi/myInfo/messages');
  const item = school.getByTestId('inbox-item').filter({ hasText: title });
  await expect(item).toHaveAttribute('data-read', 'false');
  await shot(school, 'notices-inbox-phone-zh_cn');
  await item.click();
  const opened = school.getByTestId('inbox-notice');
  await expect(opened).toContainText('各学校：请于本周内组织冬季长跑。');
  await expect(opened).toContainText('<script>alert(1)</script>');
  await expect(opened.locator('script')).toHaveCount(0);
  await shot(school, 'notices-inbox-open-phone-zh_cn');
  await school.keyboard.press('Escape');
  await expect(item).toHaveAttribute('data-read', 'true');

  // The district's list and detail count the read; school01's administrator is among the readers.
  await district.reload();
  await expect(row.getByTestId('notice-reads')).toHaveText(/^1 \/ \d+$/);
  await row.getByTestId('notice-open').click();
  const receipts = district.getByTestId('notice-receipts');
  await expect(receipts.getByTestId('receipt-read')).toContainText('陈丽华');
  await expect(receipts.getByTestId('receipt-org').first()).toBeVisible();
  await shot(district, 'notices-detail-zh_cn');
});
