import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { DepartmentMember, DepartmentRow } from '@/domain/org-manage/departments';
import { auditLogs } from '../../../server/db/schema/audit';
import { memberships, users } from '../../../server/db/schema/auth';
import { dataOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const DEPARTMENTS = '/api/busi/web/admin/departmentManage';
const tree = async (account = 'district01') => dataOf(await t.as(account).get<DepartmentRow[]>(`${DEPARTMENTS}/tree`));
const byName = async (name: string) => (await tree()).find((d) => d.name === name)!;

async function accountIdOf(accountNum: string): Promise<string> {
  const [row] = await t.db.select({ id: memberships.id }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(eq(users.accountNum, accountNum));
  return row.id;
}

describe('departments: tree and guards', () => {
  it('lists the district’s department tree with member counts; a school administrator gets 403, a role without the page too', async () => {
    const rows = await tree();
    const section = rows.find((d) => d.name === '体卫艺科')!;
    expect(rows.find((d) => d.name === '体育组')).toMatchObject({ parentId: section.id, code: '01', memberCount: 2 });
    expect((await t.as('school01').get('/api/busi/web/admin/departmentManage/tree')).status).toBe(403);
    expect((await t.as('jiaoyan01').get('/api/busi/web/admin/departmentManage/tree')).status).toBe(403);
    expect((await t.as('jiaoyan01').post('/api/busi/web/admin/departmentManage', { name: 'x', code: '09', parentId: null })).status).toBe(403);
  });

  it('adds with a two-digit code unique among siblings; the same code under another parent is fine; bad input names the field', async () => {
    const section = await byName('体卫艺科');
    const bad = await t.as('district01', { language: 'en-US' }).post('/api/busi/web/admin/departmentManage', { name: '艺术组', code: '3', parentId: section.id });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ msg: 'The department code must be 2 digits', data: { field: 'code' } });
    const dup = await t.as('district01').post('/api/busi/web/admin/departmentManage', { name: '艺术组', code: '01', parentId: section.id });
    expect(dup.body).toMatchObject({ msg: '同一上级部门下已有相同编号的部门', data: { field: 'code' } });
    const created = await t.as('district01').post<DepartmentRow>('/api/busi/web/admin/departmentManage', { name: '艺术组', code: '03', parentId: section.id });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ name: '艺术组', parentId: section.id, version: 1, memberCount: 0 });
    // Code 01 exists at the top (办公室) and under the section (体育组), each among its own siblings.
    const top = await t.as('district01').post<DepartmentRow>('/api/busi/web/admin/departmentManage', { name: '督导室', code: '04', parentId: '' });
    expect(top.body.data.parentId).toBeNull();
    const long = await t.as('district01').post('/api/busi/web/admin/departmentManage', { name: '长'.repeat(31), code: '05', parentId: null });
    expect(long.body).toMatchObject({ data: { field: 'name' } });
  });

  it('refuses a parent that is the department itself or one below it, and a stale save', async () => {
    const section = await byName('体卫艺科');
    const pe = await byName('体育组');
    const toChild = await t.as('district01').put(`/api/busi/web/admin/departmentManage/${section.id}`, { name: section.name, code: section.code, parentId: pe.id, version: section.version });
    expect(toChild.body).toMatchObject({ msg: '上级部门不能是本部门或其下级部门', data: { field: 'parentId' } });
    const toSelf = await t.as('district01').put(`/api/busi/web/admin/departmentManage/${section.id}`, { name: section.name, code: section.code, parentId: section.id, version: section.version });
    expect(toSelf.body).toMatchObject({ data: { field: 'parentId' } });
    const ok = await t.as('district01').put(`/api/busi/web/admin/departmentManage/${section.id}`, { name: '体卫艺科室', code: section.code, parentId: null, version: section.version });
    expect(ok.status).toBe(200);
    const stale = await t.as('district01').put(`/api/busi/web/admin/departmentManage/${section.id}`, { name: '又改', code: section.code, parentId: null, version: section.version });
    expect(stale.status).toBe(409);
  });

  it('will not delete a department with child departments or members, naming them; a leaf without members goes, audited', async () => {
    const section = await byName('体卫艺科室');
    const children = await t.as('district01').delete(`/api/busi/web/admin/departmentManage/${section.id}`);
    expect(children.status).toBe(409);
    expect(children.body.msg).toContain('体育组');
    const pe = await byName('体育组');
    const members = await t.as('district01').delete(`/api/busi/web/admin/departmentManage/${pe.id}`);
    expect(members.status).toBe(409);
    expect(members.body.msg).toMatch(/吴芳|郑强/);
    const health = await byName('卫生健康组');
    expect((await t.as('district01').delete(`/api/busi/web/admin/departmentManage/${health.id}`)).status).toBe(200);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'department'), eq(auditLogs.entityId, health.id)));
    expect(log).toMatchObject({ action: 'delete' });
  });
});

