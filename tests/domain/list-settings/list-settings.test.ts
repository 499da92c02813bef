import { describe, expect, it } from 'vitest';
import { DEFAULT_LIST_SETTINGS, readListSettings, resolveListSettings, showsDefaultColumns, shownColumns, type ListColumnInfo } from '@/domain/list-settings/list-settings';

const columns: ListColumnInfo[] = [
  { id: 'select', keep: true, fixed: 'start' },
  { id: 'name', keep: true },
  { id: 'code', keep: false },
  { id: 'grade', keep: false },
  { id: 'actions', keep: true, fixed: 'end' },
];

describe('resolveListSettings', () => {
  it('is the list as declared without settings', () => {
    const r = resolveListSettings(columns, DEFAULT_LIST_SETTINGS, ['actions']);
    expect(shownColumns(r)).toEqual(['select', 'name', 'code', 'grade', 'actions']);
    expect(showsDefaultColumns(r, columns)).toBe(true);
  });

  it('ignores unknown ids, never hides a kept column, and places a new column after the one it follows by default', () => {
    const r = resolveListSettings(columns, { ...DEFAULT_LIST_SETTINGS, hidden: ['gone', 'name', 'actions', 'code'], order: ['gone', 'grade', 'name'] }, ['actions']);
    expect(r.visibility).toEqual({ code: false });
    // `code` was not in the saved order: it comes back after `name`, the column before it by default.
    expect(r.order).toEqual(['select', 'grade', 'name', 'code', 'actions']);
    expect(shownColumns(r)).toEqual(['select', 'grade', 'name', 'actions']);
    expect(showsDefaultColumns(r, columns)).toBe(false);
  });

  it('pins the select column with the first column pinned to the start, and keeps the actions pinned at the end', () => {
    const r = resolveListSettings(columns, { ...DEFAULT_LIST_SETTINGS, pinStart: ['grade', 'select'], pinEnd: ['name', 'grade'] }, ['actions']);
    expect(r.pinStart).toEqual(['select', 'grade']);
    expect(r.pinEnd).toEqual(['name', 'actions']);
    expect(shownColumns(r)).toEqual(['select', 'grade', 'code', 'name', 'actions']);
  });
});

describe('readListSettings', () => {
  it('drops what does not parse, field by field', () => {
    expect(readListSettings({ hidden: ['a', 'a', 'b'], order: 'x', density: 'loose', pinStart: [1] })).toEqual({ hidden: ['a', 'b'], order: [], pinStart: [], pinEnd: [], density: 'loose' });
    expect(readListSettings(null)).toEqual(DEFAULT_LIST_SETTINGS);
  });
});
