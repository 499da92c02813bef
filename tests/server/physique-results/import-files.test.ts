import { eq } from 'drizzle-orm';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATIONAL_COLUMNS } from '@/domain/physique/national-template';
import { fileNameFromContentDisposition, parseImportCounts } from '@/domain/uploads/import-result';
import { physiqueResults } from '../../../server/db/schema/physique';
import { readZipDirectory, readZipEntry, writeZip } from '../../../server/lib/spreadsheet/zip';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { FAILED_ROWS_LISTED } from '../../../server/modules/physique-results/physique-import.service';
import { createTestApp, type TestApp } from '../../support/server-app';
import { xlsxPackage } from '../spreadsheet/xlsx-package';
import { createPlan, demoOrgs, getCell, multipartBody, setCell, someStudents, templateFor, xlsxOf, type FixtureStudent } from './physique-fixtures';
import { importJob } from '../../support/jobs';

/** Score import of workbooks as office suites save them, and of files crafted to break the server. */

let t: TestApp;
let token: string;
let org: { k12: string };
let pupils: FixtureStudent[];

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  token = (await t.login('school01')).access_token;
  org = await demoOrgs(t.db);
  pupils = await someStudents(t.db, org.k12, [1, 7, 8, 11], 4);
});
afterAll(async () => {
  await t?.close();
});

const upload = async (planId: string, file: Buffer, lang = 'zh-CN') => {
  const body = multipartBody(file, 'scores.xlsx');
  const start = await t.request({
    method: 'POST',
    url: `/api/busi/web/k12/organizeTest/testManage/import/${planId}`,
    token,
    payload: body.payload,
    headers: { ...body.headers, 'accept-language': lang },
  });
  return importJob(t, token, start, lang);
};
const countsOf = (res: { headers: Record<string, unknown> }) => parseImportCounts(fileNameFromContentDisposition(String(res.headers['content-disposition'])) ?? '');
const col = (key: string) => NATIONAL_COLUMNS.findIndex((c) => c.key === key);

/** The server still answers: another request right after. */
async function stillServing() {
  const res = await t.request({ url: '/api/busi/web/k12/organizeTest/testManage/import/template', token });
  expect(res.statusCode).toBe(200);
}

describe('score import of workbooks saved by office suites', () => {
  it('reads run times typed as times (hh:mm:ss, mm:ss, [h]:mm:ss) and birth dates typed as dates as the cells show them', async () => {
    const planId = await createPlan(t.db, org.k12);
    const rows = templateFor(pupils, 29);
    const ws = XLSX.utils.aoa_to_sheet(rows);
    const formats = ['hh:mm:ss', 'mm:ss', '[h]:mm:ss', 'h:mm:ss'];
    const expected = new Map<string, { run1000m?: number; run800m?: number }>();
    rows.slice(1).forEach((row, i) => {
      const r = i + 1;
      const student = pupils[i];
      // 2010-05-01 as a date serial under a date format.
      ws[XLSX.utils.encode_cell({ r, c: col('birthDate') })] = { t: 'n', v: 40299, z: 'yyyy/m/d' };
      if (student.grade < 7) return;
      const key = student.gender === 'male' ? 'run1000m' : 'run800m';
      const seconds = 200 + i;
      for (const k of ['run1000m', 'run800m']) delete ws[XLSX.utils.encode_cell({ r, c: col(k) })];
      ws[XLSX.utils.encode_cell({ r, c: col(key) })] = { t: 'n', v: seconds / 86400, z: formats[i % formats.length] };
      expected.set(student.id, { [key]: seconds });
      setCell(row, key, null);
    });
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, '体测成绩');
    const file = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;

    const res = await upload(planId, file);
    expect(res.statusCode, res.body).toBe(200);
    const book = await readXlsxRows(res.rawPayload);
    expect(book.rows.slice(1).map((r) => r.at(-1))).toEqual([]);
    expect(countsOf(res)).toEqual({ success: pupils.length, failure: 0 });
    expect(expected.size).toBeGreaterThan(4);
    const stored = await t.db.select().from(physiqueResults).where(eq(physiqueResults.planId, planId));
    for (const [studentId, times] of expected) {
      const got = stored.find((s) => s.studentId === studentId)!;
      if (times.run1000m) expect(got.run1000m).toBe(times.run1000m);
      if (times.run800m) expect(got.run800m).toBe(times.run800m);
    }
  });

  it('refuses a header that appears twice, naming it and its columns', async () => {
    const planId = await createPlan(t.db, org.k12);
    const rows = templateFor(pupils.slice(0, 2), 31);
    const withCopy = rows.map((r, i) => [...r, i === 0 ? '学籍号' : 'X', i === 0 ? '身高(cm)' : 150]);
    const res = await upload(planId, xlsxOf(withCopy));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('列重复：学籍号（第D、V列）；身高（第J、W列）');
    const en = await upload(planId, xlsxOf(withCopy), 'en-US');
    expect(en.json().msg).toMatch(/^Duplicate columns: Registration number \(columns D, V\)/);
    expect(await t.db.$count(physiqueResults, eq(physiqueResults.planId, planId))).toBe(0);
  });

  it(`lists the first ${FAILED_ROWS_LISTED} failed rows and counts the rest`, async () => {
    const planId = await createPlan(t.db, org.k12);
    const [header, good] = templateFor(pupils.slice(0, 1), 37);
    const bad = [...good];
    setCell(bad, 'gender', 9);
    const rows = [header, good, ...Array.from({ length: FAILED_ROWS_LISTED + 25 }, () => bad)];
    const res = await upload(planId, xlsxOf(rows));
    expect(res.statusCode, res.body).toBe(200);
    expect(countsOf(res)).toEqual({ success: 1, failure: FAILED_ROWS_LISTED + 25 });
    const book = await readXlsxRows(res.rawPayload);
    expect(book.rows).toHaveLength(1 + FAILED_ROWS_LISTED + 1);
    expect(getCell(book.rows[1], 'gender')).toBe(9);
    expect(book.rows.at(-1)!.at(-1)).toBe(`另有25行导入失败，未逐行列出（只列出前${FAILED_ROWS_LISTED}行）`);
  });

  it('reads a long file in file order: a student met again two slices later is a duplicate of their first row', async () => {
    const planId = await createPlan(t.db, org.k12);
    const [header, a, b] = templateFor(pupils.slice(0, 2), 41);
    const bad = [...a];
    setCell(bad, 'gender', 9);
    // The import matches and stages 2,000 data rows at a time (on PostgreSQL while it reads the next ones): A is row 2,
    // B row 2002 and A again row 4002, three slices.
    const filler = Array.from({ length: 1999 }, () => bad);
    const res = await upload(planId, xlsxOf([header, a, ...filler, b, ...filler, a]));
    expect(res.statusCode, res.body).toBe(200);
    expect(countsOf(res)).toEqual({ success: 2, failure: 2 * 1999 + 1 });
    expect(await t.db.$count(physiqueResults, eq(physiqueResults.planId, planId))).toBe(2);
    const book = await readXlsxRows(res.rawPayload);
    const reasons = book.rows.slice(1, -1).map((r) => String(r.at(-1)));
    expect(reasons).toHaveLength(FAILED_ROWS_LISTED);
    expect(reasons[0]).toMatch(/^第3行/);
    expect(reasons[1998]).toMatch(/^第2001行/);
    expect(reasons[1999]).toMatch(/^第2003行/);
  });
});

