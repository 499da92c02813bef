import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '@/domain/constants';
import { servedBy } from '@/domain/menus/access';
import { gradeNameKey } from '@/domain/school/grade-name';

type Tree = { [k: string]: string | Tree };
const load = (lng: string, ns: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../locales', lng, `${ns}.json`), 'utf8')) as Tree;

/** docs/architecture.md "One name per concept": a screen is called in the menu what its page calls itself. */
describe('one name per screen', () => {
  for (const lng of LOCALES) {
    it(`${lng}: the own organisation page is named alike in every family's menu and on the page`, () => {
      const menu = load(lng, 'menus');
      const page = load(lng, 'orgManage').currentOrg as Tree;
      for (const family of servedBy('org.currentOrg')) {
        const entries = menu[family] as Tree;
        expect(entries.org_currentOrg, family).toBe(page.title);
        expect(entries.org_currentOrg_edit, family).toBe(page.editTitle);
      }
    });
  }
});

/** A grade number has one name on every screen (docs/product-rules.md#grades: Grade 1–12, Freshman–Senior). */
describe('one name per grade', () => {
  const key = (no: number) => gradeNameKey(no).replace('school:', '').split('.');
  const nameIn = (lng: string, no: number) => key(no).reduce<string | Tree>((t, k) => (t as Tree)[k], load(lng, 'school'));
  it('names the grades 一年级…九年级, 高一…高三, 大一…大四 in Chinese and Grade 1–12, Freshman–Senior in English', () => {
    const all = (lng: string) => Array.from({ length: 16 }, (_, i) => nameIn(lng, i + 1));
    expect(all('zh_cn')).toEqual(['一年级', '二年级', '三年级', '四年级', '五年级', '六年级', '七年级', '八年级', '九年级', '高一', '高二', '高三', '大一', '大二', '大三', '大四']);
    expect(all('zh_tw')).toEqual(['一年級', '二年級', '三年級', '四年級', '五年級', '六年級', '七年級', '八年級', '九年級', '高一', '高二', '高三', '大一', '大二', '大三', '大四']);
    expect(all('en_us')).toEqual([...Array.from({ length: 12 }, (_, i) => `Grade ${i + 1}`), 'Freshman', 'Sophomore', 'Junior', 'Senior']);
  });

  it('no other namespace keeps a second list of grade names (the meet picker said 十年级 where the rest said 高一)', () => {
    for (const lng of LOCALES) {
      expect(load(lng, 'meets').gradeNo, lng).toBeUndefined();
      expect(load(lng, 'physique').grade, lng).toBeUndefined();
    }
  });
});
