import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { DictionaryAnswer, DictionaryEntry } from '@/domain/dictionaries/dictionaries';
import type { VenueRow } from '@/domain/venue/venues';
import { auditLogs } from '../../../server/db/schema/audit';
import { dictionaryEntries } from '../../../server/db/schema/dictionaries';
import { venues } from '../../../server/db/schema/venue';
import { createTestApp, type TestApp } from '../../support/server-app';

// docs/product-rules.md#dictionaries
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const entry = (code: string, extra: Record<string, unknown> = {}) => ({ dictionary: 'venueType', code, labelZhCn: `${code}场`, labelZhTw: '', labelEnUs: `${code} ground`, sort: 1, enabled: true, ...extra });
const codesOf = async (account: string, dictionary = 'venueType') => {
  const res = await t.as(account).get<DictionaryAnswer>(`/api/busi/web/dictionaries/${dictionary}`);
  expect(res.status).toBe(200);
  return res.body.data.entries.map((e) => e.code);
};
const add = async (account: string, family: string, body: Record<string, unknown>) => t.as(account).post<DictionaryEntry>(`/api/busi/web/${family}/system/dictionary`, body);

describe('dictionaries: scope', () => {
  it("a school's entry is seen by it and not by another school; a district's entry by its schools", async () => {
    const own = await add('school01', 'k12', entry('climbing'));
    expect(own.status).toBe(200);
    const district = await add('district01', 'admin', entry('skating'));
    expect(district.status).toBe(200);

    const school01 = await codesOf('school01');
    expect(school01).toEqual(expect.arrayContaining(['track', 'other', 'climbing', 'skating']));
    const school02 = await codesOf('school02');
    expect(school02).toContain('skating');
    expect(school02).not.toContain('climbing');
    expect(await codesOf('district01')).not.toContain('climbing');

    // The screen's list marks where each entry comes from.
    const list = (await t.as('school01').get<Page<DictionaryEntry>>('/api/busi/web/k12/system/dictionary/page?dictionary=venueType&size=80')).body.data.records;
    expect(list.find((e) => e.code === 'track')?.origin).toBe('platform');
    expect(list.find((e) => e.code === 'skating')?.origin).toBe('inherited');
    expect(list.find((e) => e.code === 'climbing')).toMatchObject({ origin: 'own', labels: { zh_cn: 'climbing场', en_us: 'climbing ground' } });
    // Platform dictionaries answer the domain's code lists to any signed-in user.
    expect(await codesOf('teacher01', 'deviceKind')).toEqual(['terminal', 'band', 'hub']);
    expect((await codesOf('teacher01', 'nation')).slice(0, 2)).toEqual(['01', '02']);
  });

  it("a venue form accepts the school's own type and its district's; another school's type is refused on its field", async () => {
    const mine = await t.as('school01').post<VenueRow>('/api/busi/web/k12/place', { name: '攀岩墙', type: 'climbing', code: '71' });
    expect(mine.status).toBe(200);
    expect(mine.body.data.type).toBe('climbing');
    expect((await t.as('school02').post('/api/busi/web/k12/place', { name: '冰场', type: 'skating', code: '72' })).status).toBe(200);
    const refused = await t.as('school02').post<{ field?: string }>('/api/busi/web/k12/place', { name: '攀岩', type: 'climbing', code: '73' });
    expect(refused.status).toBe(400);
    expect(refused.body.data).toMatchObject({ field: 'type' });
    expect(refused.body.msg).toBe('请选择字典中启用的项');
    // Another school's entry is not there at all for it.
    const [climbing] = await t.db.select().from(dictionaryEntries).where(eq(dictionaryEntries.code, 'climbing'));
    expect((await t.as('school02').get(`/api/busi/web/k12/system/dictionary/${climbing.id}`)).status).toBe(404);
    expect((await t.as('school02').delete(`/api/busi/web/k12/system/dictionary/${climbing.id}`)).status).toBe(404);
    // The venue list filters by the own type.
    const page = (await t.as('school01').get<Page<VenueRow>>('/api/busi/web/k12/place/page?type=climbing')).body.data;
    expect(page.records.map((v) => v.name)).toEqual(['攀岩墙']);
  });
});

