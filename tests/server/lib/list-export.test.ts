import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageApi } from '@/domain/menus/access';
import { followList, type ListExportColumn } from '../../../server/lib/list-export';
import { allowLargeExports } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';

describe('followList: the export columns a list’s shown columns pick', () => {
  const columns: ListExportColumn[] = [
    { header: '姓名', list: 'name' },
    { header: '学号', list: 'studentNo' },
    { header: '出生日期' },
    { header: '班级', list: 'className' },
    { header: '家长姓名', list: 'parents' },
    { header: '家长手机号', list: 'parents' },
  ];
  const headers = (shown?: string[]) => followList(columns, shown).map((i) => columns[i].header);

  it('keeps the declared layout when the list shows its defaults', () => {
    expect(headers()).toEqual(['姓名', '学号', '出生日期', '班级', '家长姓名', '家长手机号']);
  });
  it('leaves out what the list hides and puts the rest in the list’s order; the export’s own columns keep their places', () => {
    expect(headers(['name', 'className', 'parents', 'actions'])).toEqual(['姓名', '出生日期', '班级', '家长姓名', '家长手机号']);
    expect(headers(['className', 'name', 'studentNo', 'parents'])).toEqual(['班级', '姓名', '出生日期', '学号', '家长姓名', '家长手机号']);
    expect(headers(['parents', 'name', 'studentNo'])).toEqual(['家长姓名', '家长手机号', '出生日期', '姓名', '学号']);
  });
});

describe('list exports follow the shown columns', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // The whole school's student export below is not about its approval (tests/server/data-access).
    await allowLargeExports(t, 'school01');
  });
  afterAll(async () => {
    await t?.close();
  });
  const sheetOf = (payload: Buffer) => {
    const wb = XLSX.read(payload, { type: 'buffer' });
    return XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[wb.SheetNames[0]], { header: 1 });
  };

  it('the device export writes only the shown columns, in the list’s order, for the same rows', async () => {
    const all = sheetOf((await t.as('school01').get('/api/busi/web/k12/device/export?status=online')).res.rawPayload);
    const res = await t.as('school01').get('/api/busi/web/k12/device/export?status=online&columns=status,name,mac,actions');
    expect(res.status).toBe(200);
    const shown = sheetOf(res.res.rawPayload);
    expect(shown[0]).toEqual(['状态', '设备名称', '上级设备', 'MAC地址']);
    expect(shown.length).toBe(all.length);
    expect(shown.slice(1).map((r) => [r[0], r[1], r[3]])).toEqual(all.slice(1).map((r) => [r[5], r[0], r[2]]));
  });

  it('the student export leaves out a hidden list column and keeps the columns a re-import needs', async () => {
    const res = await t.as('school01').get(`${pageApi('k12.user.student')}/export?columns=name,regNo,className,gender,status,parents,appAccount`);
    expect(res.status).toBe(200);
    const [head] = sheetOf(res.res.rawPayload);
    expect(head).not.toContain('学号');
    // The list's order (class before gender) in the places the list's columns hold; birth date, ethnicity, grade stay.
    expect(head.slice(0, 8)).toEqual(['姓名', '学籍号', '班级', '出生日期', '民族', '年级', '性别', '家长姓名']);
  });

  it('refuses columns that are not column ids, with a translated message', async () => {
    const res = await t.as('school01').get(`/api/busi/web/k12/device/export?columns=${'x'.repeat(100)}`);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('导出的列不正确');
  });
});
