import { expect, test } from '@playwright/test';
import { shot, signIn } from './support';

/**
 * Relays (docs/product-rules.md#meets, meet relays): school01 enters a relay team in the demo autumn meet with the team
 * form, approves the teams, draws, times the relay, publishes it and sees the class points doubled.
 */
const MEET = /2026年秋季运动会/;

test('school01 enters a relay team, draws, times and publishes the relay; its class scores double', async ({ page }) => {
  test.slow();
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);

  await page.goto('/busi/single/sportsMeet/signUp');
  await page.getByTestId('meet-picker').getByRole('row', { name: MEET }).getByRole('button', { name: '详情' }).click();
  const signup = page.getByTestId('signup');
  await expect(signup.getByTestId('team-entry')).toHaveCount(3);
  await shot(page, 'meet-relays-signup');

  // The team form: the first runner fixes the class; four runners in order, the last moved up.
  await page.getByTestId('list-addTeam').click();
  const form = page.getByTestId('team-form');
  const picker = form.getByTestId('team-picker');
  for (let i = 0; i < 4; i++) {
    await picker.click();
    await page.getByTestId('picker-option').first().click();
  }
  await expect(form.getByTestId('team-leg')).toHaveCount(4);
  const fourth = (await form.getByTestId('team-leg').nth(3).innerText()).split('\n')[1];
  await form.getByTestId('team-leg').nth(3).getByRole('button', { name: /上移/ }).click();
  await expect(form.getByTestId('team-leg').nth(2)).toContainText(fourth);
  await expect(form.getByTestId('team-name')).toHaveValue(/队$/);
  await shot(page, 'meet-relays-team-form');
  await form.getByTestId('team-submit').click();
  await expect(form).toBeHidden();
  await expect(signup.getByTestId('team-entry')).toHaveCount(4);

  await signup.getByLabel('全选本页').check();
  await page.getByTestId('list-approve').click();
  await expect(signup.getByRole('row').filter({ hasText: '待审核' })).toHaveCount(0);

  // Draw: the teams take lanes of one heat, their runners listed under them.
  await page.goto('/busi/k12/sportsMeet');
  await page.getByTestId('meet-list').getByRole('row', { name: MEET }).getByRole('button', { name: '编排' }).click();
  await page.getByTestId('draw-seeded').click();
  await expect(page.getByTestId('arrange-state')).toHaveText('已分组');
  const relayHeat = page.getByTestId('heat').filter({ hasText: '4×100米接力' });
  await expect(relayHeat.getByTestId('relay-legs')).toHaveCount(4);
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('heat-sheet').filter({ hasText: '4×100米接力' })).toBeVisible();
  await page.getByTestId('heat-sheet').filter({ hasText: '4×100米接力' }).scrollIntoViewIfNeeded();
  await shot(page, 'meet-relays-heat-sheet');
  await page.emulateMedia({ media: 'screen' });

  // Results: one time per team, confirmed and published.
  await page.goto('/busi/single/sportsMeet/score');
  await page.getByTestId('meet-picker').getByRole('row', { name: MEET }).getByRole('button', { name: '成绩录入' }).click();
  await page.getByTestId('score-heat').filter({ hasText: '4×100米接力' }).click();
  const rows = page.getByTestId('result-row');
  await expect(rows).toHaveCount(4);
  for (let i = 0; i < 4; i++) await rows.nth(i).getByRole('textbox').fill(`5${i}.${i + 1}`);
  const winner = (await rows.nth(0).locator('td').nth(3).innerText()).trim();
  await page.getByTestId('results-save').click();
  await expect(page.getByTestId('result-state')).toHaveText('已录入');
  await page.getByTestId('results-confirm').click();
  await expect(page.getByTestId('result-state')).toHaveText('已审核');
  await page.getByTestId('results-publish').click();
  await expect(page.getByTestId('result-state')).toHaveText('已发布');

  // Points: the winning team's class has 9 × 2.
  const meetId = page.url().split('/').pop()!;
  await page.goto(`/busi/single/sportsMeet/points/${meetId}`);
  await expect(page.getByTestId('points-class').getByRole('listitem').first()).toContainText(winner);
  await expect(page.getByTestId('points-class').getByRole('listitem').first()).toContainText('18');
});
