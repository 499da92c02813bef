import { expect, test } from '@playwright/test';
import { shot, shown, signIn } from './support';

/**
 * The small school's administrator (school02, whose data no other e2e test reads) rolls the school year over and undoes
 * it, leaving the school as it was (docs/product-rules.md#year-rollover).
 */
test('an administrator rolls the school over to the next year and undoes it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  await signIn(page, 'school02');
  await expect(page).toHaveURL(/\/k12\//);

  await page.goto('/busi/k12/org/acayear');
  await page.getByTestId('list-rollover').click();
  await expect(page).toHaveURL(/\/k12\/org\/acayear\/rollover$/);
  await expect(page.getByTestId('rollover-years')).toContainText('2026-2027 → 新学年 2027-2028');
  await shot(page, 'rollover-year-zh_cn');
  // Step 1: the new year does not exist yet; its default dates are used.
  await page.getByTestId('rollover-next').click();

  // Step 2: every class moves up; grade 6 graduates; grade 1 gets the current grade 1's class, plus one added here.
  const step2 = page.getByTestId('rollover-step-preview');
  await expect(step2.getByRole('row').filter({ hasText: '一年级1班' })).toContainText('二年级1班');
  await expect(step2.getByRole('table', { name: '毕业的年级' })).toContainText('六年级1班');
  await page.getByTestId('rollover-add-class-0').click();
  await page.getByTestId('rollover-next').click();
  await expect(step2.getByText('请填写班级名称')).toBeVisible();
  await page.locator('input[name="entering.0.classes.1.name"]').fill('一年级2班');
  await shot(page, 'rollover-preview-zh_cn');
  await page.getByTestId('rollover-next').click();

  // Step 3: confirm.
  await expect(page.getByTestId('rollover-summary')).toContainText('5个年级升级，1个年级毕业（30名学生），新开2个班级，2027-2028学年设为当前学年');
  await shot(page, 'rollover-confirm-zh_cn');
  await page.getByTestId('rollover-commit').click();
  await expect(page.getByText('学年升级完成', { exact: true })).toBeVisible();
  await expect(page.getByTestId('job-progress')).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('rollover-last')).toContainText('2026-2027 → 2027-2028');
  // The next rollover would start from the new year.
  await expect(page.getByTestId('rollover-years')).toContainText('2027-2028 → 新学年 2028-2029');

  // The classes moved up and the new ones are listed.
  await page.goto('/busi/k12/org/class');
  const classes = page.getByTestId('class-list');
  await expect(classes.getByRole('row').filter({ hasText: '六年级1班' })).toHaveCount(2);
  await expect(classes).toContainText('一年级2班');

  // Undo restores the school.
  await page.goto('/busi/k12/org/acayear/rollover');
  await page.getByTestId('rollover-undo').click();
  await shot(page, 'rollover-undo-zh_cn');
  const undone = shown(page, '已撤销学年升级');
  await page.getByRole('alertdialog').getByRole('button', { name: '确定' }).click();
  await undone;
  await expect(page.getByTestId('rollover-last')).toContainText('已撤销');
  await expect(page.getByTestId('rollover-undo')).toHaveCount(0);
  await expect(page.getByTestId('rollover-years')).toContainText('2026-2027 → 新学年 2027-2028');
  await page.goto('/busi/k12/org/class');
  await expect(classes).toContainText('一年级1班');
  await expect(classes).not.toContainText('一年级2班');
});

test('a university previews its rollover: classes graduate by their major’s length, no entering classes', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/busi/');
  await signIn(page, 'college01');
  await expect(page).toHaveURL(/\/gx\//);
  await page.goto('/busi/gx/org/acayear');
  await page.getByTestId('list-rollover').click();
  await expect(page).toHaveURL(/\/gx\/org\/acayear\/rollover$/);
  await page.getByTestId('rollover-next').click();
  const step2 = page.getByTestId('rollover-step-preview');
  // The fourth year of the demo's four-year majors leaves; the first year moves up to the second.
  await expect(step2.getByRole('table', { name: '毕业的年级' }).getByRole('row')).not.toHaveCount(1);
  await expect(step2.getByText('大学的新生入学年份与班级')).toBeVisible();
  await expect(page.getByTestId('rollover-add-class-0')).toHaveCount(0);
  await shot(page, 'rollover-gx-preview-zh_cn');
});
