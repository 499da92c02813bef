import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListSettingsEntry } from '@/domain/list-settings/list-settings';
import { users } from '../../../server/db/schema/auth';
import { listSettings } from '../../../server/db/schema/list-settings';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const BASE = '/api/busi/web/listSettings';
const KEY = 'k12.user.student:list';
const settings = { hidden: ['studentNo'], order: ['name', 'regNo', 'className', 'studentNo'], pinStart: ['name'], pinEnd: [], density: 'compact' };

describe('list settings', () => {
  it('refuses a caller who is not signed in', async () => {
    expect((await t.request({ url: BASE })).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: `${BASE}/save`, payload: { listKey: KEY, settings } })).statusCode).toBe(401);
  });

  it('saves, reads back and resets one list of the caller', async () => {
    const me = t.as('teacher01');
    const saved = await me.post<ListSettingsEntry>(`${BASE}/save`, { listKey: KEY, settings });
    expect(saved.status).toBe(200);
    const mine = await me.get<ListSettingsEntry[]>(BASE);
    expect(mine.body.data).toEqual([expect.objectContaining({ listKey: KEY, settings })]);
    // A second save of the same list replaces the first.
    await me.post(`${BASE}/save`, { listKey: KEY, settings: { ...settings, hidden: [], density: 'loose' } });
    expect((await me.get<ListSettingsEntry[]>(BASE)).body.data.map((e) => [e.listKey, e.settings.density, e.settings.hidden])).toEqual([[KEY, 'loose', []]]);
    expect((await me.post(`${BASE}/reset`, { listKey: KEY })).status).toBe(200);
    expect((await me.get<ListSettingsEntry[]>(BASE)).body.data).toEqual([]);
  });

  it('one user never reads or resets another’s settings', async () => {
    await t.as('school01').post(`${BASE}/save`, { listKey: KEY, settings });
    expect((await t.as('teacher01').get<ListSettingsEntry[]>(BASE)).body.data).toEqual([]);
    // A reset by another user resets only that user's own row (there is none): the first user's settings stay.
    await t.as('teacher01').post(`${BASE}/reset`, { listKey: KEY });
    expect((await t.as('school01').get<ListSettingsEntry[]>(BASE)).body.data.map((e) => e.settings)).toEqual([settings]);
  });

  it.each([
    ['a density that is not one of the three', { listKey: KEY, settings: { ...settings, density: 'huge' } }, '行高只能是紧凑、默认或宽松'],
    ['a list key that is no page key and list id', { listKey: 'student list', settings }, '列表标识不正确'],
    ['settings that are not an object', { listKey: KEY, settings: 'hidden=all' }, '列设置格式不正确'],
  ])('refuses %s with a translated message and keeps what was saved', async (_case, body, message) => {
    const me = t.as('college01');
    await me.post(`${BASE}/save`, { listKey: KEY, settings });
    const res = await me.post(`${BASE}/save`, body);
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain(message);
    expect((await me.get<ListSettingsEntry[]>(BASE)).body.data.map((e) => e.settings)).toEqual([settings]);
  });

  it('answers the refusal in the caller’s language', async () => {
    const res = await t.as('college01', { language: 'en-US' }).post(`${BASE}/save`, { listKey: KEY, settings: { ...settings, density: 'huge' } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('Density must be compact, default or loose');
  });

  it('keeps column ids it does not know, and reads a stored row of an older shape without failing', async () => {
    const me = t.as('district01');
    // A column renamed since: its id is stored as sent, and the list ignores it when it applies the settings.
    const withGone = { ...settings, hidden: ['goneColumn', 'studentNo'] };
    expect((await me.post(`${BASE}/save`, { listKey: KEY, settings: withGone })).status).toBe(200);
    const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.accountNum, 'district01'));
    await t.db
      .update(listSettings)
      .set({ settings: { hidden: 'studentNo', order: ['name', 7], density: 'tiny', extra: true } })
      .where(and(eq(listSettings.userId, user.id), eq(listSettings.listKey, KEY)));
    const read = await me.get<ListSettingsEntry[]>(BASE);
    expect(read.status).toBe(200);
    expect(read.body.data[0].settings).toEqual({ hidden: [], order: [], pinStart: [], pinEnd: [], density: 'default' });
  });
});
