import { expect, test } from '@playwright/test';
import type { TestDayProgress } from '../../src/domain/test-day/entries';
import type { StationRow, TestDayPlan } from '../../src/domain/test-day/stations';
import { authHeaders, axeProblems, phoneSignedIn, shot } from './support';

const api = '/api/busi/web/k12/physiqueManage/testDay';


/**
 * A test day run on a phone (docs/product-rules.md#test-day): a teacher checks a student in by typed 学籍号 at the
 * demo's sit-and-reach station, types the value, the student confirms, an appeal is recorded, and another teacher
 * resolves it by correcting the value.
 */
test('a station on a phone: check in, enter, confirm, appeal, and a second teacher resolves', async ({ browser }) => {
  test.slow();
  const page = await phoneSignedIn(browser, 'school01');
  const headers = await authHeaders(page);
  const plans = (await (await page.request.get(`${api}/plans`, { headers })).json()).data as TestDayPlan[];
  const plan = plans[0];
  const list = (await (await page.request.get(`${api}/page?planId=${plan.id}&current=1&size=20`, { headers })).json()).data.records as StationRow[];
  const station = list.find((s) => s.name === '坐位体前屈')!;
  const progress = (await (await page.request.get(`${api}/progress?planId=${plan.id}`, { headers })).json()).data as TestDayProgress;
  const student = progress.classes.flatMap((c) => c.missingStudents).find((s) => s.stations.includes('坐位体前屈'))!;

  await page.goto(`/busi/k12/physiqueManage/testDay/station/${station.id}`);
  const screen = page.getByTestId('station-screen');
  await expect(screen.getByRole('heading', { name: '坐位体前屈' })).toBeVisible();
  await page.getByTestId('station-code').fill('NOSUCH999');
  await page.getByTestId('station-check-in').click();
  await expect(screen.getByRole('alert')).toContainText('未找到学籍号为 NOSUCH999 的学生');
  await page.getByTestId('station-code').fill(student.regNo);
  await page.getByTestId('station-check-in').click();
  const card = page.getByTestId('station-student');
  await expect(card.getByTestId('station-student-name')).toHaveText(student.name);

  await card.getByTestId('input-sitAndReach').fill('12.5');
  await card.getByTestId('enter-sitAndReach').click();
  await expect(card.getByTestId('entry-sitAndReach')).toHaveText('12.5');
  await expect(card.getByTestId('field-sitAndReach')).toContainText('待确认');
  await shot(page, 'test-day-station-zh_cn');
  expect(await axeProblems(page)).toEqual([]);

  await card.getByTestId('station-confirm').click();
  await expect(card.getByTestId('field-sitAndReach')).toContainText('已确认');
  await card.getByTestId('appeal-sitAndReach').click();
  const appeal = page.getByTestId('appeal-dialog');
  await appeal.getByLabel('申诉说明').fill('学生认为推板读数偏小');
  await appeal.getByTestId('form-save').click();
  await expect(appeal).toBeHidden();
  await expect(card.getByTestId('field-sitAndReach')).toContainText('申诉中');
  // The teacher who recorded the appeal may not resolve it.
  const appeals = page.getByTestId('station-appeals');
  await appeals.getByTestId('appeal-resolve').first().click();
  const mine = page.getByTestId('resolve-dialog');
  await mine.getByTestId('form-save').click();
  await expect(mine).toContainText('另一位教师');
  await mine.getByRole('button', { name: '取消' }).click();

  const other = await phoneSignedIn(browser, 'teacher01');
  await other.goto(`/busi/k12/physiqueManage/testDay/station/${station.id}`);
  const row = other.getByTestId('station-appeals').locator('div').filter({ hasText: student.name }).first();
  await row.getByTestId('appeal-resolve').click();
  const resolve = other.getByTestId('resolve-dialog');
  await resolve.getByLabel('更正成绩').check();
  await resolve.getByLabel('更正后的成绩').fill('13');
  await resolve.getByTestId('form-save').click();
  await expect(resolve).toBeHidden();
  expect(await axeProblems(other)).toEqual([]);
  await page.reload();
  await page.getByTestId('station-code').fill(student.regNo);
  await page.getByTestId('station-check-in').click();
  await expect(page.getByTestId('entry-sitAndReach')).toHaveText('13');
  await expect(page.getByTestId('field-sitAndReach')).toContainText('12.5 更正为 13');
});
