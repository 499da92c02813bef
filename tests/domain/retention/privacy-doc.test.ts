import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORT_LINK_HOURS } from '@/domain/data-access/data-access';
import { EXPORT_APPROVAL_ROWS } from '@/domain/security/settings';
import { DATA_REQUEST_DEADLINE_DAYS, LOG_MIN_DAYS, RETENTION_CATEGORIES, RETENTION_KEYS, retentionSaveSchema, type RetentionUnit } from '@/domain/retention/retention';

/** docs/privacy.md states the retention constants of src/domain/retention (so the page stays true). */
const doc = readFileSync(join(__dirname, '../../../docs/privacy.md'), 'utf8');
const UNITS: Record<RetentionUnit, [string, string]> = { day: ['day', 'days'], month: ['month', 'months'], year: ['year', 'years'] };
const amount = (unit: RetentionUnit, n: number) => `${n} ${UNITS[unit][n === 1 ? 0 : 1]}`;
/** The schedule table's row of a category: its cells. */
const row = (key: string) => {
  const line = doc.split('\n').find((l) => l.startsWith(`| \`${key}\` |`));
  return line?.split('|').map((c) => c.trim()).slice(1, -1);
};

describe('docs/privacy.md', () => {
  it.each(RETENTION_KEYS)('states the default and bounds of %s as the code has them', (key) => {
    const c = RETENTION_CATEGORIES[key];
    const cells = row(key);
    expect(cells, `a row for ${key}`).toBeDefined();
    expect(cells![1]).toBe(amount(c.unit, c.default));
    expect(cells![2]).toBe(`${c.min}–${c.max} ${UNITS[c.unit][1]}`);
  });

  it('lists no category the code does not have, and the rules it quotes', () => {
    const rows = doc.split('\n').filter((l) => /^\| `[a-zA-Z]+` \|/.test(l)).map((l) => /^\| `([a-zA-Z]+)`/.exec(l)![1]);
    expect(rows).toEqual(RETENTION_KEYS);
    expect(doc).toContain(`at least ${LOG_MIN_DAYS} days`);
    expect(doc).toContain(`within ${DATA_REQUEST_DEADLINE_DAYS} days`);
  });

  it('states the export approval threshold and link lifetime as the code has them', () => {
    expect(doc.replace(/\s+/g, ' ')).toContain(`default ${EXPORT_APPROVAL_ROWS.default} rows, \`EXPORT_APPROVAL_ROWS\``);
    expect(doc.replace(/\s+/g, ' ')).toContain(`within ${EXPORT_LINK_HOURS} hours (\`EXPORT_LINK_HOURS\`)`);
  });

  it('the logs can never be set under their minimum', () => {
    const defaults = Object.fromEntries(RETENTION_KEYS.map((k) => [k, RETENTION_CATEGORIES[k].default]));
    expect(retentionSaveSchema.safeParse({ ...defaults, auditLog: LOG_MIN_DAYS - 1, version: 0 }).success).toBe(false);
    expect(retentionSaveSchema.safeParse({ ...defaults, signInLogs: LOG_MIN_DAYS - 1, version: 0 }).success).toBe(false);
    expect(retentionSaveSchema.safeParse({ ...defaults, version: 0 }).success).toBe(true);
  });
});
