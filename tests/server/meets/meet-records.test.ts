import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { RecordRow, RecordSave } from '@/domain/meets/records';
import { auditLogs } from '../../../server/db/schema/audit';
import { meetRecords } from '../../../server/db/schema/meets';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { writeXlsx } from '../../../server/lib/spreadsheet/xlsx-writer';
import { dataOf } from '../../support/factories';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type AsAnswer, type TestApp } from '../../support/server-app';
import { multipartBody } from '../physique-results/physique-fixtures';

let t: TestApp;
const base = '/api/busi/web/k12/sportsMeet/records';

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
});
afterAll(async () => {
  await t?.close();
});

const series = async (eventName: string, groupName = '初中女子组') =>
  dataOf(await t.as('school01').get<Page<RecordRow>>(`${base}/page?size=80&eventName=${encodeURIComponent(eventName)}`)).records.filter((r) => r.groupName === groupName && r.eventName === eventName);

const HEAD = ['纪录类型', '项目', '组别', '成绩类型', '成绩', '保持者', '班级', '创造日期'];
const book = (rows: unknown[][]) => writeXlsx([{ name: '纪录', rows }]);
function upload(file: Buffer, account = 'school01', lang = 'zh-CN') {
  const m = multipartBody(file, 'records.xlsx');
  return t.as(account, { language: lang }).post(`${base}/import`, m.payload, { headers: m.headers });
}
const resultName = ({ res }: AsAnswer) => decodeURIComponent(String(res.headers['content-disposition']).split("''")[1]);

const record = (over: Partial<RecordSave> = {}): RecordSave => ({ scope: 'school', eventName: '800米', groupName: '初中女子组', resultKind: 'time', mark: 160.5, holder: '林小雨', className: '初二(3)班', setOn: '2024-04-20', ...over });

describe('meet records: add, edit, delete with history', () => {
  it('a new record becomes current and the one it replaces history; deleting it brings the best history back', async () => {
    const first = await t.as('school01').post(base, record());
    expect(first.status, first.body.msg).toBe(200);
    const second = dataOf(await t.as('school01').post<RecordRow>(base, record({ mark: 158.2, holder: '周晴', setOn: '2025-04-19' })));
    const rows = await series('800米');
    expect(rows.map((r) => [r.holder, r.state]).sort()).toEqual([
      ['周晴', 'current'],
      ['林小雨', 'history'],
    ]);
    expect((await t.as('school01').delete(`${base}/${second.id}`)).status).toBe(200);
    expect((await series('800米')).map((r) => [r.holder, r.state])).toEqual([['林小雨', 'current']]);
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'meetRecord'), eq(auditLogs.entityId, second.id)))).toBe(2);
  });

  it('refuses bad input naming the field, in the request language, and writes nothing', async () => {
    const before = await t.db.$count(meetRecords);
    const res = await t.as('school01').post(base, record({ holder: '' }));
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('请填写纪录保持者（最多20个字）');
    const en = await t.as('school01', { language: 'en-US' }).post(base, record({ setOn: '2024-02-30' }));
    expect(en.status).toBe(400);
    expect(en.body.msg).toMatch(/date/i);
    expect(await t.db.$count(meetRecords)).toBe(before);
  });

  it('a stale edit is 409; moving a current record onto a series that has one is 400; another organisation gets 404', async () => {
    const a = dataOf(await t.as('school01').post<RecordRow>(base, record({ eventName: '立定跳远', resultKind: 'distance', mark: 2.3 })));
    const b = dataOf(await t.as('school01').post<RecordRow>(base, record({ eventName: '跳高', resultKind: 'height', mark: 1.35 })));
    const ok = await t.as('school01').put(`${base}/${a.id}`, { ...record({ eventName: '立定跳远', resultKind: 'distance', mark: 2.31 }), version: a.version });
    expect(ok.status, ok.body.msg).toBe(200);
    expect((await t.as('school01').put(`${base}/${a.id}`, { ...record({ eventName: '立定跳远', resultKind: 'distance', mark: 2.4 }), version: a.version })).status).toBe(409);
    const clash = await t.as('school01').put(`${base}/${b.id}`, { ...record({ eventName: '立定跳远', resultKind: 'height', mark: 1.35 }), version: b.version });
    expect(clash.status).toBe(400);
    expect(clash.body.msg).toBe('该项目已有纪录');
    const gx = '/api/busi/web/gx/sportsMeet/records';
    expect((await t.as('college01').get(`${gx}/${a.id}`)).status).toBe(404);
    expect((await t.as('college01').delete(`${gx}/${a.id}`)).status).toBe(404);
    expect(dataOf(await t.as('college01').get<Page<RecordRow>>(`${gx}/page?size=80`)).records.some((r) => r.id === a.id)).toBe(false);
  });
});

