import { expect, test, type Page } from '@playwright/test';
import { clickRowAction, shot, signIn } from './support';

async function signedIn(page: Page) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
}

const chinaToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());

/** A school administrator creates a ranking contest (a missing item is refused on the field), watches its data screen and ends it early. */
test('school01 creates a ranking contest, opens its data and ends it early', async ({ page }) => {
  await signedIn(page);
  await page.goto('/busi/k12/onlineManagement/competitionRank');
  const list = page.getByTestId('contest-list');
  await expect(list.getByRole('cell', { name: '冬季跳绳排名赛' })).toBeVisible();

  await page.getByTestId('list-add').click();
  const form = page.getByTestId('contest-form');
  await form.getByLabel('赛事名称').fill('e2e 仰卧起坐赛');
  for (const field of ['startDate', 'endDate']) {
    await form.locator(`[data-field=${field}] button`).first().click();
    await page.locator(`button[data-day="${chinaToday()}"]`).click();
    // The picked field's calendar closes (an animation) before the next one opens: two calendars would show the day twice.
    await expect(page.locator('[data-slot=calendar-day]')).toHaveCount(0);
  }
  await form.getByTestId('form-save').click();
  await expect(form).toContainText('请至少选择一个比赛项目');
  await form.getByLabel('1分钟仰卧起坐（次）').check();
  await form.getByTestId('form-save').click();
  await expect(page).toHaveURL(/competitionRank$/);
  const row = list.getByRole('row').filter({ hasText: 'e2e 仰卧起坐赛' });
  await expect(row).toContainText('进行中');

  await clickRowAction(row, 'row-data');
  await expect(page.getByTestId('contest-data')).toContainText('e2e 仰卧起坐赛');
  await page.goBack();
  await clickRowAction(row, 'row-end');
  await page.getByRole('alertdialog').getByRole('button', { name: '提前结束' }).click();
  await expect(row).toContainText('已结束');
  await expect(row.getByTestId('row-edit')).toHaveCount(0);
  await shot(page, 'contests-list-zh_cn');
});

/** Exercise records: filter by item, set one invalid with a reason; it stays listed, marked invalid. */
test('school01 sets an exercise record invalid with a reason', async ({ page }) => {
  await signedIn(page);
  await page.goto('/busi/k12/exerciseRecord');
  const list = page.getByTestId('exercise-records');
  const first = list.locator('[data-slot=data-table-row]').first();
  await expect(first).toBeVisible();
  await first.getByTestId('row-invalid').click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByLabel('无效原因').fill('非本人完成');
  await dialog.getByRole('button', { name: '确定' }).click();
  // The dialog closes once the save is answered; leaving the page before would cancel the request.
  await expect(dialog).toBeHidden();
  await page.goto('/busi/k12/exerciseRecord?invalid=true');
  await expect(list.locator('[data-slot=data-table-row]').first()).toContainText('无效');
});
