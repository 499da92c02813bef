import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { enumFilter, flagFilter, formBoolean, missingAsNull, nullableId, optionalDay, optionalId, optionalText, requiredId, semesterFilter, uuid } from '@/domain/fields';

/** The shared zod primitives (src/domain/fields.ts): what a form's blank, a missing field and a bad value become. */

const ID = '0b5c9a3e-1f2d-4c5b-8a6e-7d8c9b0a1e2f';
const messageOf = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;

describe('id primitives', () => {
  it('uuid takes any uuid, names its message for a malformed one and the generic one for a missing one', () => {
    expect(uuid().parse(ID)).toBe(ID);
    expect(uuid().parse('00000000-0000-0000-0000-000000000001')).toBe('00000000-0000-0000-0000-000000000001');
    expect(messageOf(uuid('x:bad'), 'nope')).toBe('x:bad');
    expect(messageOf(uuid('x:bad'), undefined)).toBe('validation:common.required');
  });

  it('requiredId answers its message for a missing id as well', () => {
    expect(messageOf(requiredId('x:pick'), undefined)).toBe('x:pick');
    expect(messageOf(requiredId('x:pick'), 'nope')).toBe('x:pick');
  });

  it('optionalId reads blank as none; nullableId reads blank as cleared (null) and missing as not sent', () => {
    expect(optionalId().parse('  ')).toBeUndefined();
    expect(optionalId().parse(ID)).toBe(ID);
    expect(messageOf(optionalId(), 'nope')).toBe('validation:common.id');
    expect(nullableId().parse('')).toBeNull();
    expect(nullableId().parse(null)).toBeNull();
    expect(nullableId().parse(undefined)).toBeUndefined();
  });
});

describe('text, enum, flag, day and semester primitives', () => {
  it('optionalText trims, clears on blank and refuses an overlong text with its message', () => {
    const text = optionalText(3, 'x:long');
    expect(text.parse(' ab ')).toBe('ab');
    expect(text.parse('   ')).toBeNull();
    expect(text.parse(undefined)).toBeUndefined();
    expect(messageOf(text, 'abcd')).toBe('x:long');
  });

  it('missingAsNull reads a field not sent as none too', () => {
    expect(missingAsNull(undefined)).toBeNull();
    expect(missingAsNull(' ')).toBeNull();
    expect(missingAsNull('a')).toBe('a');
  });

  it('enumFilter: blank is no filter, a value outside the enum answers its message', () => {
    const f = enumFilter(['on', 'off'], 'x:state');
    expect(f.parse('')).toBeUndefined();
    expect(f.parse('on')).toBe('on');
    expect(messageOf(f, 'maybe')).toBe('x:state');
  });

  it('flagFilter and formBoolean read the words a form and a query send', () => {
    const flag = flagFilter('x:flag');
    expect([flag.parse('true'), flag.parse('1'), flag.parse('false'), flag.parse('0'), flag.parse('')]).toEqual([true, true, false, false, undefined]);
    expect(messageOf(flag, 'yes')).toBe('x:flag');
    expect([formBoolean.parse('true'), formBoolean.parse('false'), formBoolean.parse(true)]).toEqual([true, false, true]);
  });

  it('optionalDay takes a real day only; semesterFilter 11 or 13, typed or sent', () => {
    expect(optionalDay().parse('')).toBeUndefined();
    expect(messageOf(optionalDay('x:day'), '2026-02-30')).toBe('x:day');
    expect(semesterFilter('x:sem').parse('13')).toBe(13);
    expect(semesterFilter('x:sem').parse(11)).toBe(11);
    expect(semesterFilter('x:sem').parse(' ')).toBeUndefined();
    expect(messageOf(semesterFilter('x:sem'), '12')).toBe('x:sem');
  });
});
