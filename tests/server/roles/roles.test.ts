import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { buttonId, type RoleDetail, type RoleMember, type RoleRow } from '@/domain/roles/roles';
import { auditLogs } from '../../../server/db/schema/audit';
import { memberships, roles, users } from '../../../server/db/schema/auth';
import { orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let k12Id: string;
let uniId: string;

beforeAll(async () => {
  t = await createTestApp();
  k12Id = (await orgOf(t, 'school01')).orgId;
  uniId = (await orgOf(t, 'college01')).orgId;
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, account: string, payload?: unknown, lang = 'zh-CN') =>
  t.as(account, { language: lang }).request(method, `/api/busi/web/${url}`, payload).then((a) => a.res);
const body = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>();

/** A page and every one of its buttons, as permission-tree ids. */
const pageWithButtons = (key: string) => [key, ...getCatalogEntry(key)!.buttons.map((b) => buttonId(key, b.action))];
const CLASS_ONLY = pageWithButtons('k12.org.class');
const ROLE_MANAGER = [...CLASS_ONLY, ...pageWithButtons('k12.user.role')];

async function roleId(orgId: string, name: string): Promise<string> {
  const [r] = await t.db.select({ id: roles.id }).from(roles).where(and(eq(roles.orgId, orgId), eq(roles.name, name)));
  return r.id;
}
async function accountOf(accountNum: string, orgId: string): Promise<string> {
  const [m] = await t.db
    .select({ id: memberships.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(users.accountNum, accountNum), eq(memberships.tenantOrgId, orgId)));
  return m.id;
}

describe('roles: list and rules', () => {
  it('lists the school’s roles with member counts, built-in first; a teacher without the page gets 403', async () => {
    const page = body<Page<RoleRow>>(await call('GET', 'k12/role/page?size=20', 'school01')).data;
    expect(page.records[0]).toMatchObject({ name: '管理员', builtin: true, identity: 'administrator' });
    expect(page.records.map((r) => r.name)).toEqual(expect.arrayContaining(['体育教师', '班级管理员', '数据查看员']));
    expect(page.records.find((r) => r.name === '体育教师')!.memberCount).toBeGreaterThan(1);
    expect((await call('GET', 'k12/role/page', 'teacher01')).statusCode).toBe(403);
  });

  it('a name with other characters is 400 naming the field, in the request’s language; a taken name too; nothing written', async () => {
    const before = await t.db.$count(roles);
    const bad = await call('POST', 'k12/role', 'school01', { name: '班级-管理', identity: 'teacher', menuIds: CLASS_ONLY });
    expect(bad.statusCode).toBe(400);
    expect(body(bad)).toMatchObject({ msg: '角色名称只能包含中文、英文字母和数字', data: { field: 'name' } });
    const en = await call('POST', 'k12/role', 'school01', { name: 'a b', identity: 'teacher' }, 'en-US');
    expect(body(en).msg).toBe('The role name may contain only Chinese characters, English letters and digits');
    const dup = await call('POST', 'k12/role', 'school01', { name: '体育教师', identity: 'teacher' });
    expect(body(dup)).toMatchObject({ code: '400', data: { field: 'name' } });
    const unknown = await call('POST', 'k12/role', 'school01', { name: 'gx角色', identity: 'teacher', menuIds: ['gx.org.class'] });
    expect(body(unknown)).toMatchObject({ code: '400', data: { field: 'menuIds' } });
    expect(await t.db.$count(roles)).toBe(before);
  });

  it('creates a role: ancestors and the routes its buttons open come along; mobile functions kept; audited', async () => {
    const res = await call('POST', 'k12/role', 'school01', { name: 'ClassKeeper1', remark: '班级', identity: 'teacher', menuIds: CLASS_ONLY, mobileFunctions: ['signIn', 'homework'] });
    expect(res.statusCode).toBe(200);
    const role = body<RoleDetail>(res).data;
    expect(role.menuIds).toEqual(expect.arrayContaining(['k12.org', 'k12.org.class', 'k12.org.class#add', 'k12.org.class.add', 'k12.org.class.edit']));
    expect(role.menuIds.some((m) => m.startsWith('k12.org.acayear'))).toBe(false);
    expect(role.mobileFunctions).toEqual(['signIn', 'homework']);
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'role'), eq(auditLogs.entityId, role.id)))).toBe(1);
    const stale = await call('PUT', `k12/role/${role.id}`, 'school01', { name: 'ClassKeeper1', identity: 'teacher', menuIds: CLASS_ONLY, version: 0 });
    expect(stale.statusCode).toBe(409);
  });
});

