import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../server/db/client';
import { checkRows, importRows, readImportSheet, updateTracker, type ImportColumn } from '../../../server/lib/import-rows';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { writeXlsx } from '../../../server/lib/spreadsheet/xlsx-writer';
import { createI18n } from '../../../server/plugins/i18n';
import { testDb } from '../../support/server-db';

// The row-import kit on its own: a two-column import into a scratch table, as an import declares it.
let handle: DbHandle;
const i18n = createI18n();
const zh = i18n.getFixedT('zh_cn');
const en = i18n.getFixedT('en_us');
const COLUMNS: readonly ImportColumn<'name' | 'size' | 'born'>[] = [
  { key: 'name', header: '名称', required: true },
  { key: 'size', header: '人数', aliases: ['人员数'], required: true },
  { key: 'born', header: '日期' },
];
const LABELS = { name: 'school:class.name', size: 'school:class.studentCount' } as const;
const book = (rows: unknown[][]) => ({ fileName: 'rows.xlsx', buffer: writeXlsx([{ name: 'S', rows }]) });
const count = async () => Number((await handle.db.execute<{ n: number }>(sql`select count(*)::int as n from kit_rows`)).rows[0].n);

beforeAll(async () => {
  handle = await testDb({ seeded: false });
  await handle.db.execute(sql`create table kit_rows (name text primary key, size int)`);
});
afterAll(async () => {
  await handle?.close();
});

/** The import under test: a row needs a name and a whole size ≥ 1; a name taken (in the table or the file) is refused. */
const run = (file: ReturnType<typeof book>, t = zh, options: { dryRun?: boolean; onProgress?: (d: number, n: number) => void } = {}) =>
  readImportSheet(file, { columns: COLUMNS, maxRows: 5 }, t).then((sheet) =>
    importRows(handle.db, sheet, {
      t,
      labels: LABELS,
      fileName: 'rows',
      ...options,
      async each(_row, { text, number, fail }, tx) {
        const size = number('size');
        if (size === null || !Number.isInteger(size) || size < 1) return fail('size', 'validation:class.codeMax');
        const taken = await tx.execute(sql`select 1 from kit_rows where name = ${text('name')}`);
        if (taken.rows.length > 0) return fail('name', 'validation:class.codeTaken');
        await tx.execute(sql`insert into kit_rows (name, size) values (${text('name')}, ${size})`);
      },
    }),
  );

describe('the row-import kit', () => {
  it('finds the header under a title row by name or alias, and names a missing column in the user language', async () => {
    const sheet = await readImportSheet(book([['某校名单'], ['* 名称', '人员数：'], ['一班', 3]]), { columns: COLUMNS }, zh);
    expect(sheet.index).toEqual({ name: 0, size: 1 });
    expect(sheet.rows.map((r) => r.row)).toEqual([3]);
    await expect(readImportSheet(book([['名称', '日期'], ['一班', '2025-01-01']]), { columns: COLUMNS }, zh)).rejects.toMatchObject({ i18nKey: 'import:missingColumns', params: { columns: '人数' } });
    await expect(readImportSheet(book([['名称', '人数']]), { columns: COLUMNS }, zh)).rejects.toMatchObject({ status: 400, i18nKey: 'import:emptyFile' });
    await expect(readImportSheet(book([['名称', '人数'], ...Array.from({ length: 6 }, (_, i) => [`班${i}`, 1])]), { columns: COLUMNS, maxRows: 5 }, zh)).rejects.toMatchObject({
      i18nKey: 'import:tooManyRows',
      params: { max: 5 },
    });
    expect(zh('import:tooManyRows', { max: 5 })).toBe('一次最多导入5行');
  });

  it('one refused row and the commit writes nothing; the failures workbook is the row as uploaded plus the reason, in the user language', async () => {
    const res = await run(book([['名称', '人数'], ['一班', 30], ['二班', 0], ['一班', 2]]), en);
    expect(res).toMatchObject({ success: 0, failure: 2, fileName: 'rows_0_2.xlsx' });
    expect(await count()).toBe(0);
    const { rows } = await readXlsxRows(res.workbook);
    expect(rows).toEqual([
      ['名称', '人数', 'Reason'],
      ['二班', 0, 'Row 3, Students: The class code cannot be above 99'],
      ['一班', 2, 'Row 4, Class name: A class with this code already exists in the grade'],
    ]);
  });

  it('a dry run counts what the commit would write and writes nothing; the commit writes every row and reports progress', async () => {
    const file = book([['名称', '人数'], ['一班', 30], ['二班', 31], ['三班', '32']]);
    expect(await run(file, zh, { dryRun: true })).toMatchObject({ success: 3, failure: 0 });
    expect(await count()).toBe(0);
    const progress: [number, number][] = [];
    expect(await run(file, zh, { onProgress: (d, n) => void progress.push([d, n]) })).toMatchObject({ success: 3, failure: 0, fileName: 'rows_3_0.xlsx' });
    expect(await count()).toBe(3);
    expect(progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it('reads a cell as text, number or date, and a row reason names the column by its header when it has no label', async () => {
    const sheet = await readImportSheet(book([['名称', '人数', '日期'], [' 甲 ', '12', '2025/4/18'], ['乙', 'x', 'someday'], ['丙', 7.5, '']]), { columns: COLUMNS }, zh);
    const seen: unknown[] = [];
    const out = await checkRows(sheet, { t: zh }, (_r, { text, number, date, fail }) => {
      seen.push([text('name'), number('size'), date('born')]);
      if (date('born') === null) fail('born', 'validation:class.codeTaken');
    });
    expect(seen).toEqual([
      ['甲', 12, '2025-04-18'],
      ['乙', NaN, null],
      ['丙', 7.5, ''],
    ]);
    expect(out.failures.map((f) => f.reason)).toEqual(['第3行，日期：该年级下已有相同编号的班级']);
    expect(out.taken).toBe(2);
  });

  it('would update: a row that changes nothing is skipped, a change is refused without the option, listed before → after with it', () => {
    const fields = ['name', 'size'] as const;
    const label = { name: 'school:class.name', size: 'school:class.studentCount' };
    const off = updateTracker(en, false);
    expect(off.judge(2, '一班', off.diff({ name: '一班', size: 3 }, { name: '一班', size: '3' }, fields, label))).toBe('unchanged');
    expect(off.judge(3, '一班', off.diff({ name: '一班', size: 3 }, { name: '一班', size: 4 }, fields, label))).toBe('refused');
    const on = updateTracker(en, true);
    expect(on.judge(3, '一班', on.diff({ name: '一班', size: 3 }, { name: '一班', size: 4 }, fields, label))).toBe('update');
    expect(on.updates).toEqual([{ row: 3, who: '一班', changes: [{ field: 'size', label: 'Students', before: '3', after: '4' }] }]);
  });
});
