import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { TokenData } from '@/domain/auth/types';
import { localDate } from '@/domain/dates';
import type { InboxNotice, InboxRow, NoticeDetail, NoticeReceipts, NoticeRow } from '@/domain/notices/notices';
import { auditLogs } from '../../../server/db/schema/audit';
import { memberships, users } from '../../../server/db/schema/auth';
import { parentStudents, parents, students } from '../../../server/db/schema/school';
import { sha256Hex } from '../../../server/lib/password';
import { DEMO_PASSWORD } from '../../../server/seed/demo';
import { createTestApp, type TestApp } from '../../support/server-app';
import { contentClient } from '../content/content-fixtures';
import { padded, PDF_HEAD } from '../files/fixtures';

/** Notices a school also addresses to its students' parents, read in the app (docs/product-rules.md#notices). */
let t: TestApp;
let c: ReturnType<typeof contentClient>;
let token: string;
/** The administrator of the parent's child's school, its publishing path, and another school's administrator. */
let school: string;
let path: string;
let other: string;
let otherPath: string;

const dayOf = (offset: number) => localDate(new Date(t.clock.now().getTime() + offset * 86_400_000));
const notice = (extra: Record<string, unknown> = {}) => ({
  title: '家长会通知',
  content: '<p>本周五下午召开家长会。</p>',
  audience: 'staff',
  toParents: true,
  schoolIds: [],
  attachmentIds: [],
  pinned: false,
  published: true,
  showFrom: dayOf(0),
  showUntil: null,
  ...extra,
});
const app = (url: string) => t.request({ method: 'GET', url: `/api/v1/app/${url}`, token });
const appIds = async () => {
  const res = await app('notices?size=80');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<Page<InboxRow>>>().data.records.map((r) => r.id);
};

