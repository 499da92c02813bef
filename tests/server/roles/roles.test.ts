import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { buttonId, type RoleDetail, type RoleMember, type RoleRow } from '@/domain/roles/roles';
import { auditLogs } from '../../../server/db/schema/audit';
import { memberships, roles, users } from '../../../server/db/schema/auth';
import { dataOf, orgOf } from '../../support/factories';
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
    const page = dataOf(await t.as('school01').get<Page<RoleRow>>('/api/busi/web/k12/role/page?size=20'));
    expect(page.records[0]).toMatchObject({ name: '管理员', builtin: true, identity: 'administrator' });
    expect(page.records.map((r) => r.name)).toEqual(expect.arrayContaining(['体育教师', '班级管理员', '数据查看员']));
    expect(page.records.find((r) => r.name === '体育教师')!.memberCount).toBeGreaterThan(1);
    expect((await t.as('teacher01').get('/api/busi/web/k12/role/page')).status).toBe(403);
  });

  it('a name with other characters is 400 naming the field, in the request’s language; a taken name too; nothing written', async () => {
    const before = await t.db.$count(roles);
    const bad = await t.as('school01').post('/api/busi/web/k12/role', { name: '班级-管理', identity: 'teacher', menuIds: CLASS_ONLY });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ msg: '角色名称只能包含中文、英文字母和数字', data: { field: 'name' } });
    const en = await t.as('school01', { language: 'en-US' }).post('/api/busi/web/k12/role', { name: 'a b', identity: 'teacher' });
    expect(en.body.msg).toBe('The role name may contain only Chinese characters, English letters and digits');
    const dup = await t.as('school01').post('/api/busi/web/k12/role', { name: '体育教师', identity: 'teacher' });
    expect(dup.body).toMatchObject({ code: '400', data: { field: 'name' } });
    const unknown = await t.as('school01').post('/api/busi/web/k12/role', { name: 'gx角色', identity: 'teacher', menuIds: ['gx.org.class'] });
    expect(unknown.body).toMatchObject({ code: '400', data: { field: 'menuIds' } });
    expect(await t.db.$count(roles)).toBe(before);
  });

  it('creates a role: ancestors and the routes its buttons open come along; mobile functions kept; audited', async () => {
    const res = await t.as('school01').post<RoleDetail>('/api/busi/web/k12/role', { name: 'ClassKeeper1', remark: '班级', identity: 'teacher', menuIds: CLASS_ONLY, mobileFunctions: ['signIn', 'homework'] });
    expect(res.status).toBe(200);
    const role = res.body.data;
    expect(role.menuIds).toEqual(expect.arrayContaining(['k12.org', 'k12.org.class', 'k12.org.class#add', 'k12.org.class.add', 'k12.org.class.edit']));
    expect(role.menuIds.some((m) => m.startsWith('k12.org.acayear'))).toBe(false);
    expect(role.mobileFunctions).toEqual(['signIn', 'homework']);
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'role'), eq(auditLogs.entityId, role.id)))).toBe(1);
    const stale = await t.as('school01').put(`/api/busi/web/k12/role/${role.id}`, { name: 'ClassKeeper1', identity: 'teacher', menuIds: CLASS_ONLY, version: 0 });
    expect(stale.status).toBe(409);
  });
});

