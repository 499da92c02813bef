import { describe, expect, it } from 'vitest';
import type { MenuEntry, MenuNode } from '@/domain/auth/types';
import { CATALOG, CATALOG_FAMILIES, catalogFor, getCatalogEntry } from '@/domain/menus/catalog';
import { menuEntriesForGrant, toMenuEntries } from '@/domain/menus/menu-entries';
import { ROLE_TEMPLATES } from '@/domain/menus/role-templates';
import { buildMenuTree, findTrail, landingPath } from '@/domain/menus/tree';

const walk = (nodes: readonly MenuNode[], visit: (n: MenuNode) => void) => {
  for (const n of nodes) {
    visit(n);
    walk(n.children, visit);
  }
};

/** Path of the first page below a catalogue entry, in sortNum order. */
const firstPagePath = (key: string): string => {
  const children = CATALOG.filter((e) => e.parent === key && e.kind !== 'route').sort((a, b) => a.sortNum - b.sortNum);
  for (const c of children) {
    if (c.kind === 'page') return c.path;
    const p = firstPagePath(c.key);
    if (p) return p;
  }
  return '';
};

describe('toMenuEntries', () => {
  it('emits one row per entry and one per button', () => {
    const rows = toMenuEntries(CATALOG);
    const buttons = CATALOG.reduce((n, e) => n + e.buttons.length, 0);
    expect(rows.length).toBe(CATALOG.length + buttons);
    expect(new Set(rows.map((r) => r.menuId)).size).toBe(rows.length);
    for (const r of rows) {
      if (r.menuType === '1') {
        expect(r.menuId).toBe(`${r.pid}#${r.permission.split(':').at(-1)}`);
        expect(r.menuPath).toBe('');
        expect(getCatalogEntry(r.pid)).toBeDefined();
      } else {
        const e = getCatalogEntry(r.menuId)!;
        expect(r.pid).toBe(e.parent ?? '0');
        expect(r.menuName).toBe(e.name);
        expect(r.menuPath).toBe(e.kind === 'group' ? '' : e.path);
        expect(r.icon).toBe(e.icon);
      }
    }
  });
});

describe('buildMenuTree over the catalogue', () => {
  for (const family of CATALOG_FAMILIES) {
    it(`${family}: top entries default to their first page; routes stay hidden`, () => {
      const tree = buildMenuTree(toMenuEntries(catalogFor(family)));
      expect(tree.length).toBeGreaterThan(0);
      for (const top of tree) {
        expect(top.defaultPath, top.menuId).not.toBe('');
        expect(top.defaultPath, top.menuId).toBe(firstPagePath(top.menuId));
      }
      walk(tree, (n) => expect(getCatalogEntry(n.menuId)?.kind, n.menuId).not.toBe('route'));
      // Every visible page keeps its buttons; hidden routes' permissions are folded into their page.
      walk(tree, (n) => {
        const e = getCatalogEntry(n.menuId)!;
        for (const b of e.buttons) expect(n.buttons).toContain(b.permission);
        for (const r of CATALOG.filter((x) => x.parent === e.key && x.kind === 'route')) expect(n.buttons).toContain(r.permission);
        expect(new Set(n.buttons).size).toBe(n.buttons.length);
      });
    });
  }

  it('lands a K12 administrator on the school dashboard and finds trails of sub-routes', () => {
    const tree = buildMenuTree(menuEntriesForGrant(ROLE_TEMPLATES.k12.administrator));
    expect(landingPath(tree)).toBe('/k12/dataCenter/school');
    const trail = findTrail(tree, '/k12/user/teacher/edit/42');
    expect(trail.map((n) => n.menuId)).toEqual(['k12.user', 'k12.user.teacher']);
    expect(trail.at(-1)?.buttons).toContain('k12:user:teacher:edit');
    expect(findTrail(tree, '/k12/sportsMeet/detail/arrange/3').map((n) => n.menuId)).toEqual([
      'k12.sportsMeet',
      'k12.sportsMeet.manage',
    ]);
    // Shared families follow the role's own groups.
    expect(tree.at(-1)?.menuId).toBe('personal.myInfo');
  });

  it('lands a university administrator on the school dashboard and an admin-family one on its schools overview', () => {
    expect(landingPath(buildMenuTree(menuEntriesForGrant(ROLE_TEMPLATES.gx.administrator)))).toBe('/gx/dataCenter/school');
    expect(landingPath(buildMenuTree(menuEntriesForGrant(ROLE_TEMPLATES.admin.administrator)))).toBe('/admin/dataCenter/overview');
  });

  it('keeps menus outside the catalogue visible and folds buttons of hidden routes', () => {
    const rows: MenuEntry[] = [
      { menuId: 'g', pid: '0', menuName: 'g', i18nKey: 'x', menuPath: '', menuType: '0', sortNum: 1, permission: 'g' },
      { menuId: 'p', pid: 'g', menuName: 'p', i18nKey: 'x', menuPath: '/x/p', menuType: '0', sortNum: 1, permission: 'x:g:p:view' },
      { menuId: 'r', pid: 'p', menuName: 'r', i18nKey: 'x', menuPath: '/x/p/add', menuType: '0', sortNum: 1, permission: 'x:g:p:add' },
      { menuId: 'r#save', pid: 'r', menuName: 's', i18nKey: 'x', menuPath: '', menuType: '1', sortNum: 1, permission: 'x:g:p:save' },
    ];
    const visible = buildMenuTree(rows, () => false);
    expect(visible[0].children[0].children.map((n) => n.menuId)).toEqual(['r']);
    const hidden = buildMenuTree(rows, (e) => e.menuId === 'r');
    expect(hidden[0].children[0].children).toEqual([]);
    expect(hidden[0].children[0].buttons).toEqual(['x:g:p:add', 'x:g:p:save']);
    expect(hidden[0].defaultPath).toBe('/x/p');
  });
});
