import { describe, expect, it } from 'vitest';
import { CATALOG, getCatalogEntry } from '@/domain/menus/catalog';
import { menuEntriesForGrant } from '@/domain/menus/menu-entries';
import { FAMILIES, type Family } from '@/domain/menus/access';
import { DEFAULT_MENU_CODES, ROLE_TEMPLATES, grantForMenuCodes } from '@/domain/menus/role-templates';
import { buildMenuTree, landingPath } from '@/domain/menus/tree';

const allButtons = new Set(CATALOG.flatMap((e) => e.buttons.map((b) => b.permission)));

describe('role templates', () => {
  for (const family of FAMILIES) {
    const { administrator, teacher } = ROLE_TEMPLATES[family];

    it(`${family}: reference existing keys and buttons only, with their parents`, () => {
      for (const grant of [administrator, teacher]) {
        expect(new Set(grant.keys).size).toBe(grant.keys.length);
        expect(new Set(grant.buttons).size).toBe(grant.buttons.length);
        for (const key of grant.keys) {
          const e = getCatalogEntry(key);
          expect(e, key).toBeDefined();
          expect([family, 'single', 'personal'], key).toContain(e!.family);
          if (e!.parent) expect(grant.keys, key).toContain(e!.parent);
        }
        for (const code of grant.buttons) expect(allButtons.has(code), code).toBe(true);
        // A granted button's page is granted too; a granted route's opener is granted too.
        for (const code of grant.buttons) {
          const page = CATALOG.find((e) => e.buttons.some((b) => b.permission === code))!;
          expect(grant.keys, code).toContain(page.key);
        }
        for (const key of grant.keys) {
          const e = getCatalogEntry(key)!;
          if (e.kind === 'route' && e.parent) {
            const parent = getCatalogEntry(e.parent)!;
            expect(e.permission === parent.permission || grant.buttons.includes(e.permission), key).toBe(true);
          }
        }
      }
    });

    it(`${family}: administrator holds everything of the family, single and the personal centre`, () => {
      // The shared meet screens only where the family runs meets (a district has no meets of its own).
      const meets = family !== 'admin';
      const expected = CATALOG.filter((e) => [family, 'single', 'personal'].includes(e.family) && (meets || !e.key.startsWith('single.sportsMeet')));
      for (const grant of [administrator, teacher]) expect(grant.keys.some((k) => k.startsWith('single.sportsMeet')), family).toBe(meets);
      expect([...administrator.keys].sort()).toEqual(expected.map((e) => e.key).sort());
      expect([...administrator.buttons].sort()).toEqual(expected.flatMap((e) => e.buttons.map((b) => b.permission)).sort());
    });

    it(`${family}: teacher is a subset of administrator without org structure, staff, roles, devices, banners`, () => {
      for (const k of teacher.keys) expect(administrator.keys, k).toContain(k);
      for (const b of teacher.buttons) expect(administrator.buttons, b).toContain(b);
      for (const k of teacher.keys) expect(k, k).not.toMatch(/^(admin|k12|gx)\.(org|user|venue|banner)(\.|$)/);
      expect(teacher.keys).not.toContain('single.menuManagement');
      expect(teacher.keys).toContain('personal.myInfo.base');
      expect(teacher.keys).toContain(`${family}.test.scoreSearch`);
      for (const b of teacher.buttons.filter((c) => c.endsWith(':delete'))) expect(b).toMatch(/^(admin|k12|gx):(homework|class|training):/);
      expect(landingPath(buildMenuTree(menuEntriesForGrant(teacher)))).not.toBeNull();
    });
  }

  it('gives the K12 teacher the teaching screens', () => {
    const { keys, buttons } = ROLE_TEMPLATES.k12.teacher;
    for (const k of [
      'k12.dataCenter.school',
      'k12.test.testManage',
      'k12.test.testResult',
      'k12.sportData.testRecord',
      'k12.contest.competitionRank',
      'k12.homework.homeworkManagement.add',
      'k12.class.match',
      'k12.training.specialTraining',
      'k12.lesson.lessonResource',
      'k12.sportsMeet.manage.arrange',
      'k12.wiki.schoolWiki',
      'single.sportsMeet.score.entry',
    ])
      expect(keys, k).toContain(k);
    expect(buttons).toContain('k12:homework:homeworkManagement:delete');
    expect(buttons).not.toContain('k12:test:testManage:delete');
    expect(keys).not.toContain('single.sportsMeet.certificate.add');
    expect(landingPath(buildMenuTree(menuEntriesForGrant(ROLE_TEMPLATES.k12.teacher)))).toBe('/k12/dataCenter/school');
  });

  it('gives the university teacher the data centre without wall links, landing on the school dashboard', () => {
    const { keys, buttons } = ROLE_TEMPLATES.gx.teacher;
    for (const k of ['gx.dataCenter.school', 'gx.dataCenter.college', 'gx.dataCenter.class.detail', 'gx.dataCenter.student.detail', 'gx.test.scoreSearch'])
      expect(keys, k).toContain(k);
    expect(buttons).toEqual(expect.arrayContaining(['gx:dataCenter:school:export', 'gx:dataCenter:college:export', 'gx:dataCenter:class:detail']));
    expect(buttons).not.toContain('gx:dataCenter:school:screen');
    expect(ROLE_TEMPLATES.gx.administrator.buttons).toContain('gx:dataCenter:school:screen');
    expect(landingPath(buildMenuTree(menuEntriesForGrant(ROLE_TEMPLATES.gx.teacher)))).toBe('/gx/dataCenter/school');
    expect(landingPath(buildMenuTree(menuEntriesForGrant(ROLE_TEMPLATES.gx.administrator)))).toBe('/gx/dataCenter/school');
  });
});

