import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '@/domain/constants';

const root = join(import.meta.dirname, '../../locales');
type Tree = { [k: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const load = (lng: string, ns: string) => flatten(JSON.parse(readFileSync(join(root, lng, `${ns}.json`), 'utf8')) as Tree);
const namespaces = (lng: string) => readdirSync(join(root, lng)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('locales', () => {
  it('every locale has the same namespaces', () => {
    for (const lng of LOCALES) expect(namespaces(lng), lng).toEqual(namespaces('zh_cn'));
  });

  for (const ns of namespaces('zh_cn')) {
    it(`${ns}: same keys and placeholders in zh_cn, zh_tw, en_us`, () => {
      const source = load('zh_cn', ns);
      for (const lng of LOCALES) {
        const other = load(lng, ns);
        expect([...other.keys()].sort(), `${lng}/${ns} keys`).toEqual([...source.keys()].sort());
        for (const [key, text] of source) {
          expect(text.trim(), `${lng}/${ns}:${key} is empty`).not.toBe('');
          expect(placeholders(other.get(key) ?? ''), `${lng}/${ns}:${key} placeholders`).toEqual(placeholders(text));
        }
      }
    });
  }

  it('every literal "ns:key" used in src/ and server/ exists in zh_cn', () => {
    const known = new Map(namespaces('zh_cn').map((ns) => [ns, load('zh_cn', ns)]));
    const missing: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.tsx?$/.test(e.name)) {
          const text = readFileSync(p, 'utf8');
          for (const m of text.matchAll(/['"`]([a-zA-Z]+):([\w.]+)['"`]/g)) {
            const [, ns, key] = m;
            const table = known.get(ns);
            // Plural and context suffixes are resolved by i18next at run time.
            if (table && !table.has(key) && ![...table.keys()].some((k) => k.startsWith(`${key}_`) || k.startsWith(`${key}.`)))
              missing.push(`${p}: ${ns}:${key}`);
          }
        }
      }
    };
    walk(join(import.meta.dirname, '../../src'));
    walk(join(import.meta.dirname, '../../server'));
    expect(missing).toEqual([]);
  });
});