describe('dictionaries: who may edit', () => {
  it('without the page button 403, nothing written', async () => {
    const before = await t.db.$count(dictionaryEntries);
    expect((await add('teacher01', 'k12', entry('judo'))).status).toBe(403);
    expect(await t.db.$count(dictionaryEntries)).toBe(before);
  });

  it('a platform entry or dictionary is refused with a message; a school cannot edit or delete its district entry', async () => {
    const platformCode = await add('school01', 'k12', entry('track'));
    expect(platformCode.status).toBe(400);
    expect(platformCode.body.msg).toBe('该编码是平台字典项，平台字典项不能修改');
    const platformDict = await add('school01', 'k12', entry('robot', { dictionary: 'deviceKind' }));
    expect(platformDict.status).toBe(400);
    expect(platformDict.body.msg).toBe('平台字典不能增加、修改或删除字典项');
    const en = await t.as('school01', { language: 'en-US' }).post('/api/busi/web/k12/system/dictionary', entry('gym'));
    expect(en.body.msg).toBe('This code is a platform entry, and platform entries cannot be changed');
    // A platform entry has no row to address.
    expect((await t.as('school01').put('/api/busi/web/k12/system/dictionary/platform.venueType.track', { ...entry('x'), version: 1 })).status).toBe(404);

    const [skating] = await t.db.select().from(dictionaryEntries).where(eq(dictionaryEntries.code, 'skating'));
    const edit = await t.as('school01').put(`/api/busi/web/k12/system/dictionary/${skating.id}`, { labelZhCn: '改名', labelZhTw: '', labelEnUs: '', sort: 1, enabled: true, version: skating.version });
    expect(edit.status).toBe(403);
    expect(edit.body.msg).toContain('本单位不能修改或删除');
    expect((await t.as('school01').delete(`/api/busi/web/k12/system/dictionary/${skating.id}`)).status).toBe(403);
    // A code taken above or below is refused too.
    expect((await add('school01', 'k12', entry('skating'))).status).toBe(400);
    expect((await add('district01', 'admin', entry('climbing'))).status).toBe(400);
    const [row] = await t.db.select().from(dictionaryEntries).where(eq(dictionaryEntries.id, skating.id));
    expect(row.labelZhCn).toBe('skating场');
  });

  it('an own entry is edited with its version (a stale save 409) and audited; an entry in use is not deleted but disabled', async () => {
    const [climbing] = await t.db.select().from(dictionaryEntries).where(eq(dictionaryEntries.code, 'climbing'));
    const url = `/api/busi/web/k12/system/dictionary/${climbing.id}`;
    const body = { labelZhCn: '攀岩', labelZhTw: '攀岩', labelEnUs: 'Climbing', sort: 5, enabled: false, version: climbing.version };
    expect((await t.as('school01').put(url, body)).status).toBe(200);
    expect((await t.as('school01').put(url, { ...body, labelZhCn: '旧表单' })).status).toBe(409);
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'dictionaryEntry'), eq(auditLogs.entityId, climbing.id)))).toBe(2);

    const removed = await t.as('school01').delete(url);
    expect(removed.status).toBe(409);
    expect(removed.body.msg).toBe('该字典项已被1条场地使用，不能删除；可改为停用');
    expect(await t.db.$count(dictionaryEntries, eq(dictionaryEntries.id, climbing.id))).toBe(1);

    // Disabled: no longer offered to a new venue, still valid on the venue that has it.
    expect(await codesOf('school01')).toContain('climbing');
    expect((await t.as('school01').post('/api/busi/web/k12/place', { name: '新攀岩', type: 'climbing', code: '74' })).status).toBe(400);
    const [venue] = await t.db.select().from(venues).where(eq(venues.name, '攀岩墙'));
    expect((await t.as('school01').put(`/api/busi/web/k12/place/${venue.id}`, { name: '攀岩墙二', type: 'climbing', code: '71', version: venue.version })).status).toBe(200);

    // Unused: deleted, with its audit row.
    const spare = await add('school01', 'k12', entry('archery'));
    expect((await t.as('school01').delete(`/api/busi/web/k12/system/dictionary/${spare.body.data.id}`)).status).toBe(200);
    expect(await t.db.$count(dictionaryEntries, eq(dictionaryEntries.code, 'archery'))).toBe(0);
  });
});
