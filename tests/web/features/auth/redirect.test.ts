import { describe, expect, it } from 'vitest';
import { familyOfPath, isForeignFamily, safeRedirect } from '@/features/auth/redirect';

describe('rt redirect target', () => {
  it('accepts same-origin relative paths only', () => {
    expect(safeRedirect('/k12/org/class?x=1')).toBe('/k12/org/class?x=1');
    expect(safeRedirect('/myInfo/base')).toBe('/myInfo/base');
    for (const bad of ['https://evil.example/', '//evil.example', '/\\evil.example', 'javascript:alert(1)', 'k12/org', '', '/', '/?rt=/x', '/a\nb']) {
      expect(safeRedirect(bad), bad).toBeNull();
    }
    expect(safeRedirect(null)).toBeNull();
  });

  it('knows the route family of a path', () => {
    expect(familyOfPath('/k12/org/class')).toBe('k12');
    expect(familyOfPath('/single/sportsMeet')).toBe('single');
    expect(familyOfPath('/myInfo/base')).toBeNull();
    expect(isForeignFamily('/gx/org', '/k12')).toBe(true);
    expect(isForeignFamily('/k12/org', '/k12')).toBe(false);
    expect(isForeignFamily('/single/x', '/k12')).toBe(false);
    expect(isForeignFamily('/menuManagement', '/gx')).toBe(false);
  });
});