describe('default menu codes (docs/product-rules.md#accounts-in-use)', () => {
  it('match docs/product-rules.md#accounts-in-use and resolve to catalogue pages', () => {
    expect(DEFAULT_MENU_CODES[10]).toEqual([]);
    expect(DEFAULT_MENU_CODES[21]).toEqual(['101101', '101001', '101002', '101003']);
    expect(DEFAULT_MENU_CODES[22]).toEqual(['101201', '101001', '101002', '101003']);
    const byCode = new Map(CATALOG.map((e) => [e.code, e]));
    expect(byCode.get('101001')?.path).toBe('/myInfo/base');
    expect(byCode.get('101002')?.path).toBe('/myInfo/editUser');
    expect(byCode.get('101003')?.path).toBe('/myInfo/editAccount');
    expect(byCode.get('101101')?.path).toBe('/k12/dataCenter/school');
    expect(byCode.get('101201')?.path).toBe('/gx/dataCenter/school');
  });

  it('build a usable menu for a new organisation', () => {
    const k12 = buildMenuTree(menuEntriesForGrant(grantForMenuCodes(DEFAULT_MENU_CODES[21])));
    expect(k12.map((n) => n.menuId)).toEqual(['k12.dataCenter', 'personal.myInfo']);
    expect(landingPath(k12)).toBe('/k12/dataCenter/school');
    expect(k12[0].children[0].buttons).toEqual(['k12:dataCenter:school:export', 'k12:dataCenter:school:screen']);
    const gx = buildMenuTree(menuEntriesForGrant(grantForMenuCodes(DEFAULT_MENU_CODES[22])));
    expect(gx.map((n) => n.menuId)).toEqual(['gx.dataCenter', 'personal.myInfo']);
    expect(landingPath(gx)).toBe('/gx/dataCenter/school');
    expect(gx[0].children[0].buttons).toEqual(['gx:dataCenter:school:export', 'gx:dataCenter:school:screen']);
    expect(grantForMenuCodes(DEFAULT_MENU_CODES[10])).toEqual({ keys: [], buttons: [] });
  });
});

describe('the "view sensitive fields" button (docs/product-rules.md#data-scopes)', () => {
  const PEOPLE_PAGES: Record<Family, string[]> = {
    admin: ['admin.user.user'],
    k12: ['k12.user.teacher', 'k12.user.student', 'k12.user.parent'],
    gx: ['gx.user.teacher', 'gx.user.student'],
  };
  for (const family of FAMILIES) {
    it(`${family}: is on every people page, held by the administrator template and not by the teacher's`, () => {
      const codes = PEOPLE_PAGES[family].map((key) => getCatalogEntry(key)!.buttons.find((b) => b.action === 'sensitive')?.permission);
      for (const code of codes) expect(code).toBeDefined();
      for (const code of codes) expect(ROLE_TEMPLATES[family].administrator.buttons).toContain(code);
      expect(ROLE_TEMPLATES[family].teacher.buttons.filter((b) => b.endsWith(':sensitive'))).toEqual([]);
    });
  }
});
