import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * Every message a domain schema can answer is an i18n key of locales/zh_cn (`ns:path.to.key`), never zod's English
 * default (docs/product-rules.md#error-messages; an empty 目标值 once said "Invalid input: expected number, received
 * NaN"). The walk feeds each exported schema empty input and, field by field (into arrays of objects too), blank and
 * wrong-typed values, the way a form or a hand-made request would, and checks every issue's message.
 */

type Tree = { [k: string]: string | Tree };
const localeRoot = join(import.meta.dirname, '../../../locales/zh_cn');
const namespaces = new Map<string, Tree>(
  readdirSync(localeRoot)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(localeRoot, f), 'utf8')) as Tree]),
);

function isTranslatedKey(message: string): boolean {
  const m = /^(\w+):([\w.-]+)$/.exec(message);
  if (!m) return false;
  let node: string | Tree | undefined = namespaces.get(m[1]);
  for (const part of m[2].split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string';
}

const modules = import.meta.glob<Record<string, unknown>>('../../../src/domain/**/*.ts', { eager: true });

const isSchema = (v: unknown): v is z.ZodType => v instanceof z.ZodType;

/** The object (or union of objects) a schema validates, through pipes, preprocessors, defaults and wrappers. */
function objectShapes(schema: z.ZodType, depth = 0): Record<string, z.ZodType>[] {
  if (depth > 8) return [];
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  switch (def.type) {
    case 'object':
      return [(schema as z.ZodObject).shape];
    case 'pipe':
      return [...objectShapes(def.in as z.ZodType, depth + 1), ...objectShapes(def.out as z.ZodType, depth + 1)];
    case 'union':
      return (def.options as z.ZodType[]).flatMap((o) => objectShapes(o, depth + 1));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      return objectShapes(def.innerType as z.ZodType, depth + 1);
    default:
      return [];
  }
}

/** The element schema of an array field (through its wrappers), to walk nested rows. */
function arrayElement(schema: z.ZodType, depth = 0): z.ZodType | undefined {
  if (depth > 8) return undefined;
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  if (def.type === 'array') return def.element as z.ZodType;
  if (def.type === 'pipe') return arrayElement(def.out as z.ZodType, depth + 1) ?? arrayElement(def.in as z.ZodType, depth + 1);
  if (def.innerType) return arrayElement(def.innerType as z.ZodType, depth + 1);
  return undefined;
}

const WRONG: unknown[] = [undefined, null, '', '   ', 'abc', NaN, Infinity, -1, 0, 1.5, 1e12, true, [], {}, [''], '2026-13-45', 'x'.repeat(5000)];

/** Inputs for one schema: empty, and each field blank or wrong-typed (and each row of an array field the same). */
function inputs(schema: z.ZodType, depth = 0): unknown[] {
  const out: unknown[] = [{}, undefined, null, '', 'abc', NaN, []];
  if (depth > 2) return out;
  for (const shape of objectShapes(schema)) {
    for (const [field, fieldSchema] of Object.entries(shape)) {
      for (const v of WRONG) out.push({ [field]: v });
      const element = arrayElement(fieldSchema);
      if (element) for (const row of inputs(element, depth + 1)) out.push({ [field]: [row] });
    }
  }
  return out;
}

const show = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : x === undefined ? '<undefined>' : x))?.slice(0, 120);

const schemas = Object.entries(modules)
  .flatMap(([file, exports]) => Object.entries(exports).filter(([, v]) => isSchema(v)).map(([name, v]) => ({ file: file.replace(/^.*src\/domain\//, ''), name, schema: v as z.ZodType })))
  .sort((a, b) => `${a.file}:${a.name}`.localeCompare(`${b.file}:${b.name}`));

/** Relative imports of a domain module (its graph), to check each schema module installs the error map. */
const domainRoot = resolve(import.meta.dirname, '../../../src/domain');
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import) '(\.[^']+)'/g)]
    .map((m) => resolve(dirname(file), m[1]))
    .flatMap((p) => [`${p}.ts`, join(p, 'index.ts')].filter((c) => existsSync(c)));
}
function reachesFields(file: string, seen = new Set<string>()): boolean {
  if (file === join(domainRoot, 'fields.ts')) return true;
  if (seen.has(file)) return false;
  seen.add(file);
  return importsOf(file).some((f) => reachesFields(f, seen));
}

describe('domain schemas answer only translated keys', () => {
  it('every module that builds a zod schema installs the error map (imports fields.ts, maybe through others)', () => {
    const files = readdirSync(domainRoot, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => join(domainRoot, f));
    const missing = files.filter((f) => /import \{[^}]*\bz\b[^}]*\} from 'zod'/.test(readFileSync(f, 'utf8')) && !reachesFields(f)).map((f) => relative(domainRoot, f));
    expect(missing).toEqual([]);
  });

  it('finds the schemas (the walk is not empty)', () => {
    expect(schemas.length).toBeGreaterThan(100);
  });

  for (const { file, name, schema } of schemas) {
    it(`${file}: ${name}`, () => {
      const bad: string[] = [];
      for (const input of inputs(schema)) {
        let result: z.ZodSafeParseResult<unknown>;
        try {
          result = schema.safeParse(input);
        } catch (error) {
          bad.push(`${show(input)} threw ${String(error)}`);
          continue;
        }
        for (const issue of result.error?.issues ?? []) {
          if (!isTranslatedKey(issue.message)) bad.push(`${show(input)} → ${issue.path.join('.') || '(root)'}: ${issue.message}`);
        }
      }
      expect([...new Set(bad)]).toEqual([]);
    });
  }
});