describe('departments: members', () => {
  it('lists, adds the organisation’s accounts and removes members; another organisation’s account is 404', async () => {
    const info = await byName('信息中心');
    const candidates = dataOf(await t.as('district01').get<DepartmentMember[]>(`/api/busi/web/admin/departmentManage/${info.id}/candidates`));
    expect(candidates.map((c) => c.accountNum)).toEqual(expect.arrayContaining(['district01', 'jiaoyan01']));
    expect(candidates.map((c) => c.accountNum)).not.toContain('school01');
    const foreign = await t.as('district01').post(`/api/busi/web/admin/departmentManage/${info.id}/members`, { accountIds: [await accountIdOf('school01')] });
    expect(foreign.status).toBe(404);
    const jy = await accountIdOf('jiaoyan01');
    expect((await t.as('district01').post(`/api/busi/web/admin/departmentManage/${info.id}/members`, { accountIds: [jy] })).status).toBe(200);
    const page = dataOf(await t.as('district01').get<Page<DepartmentMember>>(`/api/busi/web/admin/departmentManage/${info.id}/members`));
    expect(page.records.map((m) => m.accountNum)).toEqual(['jiaoyan01']);
    expect((await t.as('district01').delete(`/api/busi/web/admin/departmentManage/${info.id}/members/${jy}`)).status).toBe(200);
    expect(dataOf(await t.as('district01').get<Page<DepartmentMember>>(`/api/busi/web/admin/departmentManage/${info.id}/members`)).total).toBe(0);
    expect((await t.as('jiaoyan01').get(`/api/busi/web/admin/departmentManage/${info.id}/members`)).status).toBe(403);
  });

  it('a sibling district sees none of them: every id answers 404', async () => {
    const make = (code: string, adminAccount: string) =>
      t.as('district01').post('/api/busi/web/admin/orgManage/orgInfo', { name: `下级教育局${code}`, code, type: ORG_TYPE.management, adminName: '管理员', adminAccount, adminPassword: 'Pass1234' });
    expect((await make('83', 'sibadmin83')).status).toBe(200);
    // The new bureau's administrator signs in with the password it was given (not the demo's).
    const other = (await t.login('sibadmin83', 'Pass1234')).access_token;
    const asOther = (method: Method, url: string, payload?: object) => t.request({ method, url: `${DEPARTMENTS}${url}`, token: other, payload });
    expect(JSON.parse((await asOther('GET', '/tree')).body).data).toEqual([]);
    const office = await byName('办公室');
    expect((await asOther('GET', `/${office.id}`)).statusCode).toBe(404);
    expect((await asOther('PUT', `/${office.id}`, { name: 'x', code: '01', parentId: null, version: office.version })).statusCode).toBe(404);
    expect((await asOther('DELETE', `/${office.id}`)).statusCode).toBe(404);
    expect((await asOther('GET', `/${office.id}/members`)).statusCode).toBe(404);
    // Nor can it hang its own department under the district's.
    const under = JSON.parse((await asOther('POST', '', { name: '借用', code: '01', parentId: office.id })).body);
    expect(under).toMatchObject({ data: { field: 'parentId' } });
  });
});
