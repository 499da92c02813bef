import { expect, test } from '@playwright/test';
import { choose, chooseLoginLanguage, clickRowAction, shot, signIn } from './support';

/** The school administrator adds a staff member with a taught class, finds them, edits them and disables them. */
test('school01 adds, finds, edits and disables a staff member', async ({ page }) => {
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);

  await page.goto('/busi/k12/user/teacher');
  const list = page.getByTestId('staff-list');
  await expect(list.getByRole('row').filter({ hasText: 'teacher01' })).toBeVisible();
  await page.getByTestId('list-add').click();

  const form = page.getByTestId('staff-form');
  await form.getByLabel('姓名').fill('欧阳晓岚');
  await form.getByLabel('工号').fill('E2E-001');
  await form.getByLabel('登录账号').fill('e2estaff01');
  await form.getByLabel('初始密码').fill('Start2026');
  await choose(form.locator('[data-field=roleId]').getByRole('combobox').first(), '体育教师', true);
  // A mistyped resident ID is caught by its check digit before anything is sent.
  await form.getByLabel('身份证号').fill('320115198506120037');
  await form.getByTestId('form-save').click();
  await expect(form.locator('[data-field=idCard]')).toContainText('身份证号码格式不正确');
  await form.getByLabel('身份证号').fill('３２０１１５１９８５０６１２００３６');
  await form.getByTestId('staff-add-class').click();
  await choose(form.getByRole('combobox', { name: '第1行班级' }), '七年级1班');
  await form.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/k12\/user\/teacher$/);

  await list.getByLabel('关键字').fill('e2estaff01');
  await page.getByRole('button', { name: '查询' }).click();
  const row = list.getByRole('row').filter({ hasText: 'e2estaff01' });
  await expect(row).toContainText('欧阳晓岚');
  await expect(row).toContainText('七年级1班');
  await expect(row).toContainText('待改密码');
  // The list never shows the ID number.
  await expect(list).not.toContainText('320115198506120036');

  await row.locator('[data-slot=row-actions]').getByRole('button').first().click();
  await expect(form.getByLabel('身份证号')).toHaveValue('320115198506120036');
  await form.getByLabel('手机号').fill('13955550101');
  await form.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/k12\/user\/teacher/);
  await expect(row).toContainText('13955550101');

  await clickRowAction(row, 'staff-disable');
  await expect(page.getByRole('alertdialog')).toContainText('停用“欧阳晓岚”？');
  await page.getByRole('alertdialog').getByRole('button', { name: '停用' }).click();
  await expect(row).toContainText('停用');
  await row.getByTestId('row-more').click();
  await expect(page.getByTestId('row-more-menu').getByTestId('staff-enable')).toBeVisible();
});

/** Screenshots of the list, the form (also with a bad ID number and a long name) and the reset dialog, zh_cn and en_us. */
for (const [language, name] of [
  ['zh_cn', '简体中文'],
  ['en_us', 'English'],
] as const) {
  test(`staff screens render (${language})`, async ({ page }) => {
    await page.goto('/busi/');
    await chooseLoginLanguage(page, name);
    await signIn(page, 'school01');
    await expect(page).toHaveURL(/\/k12\//);
    await page.goto('/busi/k12/user/teacher');
    const list = page.getByTestId('staff-list');
    await expect(list.getByRole('row').filter({ hasText: 'teacher01' })).toBeVisible();
    await shot(page, `people-staff-list-${language}`);

    await list.getByRole('row').filter({ hasText: 'teacher02' }).getByTestId('staff-reset-password').click();
    await expect(page.getByTestId('staff-reset-dialog')).toBeVisible();
    await shot(page, `people-staff-reset-${language}`);
    await page.keyboard.press('Escape');

    await list.getByRole('row').filter({ hasText: 'teacher02' }).locator('[data-slot=row-actions]').getByRole('button').first().click();
    const form = page.getByTestId('staff-form');
    await expect(form.locator('[data-testid=staff-taught-row]').first()).toBeVisible();
    await shot(page, `people-staff-edit-${language}`);

    await page.goto('/busi/k12/user/teacher/add');
    await form.locator('[data-field=name] input').fill('阿卜杜热合曼·买买提艾力·司马义·吐尔逊·阿不都热依木');
    await form.locator('[data-field=idCard] input').fill('320115198506120037');
    await choose(form.locator('[data-field=certificateType]').getByRole('combobox'));
    await form.getByTestId('form-save').click();
    await expect(form.locator('[data-field=idCard] [data-slot=form-message]')).toBeVisible();
    await shot(page, `people-staff-add-invalid-${language}`);
    await page.getByTestId('staff-form').locator('[data-field=name]').scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, -2000);
    await shot(page, `people-staff-add-long-name-${language}`);
  });
}
