import { describe, expect, it } from 'vitest';
import { allowsUpdates, changedFields, studentChangeRefusal } from '@/domain/people/import-updates';

describe('import updates (docs/product-rules.md#import-updates)', () => {
  it('updates are allowed only when the upload says so explicitly', () => {
    expect(allowsUpdates({})).toBe(false);
    expect(allowsUpdates({ updateExisting: 'false' })).toBe(false);
    expect(allowsUpdates({ updateExisting: 'yes' })).toBe(false);
    expect(allowsUpdates({ updateExisting: 'true' })).toBe(true);
    expect(allowsUpdates({ updateExisting: '1' })).toBe(true);
  });

  it('lists the changed fields in order, before → after as shown; null and empty are the same', () => {
    const before = { name: '李思颖', gender: 'female', classId: 'c1', studentNo: null };
    const after = { name: '重复学籍', gender: 'male', classId: 'c5', studentNo: '' };
    const names: Record<string, string> = { c1: '一年级1班', c5: '一年级5班' };
    const changes = changedFields(before, after, ['name', 'gender', 'classId', 'studentNo'], (f) => `label:${f}`, (f, v) => (f === 'classId' ? names[String(v)] : f === 'gender' ? (v === 'male' ? '男' : '女') : String(v ?? '')));
    expect(changes).toEqual([
      { field: 'name', label: 'label:name', before: '李思颖', after: '重复学籍' },
      { field: 'gender', label: 'label:gender', before: '女', after: '男' },
      { field: 'classId', label: 'label:classId', before: '一年级1班', after: '一年级5班' },
    ]);
  });
});

describe('student changes (docs/product-rules.md#student-changes)', () => {
  it('refuses a gender change of a student with results only', () => {
    expect(studentChangeRefusal({ gender: 'female' }, { gender: 'male' }, true)).toBe('validation:student.genderHasResults');
    expect(studentChangeRefusal({ gender: 'female' }, { gender: 'male' }, false)).toBeNull();
    expect(studentChangeRefusal({ gender: 'female' }, { gender: 'female' }, true)).toBeNull();
  });
});
