import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import type { DepartmentMember, DepartmentRow } from '@/domain/org-manage/departments';
import { auditLogs } from '../../../server/db/schema/audit';
import { memberships, users } from '../../../server/db/schema/auth';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['district01', 'school01', 'jiaoyan01']) tokens[account] = (await t.login(account)).access_token;
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: unknown, lang = 'zh-CN') =>
  t.request({ method, url: `/api/busi/web/admin/departmentManage${url}`, token, payload: payload as object, headers: { 'accept-language': lang } });
const body = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>();
const tree = async (token = tokens.district01) => body<DepartmentRow[]>(await call('GET', '/tree', token)).data;
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
    expect((await call('GET', '/tree', tokens.school01)).statusCode).toBe(403);
    expect((await call('GET', '/tree', tokens.jiaoyan01)).statusCode).toBe(403);
    expect((await call('POST', '', tokens.jiaoyan01, { name: 'x', code: '09', parentId: null })).statusCode).toBe(403);
  });

  it('adds with a two-digit code unique among siblings; the same code under another parent is fine; bad input names the field', async () => {
    const section = await byName('体卫艺科');
    const bad = await call('POST', '', tokens.district01, { name: '艺术组', code: '3', parentId: section.id }, 'en-US');
    expect(bad.statusCode).toBe(400);
    expect(body(bad)).toMatchObject({ msg: 'The department code must be 2 digits', data: { field: 'code' } });
    const dup = await call('POST', '', tokens.district01, { name: '艺术组', code: '01', parentId: section.id });
    expect(body(dup)).toMatchObject({ msg: '同一上级部门下已有相同编号的部门', data: { field: 'code' } });
    const created = await call('POST', '', tokens.district01, { name: '艺术组', code: '03', parentId: section.id });
    expect(created.statusCode).toBe(200);
    expect(body<DepartmentRow>(created).data).toMatchObject({ name: '艺术组', parentId: section.id, version: 1, memberCount: 0 });
    // Code 01 exists at the top (办公室) and under the section (体育组), each among its own siblings.
    const top = await call('POST', '', tokens.district01, { name: '督导室', code: '04', parentId: '' });
    expect(body<DepartmentRow>(top).data.parentId).toBeNull();
    const long = await call('POST', '', tokens.district01, { name: '长'.repeat(31), code: '05', parentId: null });
    expect(body(long)).toMatchObject({ data: { field: 'name' } });
  });

  it('refuses a parent that is the department itself or one below it, and a stale save', async () => {
    const section = await byName('体卫艺科');
    const pe = await byName('体育组');
    const toChild = await call('PUT', `/${section.id}`, tokens.district01, { name: section.name, code: section.code, parentId: pe.id, version: section.version });
    expect(body(toChild)).toMatchObject({ msg: '上级部门不能是本部门或其下级部门', data: { field: 'parentId' } });
    const toSelf = await call('PUT', `/${section.id}`, tokens.district01, { name: section.name, code: section.code, parentId: section.id, version: section.version });
    expect(body(toSelf)).toMatchObject({ data: { field: 'parentId' } });
    const ok = await call('PUT', `/${section.id}`, tokens.district01, { name: '体卫艺科室', code: section.code, parentId: null, version: section.version });
    expect(ok.statusCode).toBe(200);
    const stale = await call('PUT', `/${section.id}`, tokens.district01, { name: '又改', code: section.code, parentId: null, version: section.version });
    expect(stale.statusCode).toBe(409);
  });

  it('will not delete a department with child departments or members, naming them; a leaf without members goes, audited', async () => {
    const section = await byName('体卫艺科室');
    const children = await call('DELETE', `/${section.id}`, tokens.district01);
    expect(children.statusCode).toBe(409);
    expect(body(children).msg).toContain('体育组');
    const pe = await byName('体育组');
    const members = await call('DELETE', `/${pe.id}`, tokens.district01);
    expect(members.statusCode).toBe(409);
    expect(body(members).msg).toMatch(/吴芳|郑强/);
    const health = await byName('卫生健康组');
    expect((await call('DELETE', `/${health.id}`, tokens.district01)).statusCode).toBe(200);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'department'), eq(auditLogs.entityId, health.id)));
    expect(log).toMatchObject({ action: 'delete' });
  });
});

describe('departments: members', () => {
  it('lists, adds the organisation’s accounts and removes members; another organisation’s account is 404', async () => {
    const info = await byName('信息中心');
    const candidates = body<DepartmentMember[]>(await call('GET', `/${info.id}/candidates`, tokens.district01)).data;
    expect(candidates.map((c) => c.accountNum)).toEqual(expect.arrayContaining(['district01', 'jiaoyan01']));
    expect(candidates.map((c) => c.accountNum)).not.toContain('school01');
    const foreign = await call('POST', `/${info.id}/members`, tokens.district01, { accountIds: [await accountIdOf('school01')] });
    expect(foreign.statusCode).toBe(404);
    const jy = await accountIdOf('jiaoyan01');
    expect((await call('POST', `/${info.id}/members`, tokens.district01, { accountIds: [jy] })).statusCode).toBe(200);
    const page = body<Page<DepartmentMember>>(await call('GET', `/${info.id}/members`, tokens.district01)).data;
    expect(page.records.map((m) => m.accountNum)).toEqual(['jiaoyan01']);
    expect((await call('DELETE', `/${info.id}/members/${jy}`, tokens.district01)).statusCode).toBe(200);
    expect(body<Page<DepartmentMember>>(await call('GET', `/${info.id}/members`, tokens.district01)).data.total).toBe(0);
    expect((await call('GET', `/${info.id}/members`, tokens.jiaoyan01)).statusCode).toBe(403);
  });

  it('a sibling district sees none of them: every id answers 404', async () => {
    const make = (code: string, adminAccount: string) =>
      t.request({
        method: 'POST',
        url: '/api/busi/web/admin/orgManage/orgInfo',
        token: tokens.district01,
        payload: { name: `下级教育局${code}`, code, type: ORG_TYPE.management, adminName: '管理员', adminAccount, adminPassword: 'Pass1234' },
      });
    expect((await make('83', 'sibadmin83')).statusCode).toBe(200);
    const other = (await t.login('sibadmin83', 'Pass1234')).access_token;
    expect(await tree(other)).toEqual([]);
    const office = await byName('办公室');
    expect((await call('GET', `/${office.id}`, other)).statusCode).toBe(404);
    expect((await call('PUT', `/${office.id}`, other, { name: 'x', code: '01', parentId: null, version: office.version })).statusCode).toBe(404);
    expect((await call('DELETE', `/${office.id}`, other)).statusCode).toBe(404);
    expect((await call('GET', `/${office.id}/members`, other)).statusCode).toBe(404);
    // Nor can it hang its own department under the district's.
    const under = await call('POST', '', other, { name: '借用', code: '01', parentId: office.id });
    expect(body(under)).toMatchObject({ data: { field: 'parentId' } });
  });
});
