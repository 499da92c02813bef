import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enumLabel, enumOptions, enumTable, TONES, type EnumTable } from '@/domain/presentation';

/**
 * The enum presentation tables (src/domain/presentation.ts): every table of src/domain names a label that exists in
 * every language, so a select, a cell or a badge never shows a bare key; and the helpers keep the screens' order.
 */

type Tree = { [k: string]: string | Tree };
const LOCALES = ['zh_cn', 'zh_tw', 'en_us'];
const localeRoot = join(import.meta.dirname, '../../../locales');
const locales = new Map(
  LOCALES.map((l) => [
    l,
    new Map<string, Tree>(
      readdirSync(join(localeRoot, l))
        .filter((f) => f.endsWith('.json'))
        .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(localeRoot, l, f), 'utf8')) as Tree]),
    ),
  ]),
);

function translated(locale: string, key: string): string | undefined {
  const m = /^(\w+):([\w.-]+)$/.exec(key);
  if (!m) return undefined;
  let node: string | Tree | undefined = locales.get(locale)!.get(m[1]);
  for (const part of m[2].split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

const modules = import.meta.glob<Record<string, unknown>>('../../../src/domain/**/*.ts', { eager: true });
const isTable = (v: unknown): v is EnumTable =>
  Array.isArray(v) && v.length > 0 && v.every((e) => typeof e === 'object' && e !== null && 'value' in e && 'labelKey' in e && 'tone' in e);
const tables = Object.entries(modules).flatMap(([file, exports]) =>
  Object.entries(exports)
    .filter(([, v]) => isTable(v))
    .map(([name, table]) => ({ name: `${file.replace(/^.*src\/domain\//, '')}: ${name}`, table: table as EnumTable })),
);

describe('enum presentation tables', () => {
  it('are found (the walk sees the tables of the screens)', () => {
    expect(tables.map((t) => t.name.split(': ')[1])).toEqual(expect.arrayContaining(['PLAN_STATUS_TABLE', 'DEVICE_STATUS_TABLE', 'STUDENT_STATUS_TABLE', 'GENDER_TABLE']));
  });

  it.each(tables)('$name: every label exists in zh_cn, zh_tw and en_us, every tone is a tone, no value twice', ({ table }) => {
    for (const entry of table) {
      for (const locale of LOCALES) expect(translated(locale, entry.labelKey), `${locale} ${entry.labelKey}`).toBeTypeOf('string');
      expect(TONES).toContain(entry.tone);
    }
    expect(new Set(table.map((e) => e.value)).size).toBe(table.length);
  });
});

describe('enum presentation helpers', () => {
  const table = enumTable(['a', 'b', 'c'] as const, (v) => `ns:${v}`, { a: 'success' });
  const t = (key: string) => key.toUpperCase();

  it('options list every value in the table order, or the given values in their order', () => {
    expect(enumOptions(table, t)).toEqual([
      { value: 'a', label: 'NS:A' },
      { value: 'b', label: 'NS:B' },
      { value: 'c', label: 'NS:C' },
    ]);
    expect(enumOptions(table, t, ['c', 'a', 'zz'])).toEqual([
      { value: 'c', label: 'NS:C' },
      { value: 'a', label: 'NS:A' },
    ]);
  });

  it('a tone left out is neutral; a value the table does not know shows as it is', () => {
    expect(table.map((e) => e.tone)).toEqual(['success', 'neutral', 'neutral']);
    expect(enumLabel(table, 'b', t)).toBe('NS:B');
    expect(enumLabel(table, 'new', t)).toBe('new');
  });
});