beforeAll(async () => {
  t = await createTestApp();
  c = contentClient(t);
  const [p] = await t.db.select({ account: users.accountNum, parentId: parents.id }).from(parents).innerJoin(users, eq(users.id, parents.userId)).where(isNotNull(parents.userId)).limit(1);
  const kids = await t.db
    .select({ orgId: students.orgId })
    .from(parentStudents)
    .innerJoin(students, eq(students.id, parentStudents.studentId))
    .where(and(eq(parentStudents.parentId, p.parentId), eq(students.enabled, true), eq(students.status, 'studying')));
  const orgOfAccount = async (account: string) =>
    (await t.db.select({ orgId: memberships.orgId }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(eq(users.accountNum, account)).limit(1))[0].orgId;
  const accounts = ['school01', 'school02', 'college01'];
  const orgIds = await Promise.all(accounts.map(orgOfAccount));
  const kidOrgs = new Set(kids.map((k) => k.orgId));
  school = accounts.find((_a, i) => kidOrgs.has(orgIds[i]))!;
  other = accounts.find((_a, i) => !kidOrgs.has(orgIds[i]))!;
  expect(school && other).toBeTruthy();
  const family = (a: string) => (a === 'college01' ? 'gx' : 'k12');
  path = `${family(school)}/system/notice`;
  otherPath = `${family(other)}/system/notice`;
  const login = await t.app.inject({ method: 'POST', url: '/api/v1/app/login', payload: { account: p.account, password: sha256Hex(DEMO_PASSWORD) } });
  token = login.json<Envelope<TokenData>>().data.access_token;
});
afterAll(() => t?.close());

describe('notices to parents', () => {
  it('a parent reads the school’s notices also addressed to parents, within their window, pinned first; never staff-only ones, drafts or another school’s', async () => {
    const post = (account: string, at: string, extra: Record<string, unknown>) => c.data<NoticeDetail>(c.call('POST', at, account, notice(extra)));
    const toParents = await post(school, path, { title: '给家长' });
    const pinned = await post(school, path, { title: '置顶给家长', pinned: true, showFrom: dayOf(-3) });
    const staffOnly = await post(school, path, { title: '只给教职工', toParents: false });
    const draft = await post(school, path, { title: '草稿', published: false });
    const later = await post(school, path, { title: '明天起', showFrom: dayOf(1) });
    const ended = await post(school, path, { title: '已结束', showFrom: dayOf(-5), showUntil: dayOf(-1) });
    const elsewhere = await post(other, otherPath, { title: '别的学校给家长' });
    expect(toParents.toParents).toBe(true);
    expect(staffOnly.toParents).toBe(false);

    const ids = await appIds();
    expect(ids).toEqual(expect.arrayContaining([toParents.id, pinned.id]));
    expect(ids.indexOf(pinned.id)).toBeLessThan(ids.indexOf(toParents.id));
    for (const n of [staffOnly, draft, later, ended, elsewhere]) {
      expect(ids).not.toContain(n.id);
      expect((await app(`notices/${n.id}`)).statusCode).toBe(404);
    }
    // The staff still read the staff-only notice in the console.
    const staffInbox = await c.data<Page<InboxRow>>(c.call('GET', 'myInfo/notices/page?size=80', school));
    expect(staffInbox.records.map((r) => r.id)).toContain(staffOnly.id);
  });

  it('a district notice never reaches parents, and a district cannot address one to them', async () => {
    await c.refused(c.call('POST', 'admin/system/notice', 'district01', notice({ audience: 'allSchools', title: '教育局给家长' })), 400, undefined, 'toParents');
    const district = await c.data<NoticeDetail>(c.call('POST', 'admin/system/notice', 'district01', notice({ audience: 'allSchools', toParents: false, title: '教育局通知' })));
    expect(await appIds()).not.toContain(district.id);
    expect((await app(`notices/${district.id}`)).statusCode).toBe(404);
  });

  it('opening marks it read once; the publisher’s receipts count the parents as their own group', async () => {
    const n = await c.data<NoticeDetail>(c.call('POST', path, school, notice({ title: '运动会家长须知' })));
    const before = await c.data<NoticeReceipts>(c.call('GET', `${path}/${n.id}/receipts`, school));
    expect(before.parents!.audienceSize).toBeGreaterThan(0);
    expect(before.parents!.readCount).toBe(0);
    expect((await appIds()).length).toBeGreaterThan(0);
    const listed = async () => (await app('notices?size=80')).json<Envelope<Page<InboxRow>>>().data.records.find((r) => r.id === n.id)!;
    expect((await listed()).read).toBe(false);

    const opened = await app(`notices/${n.id}`);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json<Envelope<InboxNotice>>().data.content).toContain('家长会');
    await app(`notices/${n.id}`);
    expect((await listed()).read).toBe(true);
    const unreadOnly = (await app('notices?size=80&unread=true')).json<Envelope<Page<InboxRow>>>().data.records.map((r) => r.id);
    expect(unreadOnly).not.toContain(n.id);

    const after = await c.data<NoticeReceipts>(c.call('GET', `${path}/${n.id}/receipts`, school));
    expect(after.parents).toEqual({ audienceSize: before.parents!.audienceSize, readCount: 1 });
    // The staff's counts are the staff's alone.
    expect(after.orgs.reduce((s, o) => s + o.readCount, 0)).toBe(0);
    const row = (await c.data<Page<NoticeRow>>(c.call('GET', `${path}/page?size=80`, school))).records.find((r) => r.id === n.id)!;
    expect(row.readCount).toBe(0);
    const audited = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'notice'), eq(auditLogs.entityId, n.id), eq(auditLogs.action, 'read')));
    expect(audited).toHaveLength(1);
    // A staff-only notice's receipts have no parents' group.
    const staffOnly = await c.data<NoticeDetail>(c.call('POST', path, school, notice({ title: '教职工会', toParents: false })));
    expect((await c.data<NoticeReceipts>(c.call('GET', `${path}/${staffOnly.id}/receipts`, school))).parents).toBeNull();
  });

  it('a parent fetches a notice’s attachment through the notice only', async () => {
    const file = (await c.upload(school, 'attachment', '家长须知.pdf', padded(PDF_HEAD, 2048))).id;
    const n = await c.data<NoticeDetail>(c.call('POST', path, school, notice({ title: '带附件', attachmentIds: [file] })));
    const got = await app(`notices/${n.id}/files/${file}`);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toContain('application/pdf');
    const staffOnly = await c.data<NoticeDetail>(c.call('POST', path, school, notice({ title: '附件只给教职工', toParents: false, attachmentIds: [file] })));
    expect((await app(`notices/${staffOnly.id}/files/${file}`)).statusCode).toBe(404);
    const plain = await c.data<NoticeDetail>(c.call('POST', path, school, notice({ title: '无附件' })));
    expect((await app(`notices/${plain.id}/files/${file}`)).statusCode).toBe(404);
  });

  it('is described in the app API’s OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, { description?: string; security?: unknown }>> }>();
    expect(doc.paths['/api/v1/app/notices'].get.description).toContain('parents');
    expect(doc.paths['/api/v1/app/notices/{id}'].get.description).toContain('404');
    expect(doc.paths['/api/v1/app/notices/{id}/files/{fileId}'].get).toBeDefined();
    expect(doc.paths['/api/v1/app/notices'].get.security).toEqual([{ app: [] }]);
  });
});