describe('roles: guards', () => {
  let keeperRole: string;
  let staffAccount: string;

  beforeAll(async () => {
    // A role manager who holds only role management and the class screens, given to the seeded account without a role.
    const created = body<RoleDetail>(await call('POST', 'k12/role', 'school01', { name: '班级与角色', identity: 'teacher', menuIds: ROLE_MANAGER }));
    keeperRole = created.data.id;
    staffAccount = await accountOf('staff0001', k12Id);
    expect((await call('POST', `k12/role/${keeperRole}/members`, 'school01', { accountIds: [staffAccount] })).statusCode).toBe(200);
    await t.as('staff0001').token();
  });

  it('cannot grant what it does not hold: escalation through create and update is 403, nothing written', async () => {
    const before = await t.db.$count(roles);
    const create = await call('POST', 'k12/role', 'staff0001', { name: '越权', identity: 'teacher', menuIds: [...CLASS_ONLY, 'k12.org.acayear'] });
    expect(create.statusCode).toBe(403);
    expect(body(create)).toMatchObject({ msg: '不能授予您自己没有的权限', data: { field: 'menuIds' } });
    expect(await t.db.$count(roles)).toBe(before);
    // Its own role: adding a screen it lacks is escalation too.
    const own = body<RoleDetail>(await call('GET', `k12/role/${keeperRole}`, 'staff0001')).data;
    const up = await call('PUT', `k12/role/${keeperRole}`, 'staff0001', { name: own.name, identity: 'teacher', menuIds: [...ROLE_MANAGER, ...pageWithButtons('k12.org.acayear')], version: own.version });
    expect(up.statusCode).toBe(403);
    expect(body<RoleDetail>(await call('GET', `k12/role/${keeperRole}`, 'school01')).data.menuIds).not.toContain('k12.org.acayear');
    // Within its own permissions it may create roles.
    expect((await call('POST', 'k12/role', 'staff0001', { name: '只看班级', identity: 'teacher', menuIds: ['k12.org.class'] })).statusCode).toBe(200);
  });

  it('editing a role that holds more than the editor keeps those permissions (only gains are checked)', async () => {
    const viewer = await roleId(k12Id, '数据查看员');
    const r = body<RoleDetail>(await call('GET', `k12/role/${viewer}`, 'staff0001')).data;
    const res = await call('PUT', `k12/role/${viewer}`, 'staff0001', { name: '数据查看员', remark: '改备注', identity: 'teacher', menuIds: r.menuIds, version: r.version });
    expect(res.statusCode).toBe(200);
    expect(body<RoleDetail>(res).data.menuIds).toContain('k12.dataCenter.school');
  });

  it('cannot hand out a role holding what the actor lacks: adding members to the administrator role is 403', async () => {
    const admin = await roleId(k12Id, '管理员');
    const teacher = await accountOf('teacher01', k12Id);
    expect((await call('POST', `k12/role/${admin}/members`, 'staff0001', { accountIds: [teacher] })).statusCode).toBe(403);
  });

  it('another organisation’s role and account ids are 404', async () => {
    const uniRole = await roleId(uniId, '体育教师');
    expect((await call('GET', `k12/role/${uniRole}`, 'school01')).statusCode).toBe(404);
    expect((await call('PUT', `k12/role/${uniRole}`, 'school01', { name: 'x', identity: 'teacher', version: 1 })).statusCode).toBe(404);
    expect((await call('DELETE', `k12/role/${uniRole}`, 'school01')).statusCode).toBe(404);
    expect((await call('GET', `k12/role/${uniRole}/members`, 'school01')).statusCode).toBe(404);
    const uniAccount = await accountOf('college01', uniId);
    expect((await call('POST', `k12/role/${keeperRole}/members`, 'school01', { accountIds: [uniAccount] })).statusCode).toBe(404);
    const gxTeacherRole = await roleId(uniId, '管理员');
    expect((await call('DELETE', `k12/role/${keeperRole}/members/${uniAccount}`, 'school01')).statusCode).toBe(404);
    expect((await call('DELETE', `gx/role/${gxTeacherRole}/members/${uniAccount}`, 'school01')).statusCode).toBe(403);
  });

  it('the built-in administrator role keeps role management and cannot be deleted', async () => {
    const admin = await roleId(k12Id, '管理员');
    const r = body<RoleDetail>(await call('GET', `k12/role/${admin}`, 'school01')).data;
    const without = r.menuIds.filter((m) => !m.startsWith('k12.user.role'));
    const res = await call('PUT', `k12/role/${admin}`, 'school01', { name: r.name, identity: 'administrator', menuIds: without, version: r.version });
    expect(res.statusCode).toBe(400);
    expect(body(res)).toMatchObject({ msg: '内置管理员角色必须保留角色管理权限', data: { field: 'menuIds' } });
    const noDelete = r.menuIds.filter((m) => m !== 'k12.user.role#delete');
    expect((await call('PUT', `k12/role/${admin}`, 'school01', { name: r.name, identity: 'administrator', menuIds: noDelete, version: r.version })).statusCode).toBe(400);
    expect((await call('DELETE', `k12/role/${admin}`, 'school01')).statusCode).toBe(409);
  });

  it('a role with members cannot be deleted: 409 naming the members and their count', async () => {
    const teacherRole = await roleId(k12Id, '体育教师');
    const page = body<Page<RoleMember>>(await call('GET', `k12/role/${teacherRole}/members?size=80`, 'school01')).data;
    const res = await call('DELETE', `k12/role/${teacherRole}`, 'school01');
    expect(res.statusCode).toBe(409);
    expect(body(res).msg).toBe(`该数据已被角色成员使用（${page.total}条），不能删除`);
    const empty = await roleId(k12Id, '只看班级');
    expect((await call('DELETE', `k12/role/${empty}`, 'school01')).statusCode).toBe(200);
  });

  it('removing a permission takes effect on the member’s next request; removing the member ends the rest', async () => {
    expect((await call('GET', 'k12/org/class/page', 'staff0001')).statusCode).toBe(200);
    const r = body<RoleDetail>(await call('GET', `k12/role/${keeperRole}`, 'school01')).data;
    const res = await call('PUT', `k12/role/${keeperRole}`, 'school01', { name: r.name, identity: 'teacher', menuIds: pageWithButtons('k12.user.role'), version: r.version });
    expect(res.statusCode).toBe(200);
    expect((await call('GET', 'k12/org/class/page', 'staff0001')).statusCode).toBe(403);
    const menu = await t.request({ method: 'GET', url: '/api/busi/web/myInfo/getUInfo', token: await t.as('staff0001').token() });
    expect(JSON.stringify(menu.json())).toContain('k12.user.role');
    expect(JSON.stringify(menu.json())).not.toContain('k12.org.class');

    const members = body<Page<RoleMember>>(await call('GET', `k12/role/${keeperRole}/members`, 'school01')).data;
    expect(members.records.map((m) => m.accountId)).toEqual([staffAccount]);
    expect((await call('DELETE', `k12/role/${keeperRole}/members/${staffAccount}`, 'school01')).statusCode).toBe(200);
    expect((await call('GET', 'k12/role/page', 'staff0001')).statusCode).toBe(403);
    const candidates = body<RoleMember[]>(await call('GET', `k12/role/${keeperRole}/candidates?keyword=staff0001`, 'school01')).data;
    expect(candidates.map((c) => c.accountId)).toEqual([staffAccount]);
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'role'), eq(auditLogs.action, 'removeMember')))).toBe(1);
  });
});
