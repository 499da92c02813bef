import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contestLevelSchema, contestSaveSchema } from '@/domain/contests/contests';
import { homeworkSaveSchema, taskItemSchema } from '@/domain/homework/homework';
import { trainingSaveSchema } from '@/domain/training/training';
import { requiredNumber } from '@/domain/fields';
import { staffCreateSchema } from '@/domain/people/staff';
import { schoolYearSaveSchema } from '@/domain/school/school-years';
import { userCreateSchema } from '@/domain/users/users';

/** Each field says what is wrong with it (docs/product-rules.md#error-messages): the message of `path`, or undefined. */
function messageAt(schema: z.ZodType, input: unknown, path: string): string | undefined {
  return schema.safeParse(input).error?.issues.find((i) => i.path.join('.') === path)?.message;
}

const task = { name: '跳绳', cycle: 'daily', startDate: '2026-12-01', endDate: '2026-12-10' };

describe('number fields typed in a form', () => {
  it('an empty or non-numeric 目标值 asks for the target, in homework and special training', () => {
    for (const target of ['', '  ', null, undefined, 'abc', NaN]) {
      const item = { item: 'rope1min', target, intensity: 'medium' };
      expect(messageAt(taskItemSchema, item, 'target'), String(target)).toBe('activities:task.targetRequired');
      expect(messageAt(homeworkSaveSchema, { ...task, classIds: [crypto.randomUUID()], items: [item] }, 'items.0.target')).toBe('activities:task.targetRequired');
      expect(messageAt(trainingSaveSchema, { ...task, studentIds: [crypto.randomUUID()], items: [item] }, 'items.0.target')).toBe('activities:task.targetRequired');
    }
    expect(taskItemSchema.parse({ item: 'rope1min', target: ' 120 ', intensity: 'low' }).target).toBe(120);
  });

  it('an empty 达标成绩 of a challenge level is missing, not 0', () => {
    expect(messageAt(contestLevelSchema, { name: '第 1 关', threshold: '' }, 'threshold')).toBe('contests:validation.threshold');
    const challenge = { type: 'challenge', name: '闯关', startDate: '2026-12-01', endDate: '2026-12-10', items: ['ropeFree'], passLevels: 1 };
    expect(messageAt(contestSaveSchema, { ...challenge, levels: [{ name: '第 1 关', threshold: '' }] }, 'levels.0.threshold')).toBe('contests:validation.threshold');
    expect(contestSaveSchema.safeParse({ ...challenge, levels: [{ name: '第 1 关', threshold: '0' }] }).success).toBe(true);
  });

  it('requiredNumber tells a blank from a wrong value', () => {
    const n = requiredNumber('k:required', 'k:invalid');
    expect(n.safeParse('').error?.issues[0].message).toBe('k:required');
    expect(n.safeParse('abc').error?.issues[0].message).toBe('k:invalid');
    expect(n.safeParse(Infinity).error?.issues[0].message).toBe('k:invalid');
    expect(n.parse('8.5')).toBe(8.5);
  });
});

describe('required text fields', () => {
  it('an empty 学年 asks for it; a malformed one names the format', () => {
    expect(messageAt(schoolYearSaveSchema, { academicYear: '' }, 'academicYear')).toBe('validation:schoolYear.required');
    expect(messageAt(schoolYearSaveSchema, { academicYear: '   ' }, 'academicYear')).toBe('validation:schoolYear.required');
    expect(messageAt(schoolYearSaveSchema, {}, 'academicYear')).toBe('validation:schoolYear.required');
    expect(messageAt(schoolYearSaveSchema, { academicYear: '2026' }, 'academicYear')).toBe('validation:schoolYear.format');
  });

  it('an empty 初始密码 of a new teacher or user asks for the initial password, not a new one', () => {
    for (const password of ['', undefined]) {
      expect(messageAt(staffCreateSchema, { password }, 'password')).toBe('validation:password.initialRequired');
      expect(messageAt(userCreateSchema, { password }, 'password')).toBe('validation:password.initialRequired');
    }
    expect(messageAt(staffCreateSchema, { password: 'ab1' }, 'password')).toBe('validation:password.length');
  });
});
