import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE } from '@/domain/constants';

const root = join(import.meta.dirname, '../..');
type Tree = { [k: string]: string | Tree };

const namespaces = readdirSync(join(root, 'locales', DEFAULT_LOCALE))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5));
const source = new Map(namespaces.map((ns) => [ns, JSON.parse(readFileSync(join(root, 'locales', DEFAULT_LOCALE, `${ns}.json`), 'utf8')) as Tree]));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'migrations' ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(d.name) ? [path] : [];
  });
}

/**
 * A text at `key` (or its plural forms: i18next looks up `key_one`, `key_other`… when given a count), or a subtree there
 * (a prefix the code completes, `${V}.nameRequired`).
 */
function exists(tree: Tree, key: string): boolean {
  const parts = key.split('.');
  const last = parts.pop()!;
  let node: string | Tree | undefined = tree;
  for (const p of parts) node = typeof node === 'object' ? node[p] : undefined;
  if (typeof node !== 'object') return false;
  if (node[last] !== undefined) return true;
  return Object.keys(node).some((k) => k.startsWith(`${last}_`) && typeof node[k] === 'string');
}

/**
 * Every 'ns:dotted.key' written whole in quotes (zod messages, server replies, enum tables, t() calls) names a text of
 * the source language, so a key moved between namespaces or renamed cannot leave a screen or a reply showing the raw
 * key. Template literals and keys put together at run time are not checked here; the parity test keeps the languages
 * alike.
 */
describe('keys written in the code exist', () => {
  const literal = new RegExp(`(['"])(${namespaces.join('|')}):([A-Za-z0-9_]+(?:\\.[A-Za-z0-9_]+)*)\\1`, 'g');
  for (const dir of ['src', 'server']) {
    it(`${dir}: every 'ns:key' literal is a ${DEFAULT_LOCALE} text or subtree`, () => {
      const missing: string[] = [];
      let seen = 0;
      for (const file of sourceFiles(join(root, dir))) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(literal)) {
          seen++;
          if (!exists(source.get(m[2])!, m[3])) missing.push(`${relative(root, file)}: ${m[2]}:${m[3]}`);
        }
      }
      expect(seen).toBeGreaterThan(100);
      expect(missing).toEqual([]);
    });
  }
});
