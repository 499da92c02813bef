import { expect, test } from '@playwright/test';
import { authHeaders, choose, PHONE, phoneSignedIn, shown } from './support';

/**
 * The list and dialog kits on a phone (390 × 844, docs/decisions/054-phone-layout.md): a class's roster shows each
 * student as a card with the whole name, a row's actions open from its menu, and a form in a dialog fills the screen
 * and saves.
 */
const api = '/api/busi/web/k12/user/student';


interface StudentRow {
  id: string;
  name: string;
  classId: string;
  className: string;
}

test("a class's roster on a phone: whole names on cards, actions from the menu, a dialog form full-screen that saves", async ({ browser }) => {
  test.slow();
  const page = await phoneSignedIn(browser, 'school01');
  const headers = await authHeaders(page);
  const first = ((await (await page.request.get(`${api}/page?current=1&size=10`, { headers })).json()).data.records as StudentRow[])[0];
  const roster = (await (await page.request.get(`${api}/page?current=1&size=10&classId=${first.classId}`, { headers })).json()).data.records as StudentRow[];

  await page.goto(`/busi/k12/user/student?classId=${first.classId}`);
  const list = page.getByTestId('student-list');
  const cards = list.locator('[data-slot=data-table-row]');
  await expect(cards).toHaveCount(roster.length);
  await expect(list.getByRole('table')).toHaveCount(0);
  for (const [i, student] of roster.entries()) {
    const title = cards.nth(i).locator('[data-slot=data-table-card-title]');
    await expect(title).toContainText(student.name);
    // Whole: the title is not cut by its box (the table showed "李" at this width).
    expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  }
  // Nothing sideways: the card fits the screen.
  const box = (await cards.first().boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);

  // The first card's actions are one menu; transfer opens the kit's form dialog, which fills the screen.
  const card = cards.filter({ hasText: first.name }).first();
  await expect(card.getByTestId('row-transfer')).toHaveCount(0);
  await card.getByTestId('row-more').click();
  await page.getByTestId('row-more-menu').getByTestId('row-transfer').click();
  const dialog = page.getByTestId('student-transfer-dialog');
  await expect(dialog).toBeVisible();
  // Measured once its opening animation (a short zoom) has ended.
  await expect.poll(async () => dialog.boundingBox()).toMatchObject({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });

  // Saves: to another class, then back (the roster stays as the demo has it).
  const other = (await (await page.request.get(`${api}/options`, { headers })).json()).data.classes.find((c: { id: string }) => c.id !== first.classId) as { id: string; name: string };
  await choose(dialog.locator('[data-field=classId]').getByRole('combobox'), other.name, true);
  const done = shown(page, '已调班1名学生');
  await dialog.getByTestId('transfer-confirm').click();
  await done;
  await expect(dialog).toBeHidden();
  await expect(cards.filter({ hasText: first.name })).toHaveCount(0);
  const back = await page.request.post(`${api}/transfer`, { headers, data: { studentIds: [first.id], classId: first.classId } });
  expect(back.status(), await back.text()).toBe(200);
});
