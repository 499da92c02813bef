import { beforeEach, describe, expect, it } from 'vitest';
import { closeOthers, closeRight, closeTab, loadPrefs, loadTabs, MAX_TABS, neighbourOf, openTab, savePrefs, saveTabs, tabScope, type PageTab } from '@/components/layout/tab-state';
import { k12UInfo } from '../../app/fake-api';

const HOME = '/k12/dataCenter/school';
const keys = (tabs: PageTab[]) => tabs.map((t) => t.key);

function three(): PageTab[] {
  let tabs: PageTab[] = [];
  for (const url of ['/k12/org/class?name=一班', '/k12/user/student?current=2', '/k12/org/grade']) tabs = openTab(tabs, url, HOME);
  return tabs;
}

beforeEach(() => localStorage.clear());

describe('tab bar state (docs/product-rules.md#tab-bar)', () => {
  it('opens a page as a tab after the fixed landing tab; the same page again keeps one tab with its latest URL', () => {
    let tabs = three();
    expect(keys(tabs)).toEqual([HOME, '/k12/org/class', '/k12/user/student', '/k12/org/grade']);
    tabs = openTab(tabs, '/k12/org/class?name=二班&current=3', HOME);
    expect(keys(tabs)).toHaveLength(4);
    expect(tabs[1]).toEqual({ key: '/k12/org/class', url: '/k12/org/class?name=二班&current=3' });
  });

  it('closes one tab, the others, or those to the right; the fixed tab never closes', () => {
    const tabs = three();
    expect(keys(closeTab(tabs, '/k12/user/student', HOME))).toEqual([HOME, '/k12/org/class', '/k12/org/grade']);
    expect(keys(closeTab(tabs, HOME, HOME))).toEqual(keys(tabs));
    expect(keys(closeOthers(tabs, '/k12/user/student', HOME))).toEqual([HOME, '/k12/user/student']);
    expect(keys(closeRight(tabs, '/k12/org/class', HOME))).toEqual([HOME, '/k12/org/class']);
    expect(keys(closeRight(tabs, HOME, HOME))).toEqual([HOME]);
    // The closed active tab hands over to its right neighbour, else its left.
    expect(neighbourOf(tabs, '/k12/user/student')?.key).toBe('/k12/org/grade');
    expect(neighbourOf(tabs, '/k12/org/grade')?.key).toBe('/k12/user/student');
  });

  it('keeps at most MAX_TABS tabs, dropping the oldest closable one', () => {
    let tabs: PageTab[] = [];
    for (let i = 0; i <= MAX_TABS; i++) tabs = openTab(tabs, `/k12/p${i}`, HOME);
    expect(tabs).toHaveLength(MAX_TABS);
    expect(tabs[0].key).toBe(HOME);
    expect(keys(tabs)).not.toContain('/k12/p0');
    expect(keys(tabs)).toContain(`/k12/p${MAX_TABS}`);
  });

  it('stores the tabs per account, organisation and role: another account on this browser sees none of them', () => {
    const teacher = tabScope(k12UInfo())!;
    saveTabs(teacher, three());
    expect(loadTabs(teacher)).toEqual(three());
    const other = k12UInfo({ userId: 'u2' });
    expect(loadTabs(tabScope(other)!)).toEqual([]);
    // The same user in another role has its own tabs.
    const info = k12UInfo();
    info.accounts[0].roles[0] = { ...info.accounts[0].roles[0], roleId: 'r2' };
    expect(tabScope(info)).not.toBe(teacher);
    expect(loadTabs(tabScope(info)!)).toEqual([]);
    // Damaged storage opens no tabs rather than failing.
    localStorage.setItem(`tiyu.tabs.${teacher}`, '{not json');
    expect(loadTabs(teacher)).toEqual([]);
  });

  it('keeps the tab bar on by default, and the choice per user', () => {
    expect(loadPrefs('u1')).toEqual({ tabs: true, idleLockMinutes: 0 });
    savePrefs('u1', { tabs: false, idleLockMinutes: 15 });
    expect(loadPrefs('u1')).toEqual({ tabs: false, idleLockMinutes: 15 });
    expect(loadPrefs('u2').tabs).toBe(true);
  });
});