describe('score import of crafted files', () => {
  it('answers 400 for a 1 KB file whose only cell is ZZZZZZ1, and keeps serving', async () => {
    const planId = await createPlan(t.db, org.k12);
    const file = xlsxPackage({ sheets: [{ name: 'S', sheetData: '<row r="1"><c r="ZZZZZZ1" t="inlineStr"><is><t>x</t></is></c></row>' }] });
    expect(file.length).toBeLessThan(2048);
    const res = await upload(planId, file);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: '400', data: null, msg: '单元格位置ZZZZZZ1超出了Excel的范围（最多XFD列、1048576行），文件已损坏' });
    await stillServing();
    // The plan's lock was released: a good file imports.
    const ok = await upload(planId, xlsxOf(templateFor(pupils.slice(0, 2), 41)));
    expect(countsOf(ok)).toEqual({ success: 2, failure: 0 });
  });

  it('answers 400 for rows of one value at column ZZZ or beyond the columns an import reads', async () => {
    const planId = await createPlan(t.db, org.k12);
    const zzz = Array.from({ length: 2000 }, (_, i) => `<row r="${i + 1}"><c r="ZZZ${i + 1}"><v>1</v></c></row>`).join('');
    expect((await upload(planId, xlsxPackage({ sheets: [{ name: 'S', sheetData: zzz }] }))).json().msg).toBe(
      '单元格位置ZZZ1超出了Excel的范围（最多XFD列、1048576行），文件已损坏',
    );
    const xfd = Array.from({ length: 2000 }, (_, i) => `<row r="${i + 1}"><c r="XFD${i + 1}"><v>1</v></c></row>`).join('');
    const res = await upload(planId, xlsxPackage({ sheets: [{ name: 'S', sheetData: xfd }] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('单元格XFD1超出了可导入的256列，请删除多余的列');
    await stillServing();
  });

  it('answers 400 for an invalid character reference (&#x110000;) in a cell', async () => {
    const planId = await createPlan(t.db, org.k12);
    const [header] = templateFor(pupils.slice(0, 1));
    const head = `<row r="1">${header.map((h, i) => `<c r="${XLSX.utils.encode_col(i)}1" t="inlineStr"><is><t>${String(h)}</t></is></c>`).join('')}</row>`;
    const file = xlsxPackage({ sheets: [{ name: 'S', sheetData: `${head}<row r="2"><c r="F2" t="inlineStr"><is><t>张&#x110000;</t></is></c></row>` }] });
    const res = await upload(planId, file);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('F2含有XML不允许的字符，文件已损坏');
    await stillServing();
  });

  it('answers 413 for shared strings that inflate far beyond their limit', async () => {
    const planId = await createPlan(t.db, org.k12);
    // ≈ 70 MB of shared strings in a file of a few hundred KB.
    const si = Buffer.from(`<si><t>${'a'.repeat(1000)}</t></si>`);
    const sst = Buffer.concat([Buffer.from('<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'), ...Array<Buffer>(70_000).fill(si), Buffer.from('</sst>')]);
    const base = xlsxPackage({ sheets: [{ name: 'S', sheetData: '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' }], sharedStrings: ['<si><t>x</t></si>'] });
    const file = rewritePart(base, 'xl/sharedStrings.xml', sst);
    expect(file.length).toBeLessThan(1024 * 1024);
    const res = await upload(planId, file);
    expect(res.statusCode).toBe(413);
    expect(res.json().msg).toBe('文件内容解压后超过64MB，请删除多余的内容或分成几个文件导入');
    await stillServing();
  });
});

/** The package with one part replaced. */
function rewritePart(zip: Buffer, name: string, data: Buffer): Buffer {
  const parts = [...readZipDirectory(zip).values()].map((e) => ({ name: e.name, data: e.name === name ? data : readZipEntry(zip, e, 1 << 24) }));
  return writeZip(parts, 9);
}