describe('roles: guards', () => {
  let keeperRole: string;
  let staffAccount: string;

  beforeAll(async () => {
    // A role manager who holds only role management and the class screens, given to the seeded account without a role.
    const created = (await t.as('school01').post<RoleDetail>('/api/busi/web/k12/role', { name: '班级与角色', identity: 'teacher', menuIds: ROLE_MANAGER })).body;
    keeperRole = created.data.id;
    staffAccount = await accountOf('staff0001', k12Id);
    expect((await t.as('school01').post(`/api/busi/web/k12/role/${keeperRole}/members`, { accountIds: [staffAccount] })).status).toBe(200);
    await t.as('staff0001').token();
  });

  it('cannot grant what it does not hold: escalation through create and update is 403, nothing written', async () => {
    const before = await t.db.$count(roles);
    const create = await t.as('staff0001').post('/api/busi/web/k12/role', { name: '越权', identity: 'teacher', menuIds: [...CLASS_ONLY, 'k12.org.acayear'] });
    expect(create.status).toBe(403);
    expect(create.body).toMatchObject({ msg: '不能授予您自己没有的权限', data: { field: 'menuIds' } });
    expect(await t.db.$count(roles)).toBe(before);
    // Its own role: adding a screen it lacks is escalation too.
    const own = dataOf(await t.as('staff0001').get<RoleDetail>(`/api/busi/web/k12/role/${keeperRole}`));
    const up = await t.as('staff0001').put(`/api/busi/web/k12/role/${keeperRole}`, { name: own.name, identity: 'teacher', menuIds: [...ROLE_MANAGER, ...pageWithButtons('k12.org.acayear')], version: own.version });
    expect(up.status).toBe(403);
    expect(dataOf(await t.as('school01').get<RoleDetail>(`/api/busi/web/k12/role/${keeperRole}`)).menuIds).not.toContain('k12.org.acayear');
    // Within its own permissions it may create roles.
    expect((await t.as('staff0001').post('/api/busi/web/k12/role', { name: '只看班级', identity: 'teacher', menuIds: ['k12.org.class'] })).status).toBe(200);
  });

  it('editing a role that holds more than the editor keeps those permissions (only gains are checked)', async () => {
    const viewer = await roleId(k12Id, '数据查看员');
    const r = dataOf(await t.as('staff0001').get<RoleDetail>(`/api/busi/web/k12/role/${viewer}`));
    const res = await t.as('staff0001').put<RoleDetail>(`/api/busi/web/k12/role/${viewer}`, { name: '数据查看员', remark: '改备注', identity: 'teacher', menuIds: r.menuIds, version: r.version });
    expect(res.status).toBe(200);
    expect(res.body.data.menuIds).toContain('k12.dataCenter.school');
  });

  it('cannot hand out a role holding what the actor lacks: adding members to the administrator role is 403', async () => {
    const admin = await roleId(k12Id, '管理员');
    const teacher = await accountOf('teacher01', k12Id);
    expect((await t.as('staff0001').post(`/api/busi/web/k12/role/${admin}/members`, { accountIds: [teacher] })).status).toBe(403);
  });

  it('another organisation’s role and account ids are 404', async () => {
    const uniRole = await roleId(uniId, '体育教师');
    expect((await t.as('school01').get(`/api/busi/web/k12/role/${uniRole}`)).status).toBe(404);
    expect((await t.as('school01').put(`/api/busi/web/k12/role/${uniRole}`, { name: 'x', identity: 'teacher', version: 1 })).status).toBe(404);
    expect((await t.as('school01').delete(`/api/busi/web/k12/role/${uniRole}`)).status).toBe(404);
    expect((await t.as('school01').get(`/api/busi/web/k12/role/${uniRole}/members`)).status).toBe(404);
    const uniAccount = await accountOf('college01', uniId);
    expect((await t.as('school01').post(`/api/busi/web/k12/role/${keeperRole}/members`, { accountIds: [uniAccount] })).status).toBe(404);
    const gxTeacherRole = await roleId(uniId, '管理员');
    expect((await t.as('school01').delete(`/api/busi/web/k12/role/${keeperRole}/members/${uniAccount}`)).status).toBe(404);
    expect((await t.as('school01').delete(`/api/busi/web/gx/role/${gxTeacherRole}/members/${uniAccount}`)).status).toBe(403);
  });

  it('the built-in administrator role keeps role management and cannot be deleted', async () => {
    const admin = await roleId(k12Id, '管理员');
    const r = dataOf(await t.as('school01').get<RoleDetail>(`/api/busi/web/k12/role/${admin}`));
    const without = r.menuIds.filter((m) => !m.startsWith('k12.user.role'));
    const res = await t.as('school01').put(`/api/busi/web/k12/role/${admin}`, { name: r.name, identity: 'administrator', menuIds: without, version: r.version });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ msg: '内置管理员角色必须保留角色管理权限', data: { field: 'menuIds' } });
    const noDelete = r.menuIds.filter((m) => m !== 'k12.user.role#delete');
    expect((await t.as('school01').put(`/api/busi/web/k12/role/${admin}`, { name: r.name, identity: 'administrator', menuIds: noDelete, version: r.version })).status).toBe(400);
    expect((await t.as('school01').delete(`/api/busi/web/k12/role/${admin}`)).status).toBe(409);
  });

  it('a role with members cannot be deleted: 409 naming the members and their count', async () => {
    const teacherRole = await roleId(k12Id, '体育教师');
    const page = dataOf(await t.as('school01').get<Page<RoleMember>>(`/api/busi/web/k12/role/${teacherRole}/members?size=80`));
    const res = await t.as('school01').delete(`/api/busi/web/k12/role/${teacherRole}`);
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe(`该数据已被角色成员使用（${page.total}条），不能删除`);
    const empty = await roleId(k12Id, '只看班级');
    expect((await t.as('school01').delete(`/api/busi/web/k12/role/${empty}`)).status).toBe(200);
  });

  it('removing a permission takes effect on the member’s next request; removing the member ends the rest', async () => {
    expect((await t.as('staff0001').get('/api/busi/web/k12/org/class/page')).status).toBe(200);
    const r = dataOf(await t.as('school01').get<RoleDetail>(`/api/busi/web/k12/role/${keeperRole}`));
    const res = await t.as('school01').put(`/api/busi/web/k12/role/${keeperRole}`, { name: r.name, identity: 'teacher', menuIds: pageWithButtons('k12.user.role'), version: r.version });
    expect(res.status).toBe(200);
    expect((await t.as('staff0001').get('/api/busi/web/k12/org/class/page')).status).toBe(403);
    const menu = await t.as('staff0001').get('/api/busi/web/myInfo/getUInfo');
    expect(JSON.stringify(menu.json)).toContain('k12.user.role');
    expect(JSON.stringify(menu.json)).not.toContain('k12.org.class');

    const members = dataOf(await t.as('school01').get<Page<RoleMember>>(`/api/busi/web/k12/role/${keeperRole}/members`));
    expect(members.records.map((m) => m.accountId)).toEqual([staffAccount]);
    expect((await t.as('school01').delete(`/api/busi/web/k12/role/${keeperRole}/members/${staffAccount}`)).status).toBe(200);
    expect((await t.as('staff0001').get('/api/busi/web/k12/role/page')).status).toBe(403);
    const candidates = dataOf(await t.as('school01').get<RoleMember[]>(`/api/busi/web/k12/role/${keeperRole}/candidates?keyword=staff0001`));
    expect(candidates.map((c) => c.accountId)).toEqual([staffAccount]);
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'role'), eq(auditLogs.action, 'removeMember')))).toBe(1);
  });
});
