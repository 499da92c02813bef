import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTIONS,
  AUDIT_ENTITIES,
  AUDIT_FIELDS,
  auditFieldChanges,
  auditObjectName,
  isAuditAction,
  isAuditEntity,
} from '@/domain/platform/audit';

const ROOT = join(__dirname, '../../..');
const LOCALES = ['zh_cn', 'zh_tw', 'en_us'] as const;
const platform = (locale: string) => JSON.parse(readFileSync(join(ROOT, 'locales', locale, 'platform.json'), 'utf8')) as { audit: Record<string, Record<string, string>> };

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every action and record type the server code writes to audit_logs, found the way a reviewer would grep for them. */
function writtenCodes() {
  const actions = new Set<string>();
  const entities = new Set<string>();
  for (const file of sources(join(ROOT, 'server'))) {
    const text = readFileSync(file, 'utf8');
    // audit(tx, actor, { action: 'create', entity: 'class', … })
    for (const call of text.matchAll(/\baudit\([\w.]+, [\w.]+, \{([^]*?)\}\);/g)) {
      for (const m of call[1].matchAll(/\baction: '(\w+)'/g)) actions.add(m[1]);
      for (const m of call[1].matchAll(/\bentity: '(\w+)'/g)) entities.add(m[1]);
    }
    // A resource's declaration names the entity its create/update/delete rows carry.
    for (const m of text.matchAll(/\b(?:registerResource|resourceRoutes|accountRoutes|appAccountRoutes)\([^]{0,300}?\bentity: '(\w+)'/g)) entities.add(m[1]);
    // The action may be a choice: request.body.published ? 'publish' : 'unpublish'.
    const words = (expr: string) => [...expr.matchAll(/'(\w+)'/g)].map((w) => w[1]);
    // An action or linked-records declaration: { entity: 'meet', audit: 'end' }, or a choice: audit: (i) => (… ? 'publish' : 'unpublish').
    for (const m of text.matchAll(/\b(?:resourceAction|registerLinked)\([^]{0,600}?\bentity: '(\w+)'/g)) entities.add(m[1]);
    for (const m of text.matchAll(/\baudit: '(\w+)'/g)) actions.add(m[1]);
    for (const m of text.matchAll(/\baudit: \([^)]*\) =>([^\n]+)/g)) for (const w of words(m[1])) actions.add(w);
    // Raw SQL: insert into audit_logs (…, action, entity, …) values (…, 'import', 'student', …)
    for (const m of text.matchAll(/insert into audit_logs \(([^)]*)\)\s*(?:values \(|select )([^)]*)/g)) {
      const columns = m[1].split(',').map((c) => c.trim());
      const values = m[2].split(',').map((v) => v.trim());
      const literal = (column: string) => /^'(\w+)'$/.exec(values[columns.indexOf(column)] ?? '')?.[1];
      const action = literal('action');
      const entity = literal('entity');
      if (action) actions.add(action);
      if (entity) entities.add(entity);
    }
  }
  return { actions, entities };
}

describe('operation log words (src/domain/platform/audit.ts)', () => {
  it('lists every action and record type the server writes', () => {
    const { actions, entities } = writtenCodes();
    // The search itself finds what it should (a broken pattern would pass vacuously).
    expect(actions).toEqual(expect.objectContaining({ size: expect.any(Number) }));
    expect([...actions]).toEqual(expect.arrayContaining(['create', 'update', 'delete', 'move', 'issue', 'addPhotos', 'draw', 'publish']));
    expect([...entities]).toEqual(expect.arrayContaining(['class', 'banner', 'wiki', 'meetCertificate', 'student']));
    expect([...actions].filter((a) => !isAuditAction(a))).toEqual([]);
    expect([...entities].filter((e) => !isAuditEntity(e))).toEqual([]);
  });

  it.each(LOCALES)('labels every action, record type and field in %s', (locale) => {
    const { audit } = platform(locale);
    const missing = (group: string, codes: readonly string[]) => codes.filter((c) => typeof audit?.[group]?.[c] !== 'string' || !audit[group][c].trim());
    expect(missing('action', AUDIT_ACTIONS)).toEqual([]);
    expect(missing('entity', AUDIT_ENTITIES)).toEqual([]);
    expect(missing('field', AUDIT_FIELDS)).toEqual([]);
    // No stale labels of codes no longer written.
    expect(Object.keys(audit.action).sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(Object.keys(audit.entity).sort()).toEqual([...AUDIT_ENTITIES].sort());
  });

  it('says the codes of the issue in Chinese words', () => {
    const { audit } = platform('zh_cn');
    expect([audit.action.create, audit.action.move, audit.action.issue, audit.action.addPhotos]).toEqual(['新增', '调整顺序', '颁发证书', '上传照片']);
    expect([audit.entity.banner, audit.entity.wiki, audit.entity.meetCertificate]).toEqual(['轮播图', '百科词条', '奖状模板']);
  });
});

describe('the record a log row is about', () => {
  const id = '3f2b6c1e-0000-4000-8000-000000000001';
  it('takes the name or title of the record itself, after before before', () => {
    expect(auditObjectName(id, { id, name: '一年级1班' }, { id, name: '一年级一班' })).toBe('一年级一班');
    expect(auditObjectName(id, { id, title: '校运会' }, null)).toBe('校运会');
    expect(auditObjectName(id, null, { id, serialNo: 'SN-001' })).toBe('SN-001');
  });
  it("does not take another record's name (a team written under its meet)", () => {
    expect(auditObjectName(id, null, { id: 'team-1', name: '一班接力队' })).toBeNull();
    expect(auditObjectName(null, null, { id, name: 'x' })).toBeNull();
    expect(auditObjectName(id, null, ['file-1'])).toBeNull();
  });
});

describe('the fields of a logged change', () => {
  it('puts changed fields first, leaves out the row id and organisation, keeps unchanged ones after', () => {
    const rows = auditFieldChanges(
      { id: 'x', orgId: 'o', name: '一年级1班', sortNum: 1, enabled: true },
      { id: 'x', orgId: 'o', name: '一年级一班', sortNum: 1, enabled: false },
    );
    expect(rows).toEqual([
      { field: 'name', before: '一年级1班', after: '一年级一班', changed: true },
      { field: 'enabled', before: true, after: false, changed: true },
      { field: 'sortNum', before: 1, after: 1, changed: false },
    ]);
  });
  it('shows a value that is not a record as one row', () => {
    expect(auditFieldChanges(null, ['f1', 'f2'])).toEqual([{ field: '', before: null, after: ['f1', 'f2'], changed: true }]);
    expect(auditFieldChanges(null, null)).toEqual([]);
  });
});
