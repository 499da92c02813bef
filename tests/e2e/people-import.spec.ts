import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import * as XLSX from 'xlsx';
import { chooseLoginLanguage, signIn } from './support';

const SHOTS = '/tmp/pimport-shots';
const toFullWidth = (s: string) => s.replace(/[0-9A-Za-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

/** The downloaded template filled as LibreOffice saves a sheet typed by hand: every value a text cell, some digits full-width. */
async function fillTemplate(path: string, rows: string[][]): Promise<Buffer> {
  const book = XLSX.read(await readFile(path));
  const sheet = book.Sheets[book.SheetNames[0]];
  const header = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1 })[0];
  const body = rows.map((r) => header.map((_, i) => r[i] ?? ''));
  const out = XLSX.utils.aoa_to_sheet([header, ...body]);
  // Numbers stored as text: LibreOffice writes what was typed into a text-formatted cell as a string.
  for (const key of Object.keys(out)) if (!key.startsWith('!') && out[key].t === 'n') out[key] = { t: 's', v: String(out[key].v) };
  book.Sheets[book.SheetNames[0]] = out;
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

async function openImport(page: Page, listTestId: string) {
  await expect(page.getByTestId(listTestId)).toBeVisible();
  await page.getByTestId('list-import').click();
  const dialog = page.locator('[data-slot="import-dialog"]');
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The school office imports students with their parents from the template: dry run, then commit; the parents are linked. */
test('school01 imports students with parents through the dry run', async ({ page }) => {
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  await page.goto('/busi/k12/user/student');
  const dialog = await openImport(page, 'student-list');
  await expect(dialog.locator('[data-slot="import-year-semester"]')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/dialog-0-choose-zh_cn.png` });

  const [template] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: '下载导入模板' }).click()]);
  expect(template.suggestedFilename()).toBe('学生导入模板.xlsx');
  const file = await fillTemplate(await template.path(), [
    ['林小雨', toFullWidth('G320115201509010011'), toFullWidth('20250101'), '女', '2015/9/1', '汉族', '一年级', '一年级3班', '林大山', toFullWidth('13912345601'), '父亲', '男'],
    ['林小风', 'G320115201609010012', '20250102', '男', '2016-09-01', '汉', '一年级', '一年级2班', '林大山', '13912345601', '父亲', '男'],
    ['林小错', 'G320115201609010013', '', '未知', '', '', '一年级', '一年级3班'],
  ]);

  // State 1 lasts as long as the server takes: hold the answer a moment to see it.
  await page.route('**/import/preview', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await dialog.locator('input[type="file"]').setInputFiles({ name: '学生名单.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file });
  await expect(dialog.locator('[data-slot="import-uploading"]')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/dialog-1-uploading-zh_cn.png` });

  const review = dialog.locator('[data-slot="import-review"]');
  await expect(review).toBeVisible();
  await expect(review.locator('[data-slot="import-review-create"]')).toContainText('2');
  await expect(review.locator('[data-slot="import-review-rejected"]')).toContainText('1');
  await expect(review.locator('[data-slot="import-review-parents"]')).toContainText('新增1人');
  await expect(review.locator('[data-slot="import-review-failures"]')).toContainText('第4行，性别');
  await page.screenshot({ path: `${SHOTS}/dialog-review-zh_cn.png` });

  await dialog.getByTestId('import-commit').click();
  await expect(dialog.locator('[data-slot="import-finished"]')).toBeVisible();
  await expect(dialog.locator('[data-slot="import-success"]')).toHaveText('2');
  await expect(dialog.locator('[data-slot="import-failure"]')).toHaveText('1');
  await page.screenshot({ path: `${SHOTS}/dialog-2-finished-zh_cn.png` });
  const [failures] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: '导出失败数据' }).click()]);
  expect(failures.suggestedFilename()).toBe('学生导入结果_2_1.xlsx');
  await dialog.getByRole('button', { name: '确定' }).click();

  // The students are there, with their parent linked (the export lists each student's parents).
  const list = page.getByTestId('student-list');
  await list.getByLabel('关键字').fill('林小');
  await page.getByRole('button', { name: '查询' }).click();
  await expect(list.getByRole('row').filter({ hasText: 'G320115201509010011' })).toContainText('林小雨');
  await expect(list.getByRole('row').filter({ hasText: 'G320115201609010012' })).toContainText('林小风');
  const [exported] = await Promise.all([page.waitForEvent('download'), page.getByTestId('list-export').click()]);
  const rows = XLSX.utils.sheet_to_json<string[]>(XLSX.read(await readFile(await exported.path())).Sheets['学生'], { header: 1 });
  const byRegNo = new Map(rows.map((r) => [r[1], r]));
  expect(byRegNo.get('G320115201509010011')?.slice(8, 11)).toEqual(['林大山', '13912345601', '父亲']);
  expect(byRegNo.get('G320115201609010012')?.slice(8, 11)).toEqual(['林大山', '13912345601', '父亲']);
});

test('the import dialog in English', async ({ page }) => {
  await page.goto('/busi/');
  await chooseLoginLanguage(page, 'English');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  await page.goto('/busi/k12/user/student');
  const dialog = await openImport(page, 'student-list');
  await page.screenshot({ path: `${SHOTS}/dialog-0-choose-en_us.png` });
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['姓名', '学籍号', '性别', '年级', '班级'], ['Li Wei', 'G1', 'male', '1', '一年级3班'], ['X', 'G1', '男', '1', '一年级3班']]), 'S');
  await page.route('**/import/preview', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await dialog.locator('input[type="file"]').setInputFiles({ name: 'students.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer });
  await expect(dialog.locator('[data-slot="import-uploading"]')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/dialog-1-uploading-en_us.png` });
  await expect(dialog.locator('[data-slot="import-review"]')).toBeVisible();
  await expect(dialog.locator('[data-slot="import-review-failures"]')).toContainText('same as row 2');
  await page.screenshot({ path: `${SHOTS}/dialog-review-en_us.png` });
  await dialog.getByTestId('import-commit').click();
  await expect(dialog.locator('[data-slot="import-finished"]')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/dialog-2-finished-en_us.png` });
});

/** Staff: the same dialog; new accounts must change their first password. */
test('school01 imports staff through the dry run', async ({ page }) => {
  await page.goto('/busi/');
  await signIn(page, 'school01');
  await expect(page).toHaveURL(/\/k12\//);
  await page.goto('/busi/k12/user/teacher');
  const dialog = await openImport(page, 'staff-list');
  const [template] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: '下载导入模板' }).click()]);
  const role = XLSX.utils.sheet_to_json<string[]>(XLSX.read(await readFile(await template.path())).Sheets['教职工'], { header: 1 })[1][3];
  const file = await fillTemplate(await template.path(), [['宋老师', 'songls01', 'Start2026', role, toFullWidth('13912345611'), '女', toFullWidth('W77')]]);
  await dialog.locator('input[type="file"]').setInputFiles({ name: 'staff.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file });
  await expect(dialog.locator('[data-slot="import-review-create"]')).toContainText('1');
  await dialog.getByTestId('import-commit').click();
  await expect(dialog.locator('[data-slot="import-success"]')).toHaveText('1');
  await dialog.getByRole('button', { name: '确定' }).click();
  const list = page.getByTestId('staff-list');
  await list.getByLabel('关键字').fill('songls01');
  await page.getByRole('button', { name: '查询' }).click();
  await expect(list.getByRole('row').filter({ hasText: 'songls01' })).toContainText('待改密码');
});
