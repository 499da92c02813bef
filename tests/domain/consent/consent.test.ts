import { describe, expect, it } from 'vitest';
import { maskStudentName, publicStudentName } from '@/domain/consent/consent';

describe('public student names (docs/product-rules.md#consent)', () => {
  it('masks to the surname and one *, keeping a compound surname whole', () => {
    expect(maskStudentName('张明远')).toBe('张*');
    expect(maskStudentName('李华')).toBe('李*');
    expect(maskStudentName('欧阳春晓')).toBe('欧阳*');
    // A two-character name that is only a compound surname's characters keeps one.
    expect(maskStudentName('欧阳')).toBe('欧*');
    expect(maskStudentName(' 王芳 ')).toBe('王*');
  });

  it('shows the full name only with consent and when the school has not chosen the masked form for everyone', () => {
    expect(publicStudentName('张明远', { consented: true, maskAll: false })).toBe('张明远');
    expect(publicStudentName('张明远', { consented: false, maskAll: false })).toBe('张*');
    expect(publicStudentName('张明远', { consented: true, maskAll: true })).toBe('张*');
  });
});
