import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import * as XLSX from 'xlsx';
import { choose, shot, signIn } from './support';

/** A student of the plan's sign-up list, as the API answers it. */
interface SignUpStudent {
  studentId: string;
  name: string;
  regNo: string;
  gender: 'male' | 'female';
  className: string;
  gradeNo: number;
}

/** The signed-in session's API headers, read from the app's own storage. */
async function apiHeaders(page: Page): Promise<Record<string, string>> {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('tiyu.token') ?? 'null') as { access_token: string; token_type: string } | null);
  if (!token) throw new Error('not signed in');
  return { Authorization: `bearer ${token.access_token}` };
}

/** National grade code (年级编号) of a junior-middle grade: grade 7–9 → 21–23. */
const juniorCode = (gradeNo: number) => 20 + (gradeNo - 6);

/**
 * A national template for the students: plausible results for every item of a junior-middle student, and one bad row
 * (a registration number that is in no class of the plan), which must come back as a failure with its reason.
 */
function nationalTemplate(students: readonly SignUpStudent[]): Buffer {
  const header = ['年级编号', '班级编号', '班级名称', '学籍号', '民族代码', '姓名', '性别', '出生日期', '家庭住址', '身高', '体重', '肺活量', '50米跑', '坐位体前屈', '一分钟跳绳', '一分钟仰卧起坐', '50米×8往返跑', '引体向上', '立定跳远', '1000米跑', '800米跑'];
  const rows: (string | number)[][] = [header];
  students.forEach((s, i) => {
    const male = s.gender === 'male';
    const v = i % 5;
    rows.push([
      juniorCode(s.gradeNo),
      '0802',
      s.className,
      s.regNo,
      '01',
      s.name,
      male ? 1 : 2,
      '2012-09-01',
      '',
      155 + v * 2.5,
      45 + v * 1.5,
      male ? 2600 + v * 300 : 2100 + v * 250,
      male ? 8.2 + v * 0.3 : 9.0 + v * 0.3,
      male ? 6 + v * 2 : 10 + v * 2,
      '',
      male ? '' : 30 + v * 4,
      '',
      male ? 3 + v * 2 : '',
      male ? 190 + v * 8 : 160 + v * 6,
      male ? `4.${String(10 + v * 5).padStart(2, '0')}` : '',
      male ? '' : `3.${String(50 + v * 2).padStart(2, '0')}`,
    ]);
  });
  rows.push([22, '0802', '八年级2班', 'G999999999999999999', '01', '查无此人', 1, '2012-09-01', '', 160, 50, 3000, 8.5, 8, '', '', '', 5, 200, '4.20', '']);
  const sheet = XLSX.utils.aoa_to_sheet(rows);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, '体测成绩');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

