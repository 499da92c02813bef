import { describe, expect, it } from 'vitest';
import { maskIdNumber, maskMobile } from '@/domain/people/mask';

describe('maskMobile', () => {
  it('hides the middle four digits of a mainland mobile', () => {
    expect(maskMobile('13812345678')).toBe('138****5678');
  });
  it('keeps empty values as they are', () => {
    expect(maskMobile(null)).toBeNull();
    expect(maskMobile(undefined)).toBeNull();
    expect(maskMobile('')).toBe('');
  });
  it('shows at most the last four characters of a short or odd number', () => {
    expect(maskMobile('5551234')).toBe('***1234');
    expect(maskMobile('123')).toBe('***');
    expect(maskMobile('+8613812345678')).toBe('+86*******5678');
  });
});

describe('maskIdNumber', () => {
  it('hides all but the first and last character of a resident ID (region and birth date hidden)', () => {
    const masked = maskIdNumber('32011519900101123X')!;
    expect(masked).toBe('3****************X');
    expect(masked).toHaveLength(18);
    expect(masked).not.toContain('1990');
  });
  it('masks certificate numbers the same way', () => {
    expect(maskIdNumber('E12345678')).toBe('E*******8');
    expect(maskIdNumber('H1')).toBe('**');
  });
  it('keeps empty values as they are', () => {
    expect(maskIdNumber(null)).toBeNull();
    expect(maskIdNumber('')).toBe('');
  });
});
