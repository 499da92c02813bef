import { describe, expect, it } from 'vitest';
import { idCardSchema, isResidentIdNumber, normaliseIdNumber } from '@/domain/people/id-card';
import { staffCreateSchema } from '@/domain/people/staff';

describe('resident ID numbers (GB 11643)', () => {
  it('accepts numbers whose check character matches, including X', () => {
    expect(isResidentIdNumber('320115198506120036')).toBe(true);
    // The standard's own example: the check character is X.
    expect(isResidentIdNumber('11010519491231002X')).toBe(true);
    // 29 February of a leap year is a birth date.
    expect(isResidentIdNumber('110101200002290018')).toBe(true);
  });

  it('refuses a mistyped digit, a wrong check character and impossible birth dates', () => {
    expect(isResidentIdNumber('320115198506120037')).toBe(false);
    expect(isResidentIdNumber('320115198506120136')).toBe(false);
    expect(isResidentIdNumber('110105194912310021')).toBe(false);
    // Check character right, but 1999 has no 29 February.
    expect(isResidentIdNumber('110101199902290018')).toBe(false);
    expect(isResidentIdNumber('32011519850612003')).toBe(false);
    expect(isResidentIdNumber('3201151985061200366')).toBe(false);
    expect(isResidentIdNumber('32011519850612003A')).toBe(false);
  });

  it('folds full-width digits, a lower-case x and spaces before checking', () => {
    expect(normaliseIdNumber('１１０１０５ １９４９１２３１ ００２ｘ')).toBe('11010519491231002X');
    expect(idCardSchema.parse('３２０１１５１９８５０６１２００３６')).toBe('320115198506120036');
    expect(idCardSchema.parse('11010519491231002x')).toBe('11010519491231002X');
    expect(idCardSchema.parse('')).toBe('');
    const bad = idCardSchema.safeParse('320115198506120037');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe('validation:people.idCardFormat');
  });

  it('a staff member with a certificate type needs its number, and the other way round', () => {
    const base = { name: '张三', accountNum: 'zhangsan1', roleId: '00000000-0000-4000-8000-000000000001', mobile: '', gender: 'male', workNo: '', idCard: '', photoFileId: '', password: 'Start123' };
    const noNumber = staffCreateSchema.safeParse({ ...base, certificateType: 'passport', certificateNo: '' });
    expect(noNumber.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['certificateNo', 'validation:people.certificateNoRequired']]);
    const noType = staffCreateSchema.safeParse({ ...base, certificateType: '', certificateNo: 'E1234567' });
    expect(noType.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['certificateType', 'validation:people.certificateTypeRequired']]);
    expect(staffCreateSchema.safeParse({ ...base, certificateType: 'passport', certificateNo: 'E1234567' }).success).toBe(true);
  });
});
