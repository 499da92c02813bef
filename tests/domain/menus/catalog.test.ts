import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUTTON_ACTIONS,
  CATALOG,
  CATALOG_FAMILIES,
  FAMILY_PREFIX,
  STANDALONE_PATHS,
  catalogFor,
  familyOfOrgType,
  findCatalogEntry,
  getCatalogEntry,
  routeEntries,
} from '@/domain/menus/catalog';
import { LOCALES } from '@/domain/constants';
import type { Family } from '@/domain/menus/access';

/** Every path of the product's screens (docs/product-rules.md#screens-and-routes), with the react-router params this product uses for them. */
const SPEC_PATHS: Record<Family | 'always', readonly string[]> = {
  always: ['/myInfo/base', '/myInfo/editUser', '/myInfo/editAccount', '/menuManagement', '/scoreReport', '/scoreReportK12'],
  admin: [
    '/admin/currentOrg',
    '/admin/currentOrg/edit/:orgId',
    '/admin/orgManage/orgInfo',
    '/admin/orgManage/orgInfo/add',
    '/admin/orgManage/orgInfo/edit/:orgId',
    '/admin/orgManage/orgInfo/detail/:orgId',
    '/admin/departmentManage',
    '/admin/departmentManage/member/:id',
    '/admin/user',
    '/admin/user/add',
    '/admin/user/edit/:id',
    '/admin/role',
    '/admin/role/add',
    '/admin/role/edit/:recordUid',
    '/admin/role/members/:id',
    '/admin/onlineManagement/competitionRank',
    '/admin/onlineManagement/competitionRank/addRank',
    '/admin/onlineManagement/competitionRank/editRank/:id',
    '/admin/onlineManagement/competitionRank/detailRank/:id',
    '/admin/onlineManagement/competitionRank/dataRank/:id',
    '/admin/sportsHomework/homeworkManagement',
    '/admin/sportsHomework/homeworkManagement/detail/:id',
    '/admin/class/practise',
    '/admin/class/test',
    '/admin/organizeTest/testManage',
    '/admin/organizeTest/testManage/add',
    '/admin/organizeTest/testManage/check/:id',
    '/admin/organizeTest/scoreSearch',
    '/admin/selfTest/testRecord',
    '/admin/exerciseRecord',
    '/admin/banner/bannerConfig',
    '/admin/banner/bannerConfig/edit/:uid',
    '/admin/banner/bannerConfig/detail/:uid',
  ],
  k12: [
    '/k12/currentOrg',
    '/k12/currentOrg/edit/:orgId',
    '/k12/device',
    '/k12/place',
    '/k12/place/device/:id',
    '/k12/org/acayear',
    '/k12/org/acayear/add',
    '/k12/org/acayear/edit/:id',
    '/k12/org/grade',
    '/k12/org/class',
    '/k12/user/teacher',
    '/k12/user/teacher/add',
    '/k12/user/teacher/edit/:id',
    '/k12/user/student',
    '/k12/user/student/add',
    '/k12/user/student/edit/:id',
    '/k12/user/parent',
    '/k12/user/parent/edit/:id',
    '/k12/role',
    '/k12/role/add',
    '/k12/role/edit/:recordUid',
    '/k12/role/members/:id',
    '/k12/organizeTest/testManage',
    '/k12/organizeTest/testManage/add',
    '/k12/organizeTest/testManage/check/:id',
    '/k12/organizeTest/scoreSearch',
    '/k12/selfTest/testRecord',
    '/k12/exerciseRecord',
    '/k12/onlineManagement/competitionRank',
    '/k12/onlineManagement/competitionRank/addRank',
    '/k12/onlineManagement/competitionRank/editRank/:id',
    '/k12/onlineManagement/competitionRank/detailRank/:id',
    '/k12/onlineManagement/competitionRank/dataRank/:id',
    '/k12/sportsHomework/homeworkManagement',
    '/k12/sportsHomework/homeworkManagement/add',
    '/k12/sportsHomework/homeworkManagement/detail/:id',
    '/k12/sportsHomework/homeworkManagement/edit/:id',
    '/k12/physiqueManage/testResult',
    '/k12/physiqueManage/testResult/editUpReport',
    '/k12/class/practise',
    '/k12/class/test',
    '/k12/class/match',
    '/k12/specialTraining/specialTrainingList',
    '/k12/specialTraining/specialTrainingList/add',
    '/k12/specialTraining/specialTrainingList/detail/:id',
    '/k12/specialTraining/specialTrainingList/detailDataList/:id',
    '/k12/lessonAssistant/lessonResourceList',
    '/k12/lessonAssistant/lessonResourceList/add',
    '/k12/lessonAssistant/lessonResourceList/edit/:id',
    '/k12/sportsMeet',
    '/k12/sportsMeet/add',
    '/k12/sportsMeet/detail/:meetId',
    '/k12/sportsMeet/detail/arrange/:meetId',
    '/k12/sportsMeet/detail/calendar/:meetId',
    '/k12/sportsMeet/demeanor/:meetId',
    '/k12/dataCenter/school',
    '/k12/dataCenter/grade',
    '/k12/dataCenter/class',
    '/k12/dataCenter/class/detail/:id',
    '/k12/dataCenter/student',
    '/k12/dataCenter/student/detail/:id',
    '/k12/wikiManagement/schoolWiki',
    '/k12/wikiManagement/schoolWiki/add',
    '/k12/wikiManagement/schoolWiki/edit/:id',
    '/k12/banner/bannerConfig',
    '/k12/banner/bannerConfig/edit/:uid',
    '/k12/banner/bannerConfig/detail/:uid',
  ],
  gx: [
    '/gx/dataCenter/school',
    '/gx/dataCenter/college',
    '/gx/dataCenter/class',
    '/gx/dataCenter/class/detail/:id',
    '/gx/dataCenter/student',
    '/gx/dataCenter/student/detail/:id',
    '/gx/role',
    '/gx/role/add',
    '/gx/role/edit/:recordUid',
    '/gx/role/members/:id',
    '/gx/device',
    '/gx/place',
    '/gx/org/acayear',
    '/gx/org/grade',
    '/gx/org/class',
    '/gx/org/class/add',
    '/gx/org/class/edit/:classId',
    '/gx/org/college',
    '/gx/org/college/addEdit',
    '/gx/org/major',
    '/gx/org/major/addEdit',
    '/gx/currentOrg',
    '/gx/organizeTest/testManage',
    '/gx/organizeTest/testManage/add',
    '/gx/organizeTest/testManage/check/:id',
    '/gx/organizeTest/scoreSearch',
    '/gx/sportsMeet',
    '/gx/sportsMeet/add',
    '/gx/sportsMeet/detail/:meetId',
    '/gx/sportsMeet/detail/arrange/:meetId',
    '/gx/sportsMeet/detail/calendar/:meetId',
    '/gx/sportsMeet/demeanor/:meetId',
    '/gx/onlineManagement/competition',
    '/gx/onlineManagement/competition/addRank',
    '/gx/onlineManagement/competition/editRank/:id',
    '/gx/onlineManagement/competition/detailRank/:id',
    '/gx/onlineManagement/competition/dataRank/:id',
    '/gx/onlineManagement/competition/addChallenge',
    '/gx/onlineManagement/competition/editChallenge/:id',
    '/gx/onlineManagement/competition/detailChallenge/:id',
    '/gx/onlineManagement/competition/dataChallenge/:id',
    '/gx/selfTest/testRecord',
    '/gx/exerciseRecord',
    '/gx/user/teacher',
    '/gx/user/student',
    '/gx/wikiManagement/schoolWiki',
    '/gx/banner/bannerConfig',
  ],
};

