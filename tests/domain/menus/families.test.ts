import { describe, expect, expectTypeOf, it } from 'vitest';
import { FAMILIES, servedBy, type Family, type SchoolFamily, type ServedBy } from '@/domain/menus/access';
import { CATALOG, screenIdOf } from '@/domain/menus/catalog';

describe('the families a screen serves, from the catalogue (docs/product-rules.md#families)', () => {
  it('are the role families whose catalogue has the screen id, in FAMILIES order', () => {
    expect(servedBy('org.class')).toEqual(['k12', 'gx']);
    expect(servedBy('org.college')).toEqual(['gx']);
    expect(servedBy('homework.homeworkManagement')).toEqual(['admin', 'k12']);
    expect(servedBy('homework.homeworkManagement.add')).toEqual(['k12']);
    expect(servedBy('user.role')).toEqual(FAMILIES);
    // Several screens: the families with any of them (admin and k12 name their lesson-resource pages differently).
    expect(servedBy('lesson.lessonResource', 'lesson.resourceLibrary')).toEqual(['admin', 'k12']);
  });

  it('agree with every role-family entry of the catalogue', () => {
    for (const entry of CATALOG) {
      if (entry.kind === 'group' || !(FAMILIES as readonly string[]).includes(entry.family)) continue;
      expect(servedBy(screenIdOf(entry.key) as Parameters<typeof servedBy>[0])).toContain(entry.family);
    }
  });

  it('are known to the compiler, so a narrower family type is derived, not written by hand', () => {
    expectTypeOf<ServedBy<'org.class'>>().toEqualTypeOf<SchoolFamily>();
    expectTypeOf<ServedBy<'homework.homeworkManagement'>>().toEqualTypeOf<'admin' | 'k12'>();
    expectTypeOf<ServedBy<'user.role'>>().toEqualTypeOf<Family>();
    expectTypeOf(servedBy('venue.device')).toEqualTypeOf<SchoolFamily[]>();
  });

  it('name a screen by its key without the family', () => {
    expect(screenIdOf('gx.org.class.edit')).toBe('org.class.edit');
    expect(screenIdOf('single.menuManagement')).toBe('menuManagement');
  });
});
