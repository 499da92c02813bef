import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '@/domain/constants';

type Tree = { [k: string]: string | Tree };
const load = (lng: string, ns: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../locales', lng, `${ns}.json`), 'utf8')) as Tree;

/** docs/architecture.md "One name per concept": a screen is called in the menu what its page calls itself. */
describe('one name per screen', () => {
  for (const lng of LOCALES) {
    it(`${lng}: the own organisation page is named alike in every family's menu and on the page`, () => {
      const menu = load(lng, 'menu');
      const page = load(lng, 'orgManage').currentOrg as Tree;
      for (const family of ['admin', 'k12', 'gx'] as const) {
        const entries = menu[family] as Tree;
        expect(entries.org_currentOrg, family).toBe(page.title);
        expect(entries.org_currentOrg_edit, family).toBe(page.editTitle);
      }
    });
  }
});