type Tree = { [k: string]: string | Tree };
const localeKeys = (lng: string): Set<string> => {
  const json = JSON.parse(readFileSync(join(import.meta.dirname, `../../../locales/${lng}/menus.json`), 'utf8')) as Tree;
  const out = new Set<string>();
  const walk = (t: Tree, prefix: string) => {
    for (const [k, v] of Object.entries(t)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (typeof v === 'string') out.add(key);
      else walk(v, key);
    }
  };
  walk(json, '');
  return out;
};

describe('screen catalogue', () => {
  it('has unique keys, codes and paths', () => {
    const keys = CATALOG.map((e) => e.key);
    expect(new Set(keys).size).toBe(keys.length);
    const codes = CATALOG.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    const paths = CATALOG.filter((e) => e.path).map((e) => e.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('links every entry to an existing parent of the same family, with the right shape', () => {
    for (const e of CATALOG) {
      expect(getCatalogEntry(e.key)).toBe(e);
      if (e.kind === 'group') {
        expect(e.parent, e.key).toBeNull();
        expect(e.path, e.key).toBe('');
        expect(e.icon, e.key).toMatch(/^[a-z0-9-]+$/);
        expect(e.buttons, e.key).toEqual([]);
        expect(e.code, e.key).toMatch(/^101\d00\d\d$/);
        continue;
      }
      expect(e.path, e.key).toMatch(/^\/[A-Za-z0-9/:]+$/);
      if (e.kind === 'page') {
        const parent = getCatalogEntry(e.parent ?? '');
        expect(parent?.kind, e.key).toBe('group');
        expect(parent?.family, e.key).toBe(e.family);
        expect(e.code, e.key).toMatch(/^101\d\d\d$/);
        expect(e.permission, e.key).toBe(`${e.key.replaceAll('.', ':')}:view`);
        expect(e.path, e.key).not.toContain(':');
      } else if (e.parent !== null) {
        const parent = getCatalogEntry(e.parent);
        expect(parent?.kind, e.key).toBe('page');
        expect(parent?.family, e.key).toBe(e.family);
        expect(e.path.startsWith(`${parent?.path}/`), e.key).toBe(true);
        expect(e.code.startsWith(parent?.code ?? '-'), e.key).toBe(true);
        // A hidden route carries the permission of the button that opens it (or the page's view).
        const openers = [parent!.permission, ...parent!.buttons.map((b) => b.permission)];
        expect(openers, e.key).toContain(e.permission);
      } else {
        expect(STANDALONE_PATHS, e.key).toContain(e.path);
      }
    }
  });

  it('puts every path under its family prefix', () => {
    for (const e of CATALOG.filter((x) => x.path)) {
      const ok = e.path.startsWith(`${FAMILY_PREFIX[e.family]}/`) || (e.family === 'single' && STANDALONE_PATHS.includes(e.path));
      expect(ok, `${e.key} ${e.path}`).toBe(true);
    }
  });

  it('holds every path of the product screens', () => {
    const have = new Map(CATALOG.filter((e) => e.path).map((e) => [e.path, e]));
    for (const [family, paths] of Object.entries(SPEC_PATHS)) {
      for (const p of paths) {
        expect(have.has(p), p).toBe(true);
        if (family !== 'always') expect(have.get(p)?.family, p).toBe(family);
      }
    }
  });

  it('gives every family top groups with pages below them', () => {
    for (const f of CATALOG_FAMILIES) {
      const entries = catalogFor(f);
      expect(entries.length, f).toBeGreaterThan(0);
      const groups = entries.filter((e) => e.kind === 'group');
      expect(groups.length, f).toBeGreaterThan(0);
      for (const g of groups) expect(entries.some((e) => e.parent === g.key && e.kind === 'page'), g.key).toBe(true);
      expect(routeEntries(f).every((e) => e.kind !== 'group' && e.family === f)).toBe(true);
      expect(routeEntries(f).length).toBe(entries.length - groups.length);
    }
  });

  it('has unique, well-formed button codes', () => {
    const codes: string[] = [];
    for (const e of CATALOG) {
      for (const b of e.buttons) {
        codes.push(b.permission);
        expect(b.permission).toBe(`${e.key.replaceAll('.', ':')}:${b.action}`);
        expect(b.permission).toMatch(/^(admin|k12|gx|single|personal):[A-Za-z0-9]+:[A-Za-z0-9]+:[A-Za-z0-9]+$/);
        expect(b.i18nKey).toBe(`button.${b.action}`);
        expect(b.name).toBe(BUTTON_ACTIONS[b.action]);
      }
    }
    expect(new Set(codes).size).toBe(codes.length);
    const views = CATALOG.filter((e) => e.kind === 'page').map((e) => e.permission);
    expect(codes.filter((c) => views.includes(c))).toEqual([]);
  });

  it('names every entry and button in every locale of namespace menus', () => {
    for (const lng of LOCALES) {
      const keys = localeKeys(lng);
      for (const e of CATALOG) expect(keys.has(e.i18nKey), `${lng} ${e.i18nKey}`).toBe(true);
      for (const a of Object.keys(BUTTON_ACTIONS)) expect(keys.has(`button.${a}`), `${lng} button.${a}`).toBe(true);
    }
    const zh = JSON.parse(readFileSync(join(import.meta.dirname, '../../../locales/zh_cn/menus.json'), 'utf8')) as Record<string, Record<string, string>>;
    for (const e of CATALOG) {
      const [a, b] = e.i18nKey.split('.');
      expect(zh[a][b], e.key).toBe(e.name);
    }
  });

  it('maps organisation types to families', () => {
    expect(familyOfOrgType(10)).toBe('admin');
    expect(familyOfOrgType(21)).toBe('k12');
    expect(familyOfOrgType(22)).toBe('gx');
    expect(familyOfOrgType(30)).toBeNull();
  });

  it('finds the entry of a concrete pathname', () => {
    expect(findCatalogEntry('/k12/org/class')?.key).toBe('k12.org.class');
    expect(findCatalogEntry('/k12/user/teacher/edit/42')?.key).toBe('k12.user.teacher.edit');
    expect(findCatalogEntry('/k12/user/teacher/add')?.key).toBe('k12.user.teacher.add');
    expect(findCatalogEntry('/k12/user/teacher/add/')?.key).toBe('k12.user.teacher.add');
    expect(findCatalogEntry('/k12/sportsMeet/detail/7')?.key).toBe('k12.sportsMeet.manage.detail');
    expect(findCatalogEntry('/k12/sportsMeet/detail/arrange/7')?.key).toBe('k12.sportsMeet.manage.arrange');
    expect(findCatalogEntry('/gx/org/class/edit/c-9?tab=1')?.key).toBe('gx.org.class.edit');
    expect(findCatalogEntry('/single/sportsMeet/score/screen/3')?.key).toBe('single.sportsMeet.score.screen');
    expect(findCatalogEntry('/single/sportsMeet/score/3')?.key).toBe('single.sportsMeet.score.entry');
    expect(findCatalogEntry('/myInfo/base')?.key).toBe('personal.myInfo.base');
    expect(findCatalogEntry('/scoreReportK12')?.key).toBe('single.scoreReportK12');
    expect(findCatalogEntry('/k12/nowhere')).toBeUndefined();
    expect(findCatalogEntry('/')).toBeUndefined();
    // Every catalogue path matches itself with its params filled in.
    for (const e of CATALOG.filter((x) => x.path)) {
      expect(findCatalogEntry(e.path.replace(/:\w+/g, 'x1'))?.key, e.path).toBe(e.key);
    }
  });
});
