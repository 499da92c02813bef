import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { MenuNode, UInfo } from '@/domain/auth/types';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { MENU_MANAGEMENT_KEY, type MenuCustomRow } from '@/domain/menus/customize';
import type { PermissionNode } from '@/domain/roles/permission-tree';
import { auditLogs } from '../../../server/db/schema/audit';
import { dataOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const tree = async (family: string) => dataOf(await t.as('district01').get<MenuCustomRow[]>(`/api/busi/web/menuManagement/tree?family=${family}`));
const rowOf = async (key: string) => (await tree(key.split('.')[0])).find((r) => r.key === key)!;
const save = (key: string, payload: unknown, lang = 'zh-CN') => t.as('district01', { language: lang }).put(`/api/busi/web/menuManagement/${key}`, payload);
const move = (key: string, direction: 'up' | 'down', lang = 'zh-CN') => t.as('district01', { language: lang }).post(`/api/busi/web/menuManagement/${key}/move`, { direction });
const reset = (key: string) => t.as('district01').post(`/api/busi/web/menuManagement/${key}/reset`, {});

async function sideMenu(account: string, lang = 'zh-CN'): Promise<MenuNode[]> {
  return dataOf(await t.as(account, { language: lang }).get<UInfo>('/api/busi/web/myInfo/getUInfo')).menuTree;
}
function find<T extends { children?: T[] }>(nodes: readonly T[], pick: (n: T) => boolean): T | undefined {
  for (const n of nodes) {
    if (pick(n)) return n;
    const hit = n.children && find(n.children, pick);
    if (hit) return hit;
  }
  return undefined;
}
const menuNode = (nodes: MenuNode[], key: string) => find(nodes, (n) => n.menuId === key);
async function roleTree(lang = 'zh-CN'): Promise<PermissionNode[]> {
  return dataOf(await t.as('school01', { language: lang }).get<PermissionNode[]>('/api/busi/web/k12/role/menu-tree'));
}

const CLASS = 'k12.org.class';
const NAMES = { zh_cn: '班级名册', zh_tw: '班級名冊', en_us: 'Class roll' };

describe('menu management: who', () => {
  it("tells the user info whether the account in use is a platform operator: the header's entry shows for them alone", async () => {
    const uinfo = async (account: string) => dataOf(await t.as(account).get<UInfo>('/api/busi/web/myInfo/getUInfo'));
    expect((await uinfo('district01')).platformOperator).toBe(true);
    // A school administrator holds the page's permission too, but not in a top management organisation.
    const school = await uinfo('school01');
    expect(school.permissions).toContain(getCatalogEntry(MENU_MANAGEMENT_KEY)!.permission);
    expect(school.platformOperator).toBe(false);
    expect((await uinfo('teacher01')).platformOperator).toBe(false);
  });

  it('answers a platform operator (top management organisation) every family’s groups and pages; school administrators and teachers get 403', async () => {
    const k12 = await tree('k12');
    expect(k12.find((r) => r.key === CLASS)).toMatchObject({ kind: 'page', parent: 'k12.org', customised: false, hidden: false });
    expect(k12.some((r) => r.key === `${CLASS}.add`)).toBe(false);
    for (const family of ['admin', 'gx', 'single']) expect((await tree(family)).length).toBeGreaterThan(0);
    for (const account of ['school01', 'teacher01']) {
      expect((await t.as(account).get('/api/busi/web/menuManagement/tree?family=k12')).status).toBe(403);
      expect((await t.as(account).put(`/api/busi/web/menuManagement/${CLASS}`, { names: NAMES, visible: true })).status).toBe(403);
    }
    expect((await t.as('district01').put('/api/busi/web/menuManagement/k12.org.class.add', { visible: false })).status).toBe(404);
    expect((await t.as('district01').put('/api/busi/web/menuManagement/single.menuManagement', { visible: false })).status).toBe(404);
  });
});

describe('menu management: edits reach menus and role editors', () => {
  it('a rename reaches the side menu and the role editor in the request’s language, and is audited', async () => {
    const { version } = await rowOf(CLASS);
    const res = await save(CLASS, { names: NAMES, icon: 'school', visible: true, version });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ names: NAMES, customIcon: 'school', customised: true, version: version + 1 });

    expect(menuNode(await sideMenu('school01', 'en-US'), CLASS)).toMatchObject({ menuName: 'Class roll', names: NAMES });
    expect(menuNode(await sideMenu('school01', 'zh-TW'), CLASS)?.menuName).toBe('班級名冊');
    expect(menuNode(await sideMenu('school01'), CLASS)).toMatchObject({ menuName: '班级名册', icon: 'school' });
    expect(find(await roleTree('en-US'), (n) => n.id === CLASS)?.label).toBe('Class roll');
    expect(find(await roleTree(), (n) => n.id === CLASS)?.label).toBe('班级名册');

    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'menu'), eq(auditLogs.entityId, CLASS)));
    expect(log).toMatchObject({ action: 'update' });
  });

  it('a stale save is 409; a long name or an unknown icon is 400 naming the field in the request’s language; nothing written', async () => {
    const row = await rowOf(CLASS);
    expect((await save(CLASS, { names: { zh_cn: 'x' }, visible: true, version: row.version - 1 })).status).toBe(409);
    const long = await save(CLASS, { names: { en_us: 'A'.repeat(21) }, visible: true, version: row.version }, 'en-US');
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ msg: 'The menu name cannot exceed 20 characters', data: { field: 'names.en_us' } });
    const icon = await save(CLASS, { icon: 'skull', visible: true, version: row.version }, 'en-US');
    expect(icon.status).toBe(400);
    expect(icon.body).toMatchObject({ msg: 'Choose an icon from the list', data: { field: 'icon' } });
    expect(await rowOf(CLASS)).toEqual(row);
  });

  it('moving up and down reorders the side menu and the role editor; not past the first or last', async () => {
    const siblings = (await tree('k12')).filter((r) => r.parent === 'k12.org').map((r) => r.key);
    const at = siblings.indexOf(CLASS);
    expect(at).toBeGreaterThan(0);
    expect((await move(CLASS, 'up')).status).toBe(200);
    const moved = (await tree('k12')).filter((r) => r.parent === 'k12.org').map((r) => r.key);
    expect(moved[at - 1]).toBe(CLASS);
    expect(moved[at]).toBe(siblings[at - 1]);

    const side = menuNode(await sideMenu('school01'), 'k12.org')!.children.map((n) => n.menuId);
    expect(side.indexOf(CLASS)).toBeLessThan(side.indexOf(siblings[at - 1]));
    const editor = find(await roleTree(), (n) => n.id === 'k12.org')!.children!.map((n) => n.id);
    expect(editor.indexOf(CLASS)).toBeLessThan(editor.indexOf(siblings[at - 1]));

    const first = await move(moved[0], 'up', 'en-US');
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({ msg: 'Already the first entry: it cannot move up' });
    expect((await move(moved.at(-1)!, 'down')).status).toBe(400);
  });

  it('a hidden page leaves the side menu and its routes answer 403; the role editor keeps it marked; a reset brings the catalogue back', async () => {
    expect((await t.as('school01').get('/api/busi/web/k12/org/class/page')).status).toBe(200);
    const row = await rowOf(CLASS);
    expect((await save(CLASS, { names: row.names, visible: false, version: row.version })).status).toBe(200);

    expect(menuNode(await sideMenu('school01'), CLASS)).toBeUndefined();
    expect(menuNode(await sideMenu('school01'), 'k12.org')).toBeDefined();
    expect((await t.as('school01').get('/api/busi/web/k12/org/class/page')).status).toBe(403);
    expect(dataOf(await t.as('school01').get<UInfo>('/api/busi/web/myInfo/getUInfo')).permissions).not.toContain('k12:org:class:add');
    expect(find(await roleTree('en-US'), (n) => n.id === CLASS)).toMatchObject({ label: 'Class roll (hidden)', hidden: true });

    expect((await reset(CLASS)).status).toBe(200);
    expect(await rowOf(CLASS)).toMatchObject({ names: {}, customIcon: null, hidden: false, customised: false });
    const back = menuNode(await sideMenu('school01', 'en-US'), CLASS)!;
    expect(back.menuName).toBe('班级管理');
    expect(back.names).toBeUndefined();
    expect((await t.as('school01').get('/api/busi/web/k12/org/class/page')).status).toBe(200);
  });

  it('resetting a family drops every change in it, order included', async () => {
    expect((await rowOf('k12.org.grade')).customised).toBe(true); // moved down by the move test
    const res = await t.as('district01').post('/api/busi/web/menuManagement/reset', { family: 'k12' });
    expect(res.status).toBe(200);
    expect((await tree('k12')).filter((r) => r.customised)).toEqual([]);
  });
});