test.describe('physique testing', () => {
  test('a teacher creates a plan, imports the national template, finds a student and opens the report', async ({ page }) => {
    test.slow();
    await page.goto('/busi/');
    await signIn(page, 'teacher01');
    await expect(page).toHaveURL(/\/busi\/k12\//);

    // The plan list.
    await page.goto('/busi/k12/organizeTest/testManage');
    await expect(page.getByTestId('plan-list')).toBeVisible();
    await expect(page.getByTestId('plan-name').first()).toBeVisible();
    await shot(page, 'physique-plan-list');

    // A new plan for one class: the current school year and semester (and their dates) are preselected.
    await page.getByTestId('plan-list').getByTestId('list-add').click();
    await expect(page.getByTestId('plan-form')).toBeVisible();
    await page.getByTestId('plan-submit').click();
    await expect(page.getByText('请填写计划名称')).toBeVisible();
    await expect(page.getByText('请选择测试范围')).toBeVisible();
    const planName = `E2E体测${Date.now().toString().slice(-6)}`;
    await page.getByTestId('plan-name-input').fill(planName);
    await page.getByTestId('plan-scope-type').getByText('按班级').click();
    await page.getByTestId('plan-scope-option').filter({ hasText: '八年级2班' }).click();
    await expect(page.getByTestId('plan-items').locator('[data-grade="8"]')).toContainText('立定跳远');
    await page.getByTestId('plan-fee').fill('9.996');
    await expect(page.getByTestId('plan-fee-preview')).toContainText('10.00');
    await page.getByTestId('plan-submit').click();
    await expect(page).toHaveURL(/\/organizeTest\/testManage\/check\//);
    await expect(page.getByTestId('plan-detail-name')).toHaveText(planName);
    await expect(page.getByTestId('plan-detail').getByTestId('plan-status').first()).toHaveText('进行中');
    const planId = new URL(page.url()).pathname.split('/').pop()!;

    // The class's students, read with the signed-in session, make the template.
    const headers = await apiHeaders(page);
    const signUp = await page.request.get(`/api/busi/web/k12/organizeTest/testManage/signUp/${planId}?current=1&size=80`, { headers });
    expect(signUp.ok()).toBe(true);
    const students = ((await signUp.json()) as { data: { records: SignUpStudent[] } }).data.records;
    expect(students.length).toBeGreaterThan(5);
    const workbook = nationalTemplate(students);

    // Import through the dialog: counts from the answer's file name, failures exported.
    await page.getByTestId('plan-import').click();
    const dialog = page.locator('[data-slot="import-dialog"]');
    await expect(dialog).toBeVisible();
    const [template] = await Promise.all([page.waitForEvent('download'), dialog.getByText('下载导入模板').click()]);
    expect(template.suggestedFilename()).toMatch(/\.xlsx$/);
    const templateBook = XLSX.read(await readFile(await template.path()));
    const header = XLSX.utils.sheet_to_json<unknown[]>(templateBook.Sheets[templateBook.SheetNames[0]], { header: 1 })[0];
    expect(header).toEqual(expect.arrayContaining(['年级编号', '学籍号', '姓名', '50米跑']));
    await dialog.locator('input[type="file"]').setInputFiles({
      name: '八年级2班体测成绩.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: workbook,
    });
    await expect(dialog.locator('[data-slot="import-finished"]')).toBeVisible();
    await expect(dialog.locator('[data-slot="import-success"]')).toHaveText(String(students.length));
    await expect(dialog.locator('[data-slot="import-failure"]')).toHaveText('1');
    await shot(page, 'physique-import-dialog');
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: '导出失败数据' }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`_${students.length}_1\\.xlsx$`));
    const failures = XLSX.read(await readFile(await download.path()), { type: 'buffer' });
    const failed = XLSX.utils.sheet_to_json<unknown[]>(failures.Sheets[failures.SheetNames[0]], { header: 1 });
    expect(JSON.stringify(failed)).toContain('G999999999999999999');
    expect(JSON.stringify(failed)).toContain('未找到该学生');
    await dialog.getByRole('button', { name: '确定' }).click();
    await expect(dialog).toBeHidden();

    // The plan now counts the class as tested.
    await expect(page.getByTestId('plan-overview')).toContainText(`${students.length} / ${students.length}`);

    // Score search finds one of the students with every item scored.
    const student = students[0];
    await page.goto('/busi/k12/organizeTest/scoreSearch');
    await expect(page.getByTestId('score-search')).toBeVisible();
    await choose(page.getByRole('combobox', { name: '测试计划' }), planName);
    await page.getByTestId('score-filter-keyword').fill(student.regNo);
    await page.getByTestId('score-filter-search').click();
    await expect(page.getByTestId('result-name')).toHaveCount(1);
    await expect(page.getByTestId('result-name')).toHaveText(student.name);
    await expect(page.getByTestId('score-summary')).toBeVisible();
    await expect(page.getByTestId('result-total')).not.toHaveText('—');
    await page.getByTestId('score-filter-keyword').fill('');
    await page.getByTestId('score-filter-search').click();
    await expect(page.getByTestId('result-name').first()).toBeVisible();
    await shot(page, 'physique-score-search');
    await page.getByTestId('score-filter-keyword').fill(student.regNo);
    await page.getByTestId('score-filter-search').click();
    await expect(page.getByTestId('result-name')).toHaveCount(1);

    // The report: items, total and level, charts drawn, printable.
    await page.getByTestId('result-report').click();
    await expect(page).toHaveURL(/\/busi\/scoreReportK12\?studentId=/);
    const report = page.getByTestId('student-report');
    await expect(report).toBeVisible();
    await expect(page.getByTestId('report-title')).toHaveText('学生体质健康测试报告');
    await expect(page.getByTestId('report-student')).toContainText(student.name);
    await expect(page.getByTestId('report-items')).toContainText('立定跳远');
    await expect(page.getByTestId('report-total')).not.toHaveText('—');
    await expect(page.getByTestId('report-screen')).toHaveAttribute('data-charts-ready', 'true');
    await expect(page.getByTestId('report-print')).toBeVisible();
    // A tall window so the screenshot holds the whole report, charts included.
    await page.setViewportSize({ width: 1440, height: 1900 });
    await expect(page.getByTestId('report-improve')).toBeInViewport();
    await shot(page, 'physique-report');
    await page.setViewportSize({ width: 1440, height: 900 });

    // On paper the shell and the controls are gone.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByTestId('sidebar')).toBeHidden();
    await expect(page.getByTestId('app-header')).toBeHidden();
    await expect(page.getByTestId('report-print')).toBeHidden();
    await expect(report).toBeVisible();
    await page.emulateMedia({ media: 'screen' });

    // Two plans in one school year: each row's report opens that plan's result and names the plan.
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(page).toHaveURL(new RegExp(`planId=${planId}`));
    await expect(page.getByTestId('report-plan')).toContainText(planName);
    let twice: { regNo: string; planName: string } | null = null;
    for (const s of students.slice(0, 8)) {
      const found = await page.request.get(`/api/busi/web/k12/organizeTest/scoreSearch/page?current=1&size=10&keyword=${s.regNo}`, { headers });
      const rows = ((await found.json()) as { data: { records: { planName: string; academicYear: string }[] } }).data.records;
      const other = rows.find((r) => r.planName !== planName && r.academicYear === '2026-2027');
      if (other) {
        twice = { regNo: s.regNo, planName: other.planName };
        break;
      }
    }
    expect(twice).not.toBeNull();
    await page.goto('/busi/k12/organizeTest/scoreSearch');
    await choose(page.getByRole('combobox', { name: '测试计划' }), twice!.planName);
    await page.getByTestId('score-filter-keyword').fill(twice!.regNo);
    await page.getByTestId('score-filter-search').click();
    await expect(page.getByTestId('result-name')).toHaveCount(1);
    await page.getByTestId('result-report').click();
    await expect(page.getByTestId('report-plan')).toContainText(twice!.planName);
    await expect(page.getByTestId('report-screen')).toHaveAttribute('data-charts-ready', 'true');
  });
});