describe('meet records: import and export', () => {
  it('the template has the Chinese headers in any language', async () => {
    const res = await t.as('school01', { language: 'en-US' }).get(`${base}/import/template`);
    expect(res.status).toBe(200);
    const { rows } = await readXlsxRows(res.res.rawPayload);
    expect(rows[0]).toEqual(HEAD);
  });

  it('one wrong row refuses the whole file and says why per row', async () => {
    const before = await t.db.$count(meetRecords);
    const res = await upload(
      book([
        HEAD,
        ['学校纪录', '1500米', '初中女子组', '计时', '5:10.20', '王芳', '初三(1)班', '2023-05-01'],
        ['学校纪录', '1500米', '初中女子组', '计时', 'fast', '李娜', '', '2024-05-01'],
        ['校长纪录', '1500米', '初中女子组', '计时', '5:01.00', '赵敏', '', '2024-05-01'],
        ['学校纪录', '1500米', '初中女子组', '计时', '5:10.20', '王芳', '初三(1)班', '2023-05-01'],
      ]),
    );
    expect(res.status).toBe(200);
    expect(resultName(res)).toMatch(/_0_3\.xlsx$/);
    const { rows } = await readXlsxRows(res.res.rawPayload);
    expect(rows.slice(1).map((r) => r.at(-1))).toEqual(['第3行，成绩：成绩须为正数', '第4行，纪录类型：请选择纪录类型', '第5行，成绩：该纪录已存在']);
    expect(await t.db.$count(meetRecords)).toBe(before);
  });

  it('a file without the header or with too many rows is refused with the import messages, not the class import ones', async () => {
    const noHeader = await upload(book([['学校纪录', '1500米', '初中女子组', '计时', '5:10.20', '王芳', '', '2023-05-01']]));
    expect(noHeader.status).toBe(400);
    expect(noHeader.body.msg).toBe('未找到表头，请使用导入模板');
    const row = ['学校纪录', '1500米', '初中女子组', '计时', '5:10.20', '王芳', '', '2023-05-01'];
    const many = await upload(book([HEAD, ...Array.from({ length: 2001 }, () => row)]), 'school01', 'en-US');
    expect(many.status).toBe(400);
    expect(many.body.msg).toBe('At most 2000 rows can be imported at once');
  });

  it('imports a series with its history: the best mark is current, whatever the order of the rows', async () => {
    const res = await upload(
      book([
        HEAD,
        ['学校纪录', '1500米', '初中女子组', '计时', '5:10.20', '王芳', '初三(1)班', '2023-05-01'],
        ['学校纪录', '1500米', '初中女子组', '计时', '5:01.5', '李娜', '', '2024/5/3'],
        ['学校纪录', '1500米', '初中女子组', '计时', '5:20', '陈一', '', '2019-04-12'],
        ['运动会纪录', '铅球', '初中男子组', '远度', '11.02', '马骏', '初三(2)班', '2025-04-18'],
      ]),
    );
    expect(resultName(res)).toMatch(/_4_0\.xlsx$/);
    const rows = await series('1500米');
    expect(rows.find((r) => r.state === 'current')).toMatchObject({ holder: '李娜', mark: 301.5 });
    expect(rows.filter((r) => r.state === 'history').map((r) => r.holder).sort()).toEqual(['王芳', '陈一']);
    // Importing an older, weaker mark later keeps the current record.
    await upload(book([HEAD, ['学校纪录', '1500米', '初中女子组', '计时', '5:30', '刘星', '', '2018-04-12']]));
    expect((await series('1500米')).find((r) => r.state === 'current')!.holder).toBe('李娜');
    // A series keeps one result kind.
    const kind = await upload(book([HEAD, ['学校纪录', '1500米', '初中女子组', '远度', '12', '刘星', '', '2018-04-12']]));
    expect((await readXlsxRows(kind.res.rawPayload)).rows[1].at(-1)).toBe('第2行，成绩类型：该项目的纪录成绩类型为「计时」');
  });

  it('exports the filtered records in the import columns, so an export imports again as duplicates only', async () => {
    const res = await t.as('school01').get(`${base}/export?eventName=1500`);
    expect(res.status).toBe(200);
    const { rows } = await readXlsxRows(res.res.rawPayload);
    expect(rows[0]).toEqual([...HEAD, '状态']);
    expect(rows.slice(1).map((r) => r[4]).sort()).toEqual(['5:01.50', '5:10.20', '5:20.00', '5:30.00']);
    const again = await upload(book(rows));
    expect(resultName(again)).toMatch(/_0_4\.xlsx$/);
  });

  it('import needs its button', async () => {
    expect((await upload(book([HEAD]), 'teacher01')).status).toBe(403);
  });
});
