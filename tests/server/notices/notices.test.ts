import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import { localDate } from '@/domain/dates';
import type { TodoSummary } from '@/domain/messages/messages';
import type { InboxNotice, InboxRow, NoticeDetail, NoticeReceipts, NoticeRow, NoticeSchool } from '@/domain/notices/notices';
import { auditLogs } from '../../../server/db/schema/audit';
import { noticeOrgs } from '../../../server/db/schema/notices';
import { orgs } from '../../../server/db/schema/orgs';
import { createTestApp, type TestApp } from '../../support/server-app';
import { orgOf } from '../../support/factories';
import { contentClient } from '../content/content-fixtures';
import { padded, PDF_HEAD } from '../files/fixtures';

let t: TestApp;
let c: ReturnType<typeof contentClient>;
let school01: string;
let school02: string;
let foreignSchool: string;

const district = 'admin/system/notice';
const k12 = 'k12/system/notice';
const inbox = 'myInfo/notices';
const dayOf = (offset: number) => localDate(new Date(t.clock.now().getTime() + offset * 86_400_000));
const notice = (extra: Record<string, unknown> = {}) => ({
  title: '关于开展冬季长跑的通知',
  content: '<p>各学校：请于本周内组织冬季长跑。</p>',
  audience: 'allSchools',
  schoolIds: [],
  attachmentIds: [],
  pinned: false,
  published: true,
  showFrom: dayOf(0),
  showUntil: null,
  ...extra,
});
const inboxIds = async (account: string) => (await c.data<Page<InboxRow>>(c.call('GET', `${inbox}/page?size=80`, account))).records.map((r) => r.id);
const unread = async (account: string) => (await c.data<{ unread: number }>(c.call('GET', `${inbox}/unread-count`, account))).unread;

beforeAll(async () => {
  t = await createTestApp();
  c = contentClient(t);
  school01 = (await orgOf(t, 'school01')).orgId;
  school02 = (await orgOf(t, 'school02')).orgId;
  // Another district with a school of its own: never reached by district01's notices.
  const [other] = await t.db.insert(orgs).values({ type: ORG_TYPE.management, code: '98', name: '另一教育局' }).returning({ id: orgs.id });
  const [school] = await t.db.insert(orgs).values({ type: ORG_TYPE.k12, code: '01', name: '另一区的学校', parentId: other.id }).returning({ id: orgs.id });
  foreignSchool = school.id;
});
afterAll(async () => {
  await t?.close();
});

describe('notices', () => {
  it('a district notice reaches its schools (all, or the chosen ones) and never another district’s', async () => {
    const schools = await c.data<NoticeSchool[]>(c.call('GET', `${district}/schools`, 'district01'));
    expect(schools.map((s) => s.id)).toEqual(expect.arrayContaining([school01, school02]));
    expect(schools.map((s) => s.id)).not.toContain(foreignSchool);

    const all = await c.data<NoticeDetail>(c.call('POST', district, 'district01', notice()));
    const reached = (await t.db.select({ orgId: noticeOrgs.orgId }).from(noticeOrgs).where(eq(noticeOrgs.noticeId, all.id))).map((r) => r.orgId);
    expect(reached).toEqual(expect.arrayContaining([school01, school02]));
    expect(reached).not.toContain(foreignSchool);
    expect(await inboxIds('school01')).toContain(all.id);
    expect(await inboxIds('teacher01')).toContain(all.id);
    expect(await inboxIds('school02')).toContain(all.id);
    // The district's own accounts are its publishers, not its readers.
    expect(await inboxIds('district01')).not.toContain(all.id);

    const chosen = await c.data<NoticeDetail>(c.call('POST', district, 'district01', notice({ title: '只发东山', audience: 'chosenSchools', schoolIds: [school02] })));
    expect(chosen.schoolIds).toEqual([school02]);
    expect(await inboxIds('school02')).toContain(chosen.id);
    expect(await inboxIds('school01')).not.toContain(chosen.id);

    // Another district's school cannot be chosen; nothing is saved.
    await c.refused(c.call('POST', district, 'district01', notice({ title: '越权', audience: 'chosenSchools', schoolIds: [foreignSchool] })), 400, '只能发给本单位所属的学校', 'schoolIds');
    await c.refused(c.call('POST', district, 'district01', notice({ audience: 'chosenSchools', schoolIds: [] })), 400, '请选择接收学校', 'schoolIds');
    // A school publishes to its own staff only.
    await c.refused(c.call('POST', k12, 'school01', notice({ audience: 'allSchools' })), 400, '请选择发布对象', 'audience');
  });

  it('readers see a published notice only inside its window; a draft never', async () => {
    const draft = await c.data<NoticeDetail>(c.call('POST', district, 'district01', notice({ title: '草稿', published: false })));
    const later = await c.data<NoticeDetail>(c.call('POST', district, 'district01', notice({ title: '明天起', showFrom: dayOf(1) })));
    const ended = await c.data<NoticeDetail>(c.call('POST', district, 'district01', notice({ title: '已结束', showFrom: dayOf(-10), showUntil: dayOf(-1) })));
    const today = await c.data<NoticeDetail>(c.call('POST', district, 'district01', notice({ title: '今天最后一天', showFrom: dayOf(-3), showUntil: dayOf(0) })));
    const ids = await inboxIds('teacher01');
    expect(ids).toContain(today.id);
    for (const hidden of [draft, later, ended]) {
      expect(ids).not.toContain(hidden.id);
      await c.refused(c.call('GET', `${inbox}/${hidden.id}`, 'teacher01'), 404);
      await c.refused(c.call('POST', `${inbox}/${hidden.id}/read`, 'teacher01'), 404);
    }
    const rows = (await c.data<Page<NoticeRow>>(c.call('GET', `${district}/page?size=80`, 'district01'))).records;
    const state = (id: string) => rows.find((r) => r.id === id)?.state;
    expect([state(draft.id), state(later.id), state(ended.id), state(today.id)]).toEqual(['draft', 'scheduled', 'ended', 'showing']);
    await c.refused(c.call('POST', district, 'district01', notice({ showFrom: dayOf(2), showUntil: dayOf(1) })), 400, '结束日期不能早于开始日期', 'showUntil');
  });

  it('counts a read once per person and names who has not read it yet, per school', async () => {
    const n = await c.data<NoticeDetail>(c.call('POST', district, 'district01', notice({ title: '回执测试', pinned: true })));
    const before = await c.data<NoticeReceipts>(c.call('GET', `${district}/${n.id}/receipts`, 'district01'));
    const s1 = before.orgs.find((o) => o.orgId === school01)!;
    expect(s1.readCount).toBe(0);
    expect(s1.audienceSize).toBeGreaterThanOrEqual(2);
    expect(before.unread.map((p) => p.account)).toEqual(expect.arrayContaining(['teacher01', 'school01', 'school02']));
    // A person in two reached schools is one reader: counted in each school, once in the total.
    expect(before.unreadTotal).toBeLessThanOrEqual(before.orgs.reduce((sum, o) => sum + o.audienceSize, 0));

    const unreadBefore = await unread('teacher01');
    // The header bell's to-do: the unread notices, as the inbox filtered to them counts them.
    const noticeTodo = async () => (await c.data<TodoSummary>(c.call('GET', 'todos', 'teacher01'))).items.find((i) => i.kind === 'unreadNotices');
    expect(await noticeTodo()).toMatchObject({ count: unreadBefore, to: '/myInfo/messages?unread=true' });
    // Pinned and unread first in the inbox.
    const first = (await c.data<Page<InboxRow>>(c.call('GET', `${inbox}/page`, 'teacher01'))).records[0];
    expect(first).toMatchObject({ id: n.id, pinned: true, read: false });
    const opened = await c.data<InboxNotice>(c.call('GET', `${inbox}/${n.id}`, 'teacher01'));
    expect(opened.content).toContain('冬季长跑');
    await c.data(c.call('POST', `${inbox}/${n.id}/read`, 'teacher01'));
    await c.data(c.call('POST', `${inbox}/${n.id}/read`, 'teacher01'));
    expect(await unread('teacher01')).toBe(unreadBefore - 1);
    expect((await noticeTodo())?.count ?? 0).toBe(unreadBefore - 1);
    expect((await c.data<Page<InboxRow>>(c.call('GET', `${inbox}/page?unread=true&size=80`, 'teacher01'))).records.map((r) => r.id)).not.toContain(n.id);

    const after = await c.data<NoticeReceipts>(c.call('GET', `${district}/${n.id}/receipts`, 'district01'));
    expect(after.orgs.find((o) => o.orgId === school01)!.readCount).toBe(1);
    expect(after.orgs.find((o) => o.orgId === school02)!.readCount).toBe(0);
    expect(after.read.map((p) => p.name)).toHaveLength(1);
    expect(after.unread.map((p) => p.account)).not.toContain('teacher01');
    expect(after.unread.map((p) => p.account)).toEqual(expect.arrayContaining(['school01', 'school02']));
    expect(after.unreadTotal).toBe(before.unreadTotal - 1);
    const row = (await c.data<Page<NoticeRow>>(c.call('GET', `${district}/page?size=80`, 'district01'))).records.find((r) => r.id === n.id)!;
    expect(row.readCount).toBe(1);
    expect(row.audienceSize).toBe(before.unreadTotal);

    // The first read is audited, the second changes nothing.
    const reads = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'notice'), eq(auditLogs.action, 'read'), eq(auditLogs.entityId, n.id)));
    expect(reads).toHaveLength(1);
    const created = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'notice'), eq(auditLogs.action, 'create'), eq(auditLogs.entityId, n.id)));
    expect(created).toHaveLength(1);
  });

  it('keeps each organisation to its own: a school never sees the district’s or another school’s notices and receipts', async () => {
    const own = await c.data<NoticeDetail>(c.call('POST', k12, 'school02', notice({ title: '东山教职工会议', audience: 'staff' })));
    const fromDistrict = await c.data<NoticeDetail>(c.call('POST', district, 'district01', notice({ title: '区通知' })));
    expect(await inboxIds('school02')).toContain(own.id);
    expect(await inboxIds('school01')).not.toContain(own.id);
    expect(await inboxIds('teacher01')).not.toContain(own.id);
    await c.refused(c.call('GET', `${inbox}/${own.id}`, 'teacher01'), 404);
    // The publisher's screens: another organisation's notice is 404, its receipts too.
    await c.refused(c.call('GET', `${k12}/${own.id}`, 'school01'), 404);
    await c.refused(c.call('GET', `${k12}/${own.id}/receipts`, 'school01'), 404);
    await c.refused(c.call('GET', `${k12}/${fromDistrict.id}/receipts`, 'school01'), 404);
    await c.refused(c.call('PUT', `${k12}/${own.id}`, 'school01', notice({ audience: 'staff', version: own.version })), 404);
    await c.refused(c.call('DELETE', `${k12}/${own.id}`, 'school01'), 404);
    expect((await c.data<Page<NoticeRow>>(c.call('GET', `${k12}/page?size=80`, 'school01'))).records.map((r) => r.id)).not.toContain(own.id);
    // The school's own receipts name its staff only.
    const receipts = await c.data<NoticeReceipts>(c.call('GET', `${k12}/${own.id}/receipts`, 'school02'));
    expect(receipts.orgs.map((o) => o.orgId)).toEqual([school02]);
    expect(receipts.unread.map((p) => p.account)).not.toContain('teacher01');
  });

  it('refuses a stale form and keeps the newer save', async () => {
    const n = await c.data<NoticeDetail>(c.call('POST', k12, 'school01', notice({ audience: 'staff', title: '原标题' })));
    const saved = await c.data<NoticeDetail>(c.call('PUT', `${k12}/${n.id}`, 'school01', notice({ audience: 'staff', title: '新标题', version: n.version })));
    expect(saved.title).toBe('新标题');
    await c.refused(c.call('PUT', `${k12}/${n.id}`, 'school01', notice({ audience: 'staff', title: '过期的表单', version: n.version })), 409);
    expect((await c.data<NoticeDetail>(c.call('GET', `${k12}/${n.id}`, 'school01'))).title).toBe('新标题');
  });

  it('strips scripts from the text as the wiki does, and lets readers fetch the attachments through the notice only', async () => {
    const file = (await c.upload('district01', 'attachment', '长跑安排.pdf', padded(PDF_HEAD, 2048))).id;
    const n = await c.data<NoticeDetail>(
      c.call('POST', district, 'district01', notice({ title: '带附件', content: '<p onclick="alert(1)">安排</p><script>alert(1)</script><a href="javascript:alert(1)">x</a>', attachmentIds: [file] })),
    );
    expect(n.content).toContain('安排');
    expect(n.content).not.toMatch(/<script|onclick|javascript:/i);
    expect(n.attachments.map((a) => a.name)).toEqual(['长跑安排.pdf']);
    const shown = await c.data<InboxNotice>(c.call('GET', `${inbox}/${n.id}`, 'teacher01'));
    expect(shown.content).not.toMatch(/<script|onclick|javascript:/i);
    expect(shown.attachments.map((a) => a.id)).toEqual([file]);
    // The school cannot read the district's file from the store, but can through the notice addressed to it.
    await c.refused(c.call('GET', `/api/uc/oss/files/${file}/content`, 'teacher01'), 404);
    const got = await c.call('GET', `${inbox}/${n.id}/files/${file}`, 'teacher01');
    expect(got.status).toBe(200);
    expect(got.res.headers['content-type']).toContain('application/pdf');
    // Not through another notice, and not for a school the notice does not reach.
    const other = await c.data<NoticeDetail>(c.call('POST', district, 'district01', notice({ title: '无附件' })));
    await c.refused(c.call('GET', `${inbox}/${other.id}/files/${file}`, 'teacher01'), 404);
    const onlyEast = await c.data<NoticeDetail>(c.call('POST', district, 'district01', notice({ title: '只发东山', audience: 'chosenSchools', schoolIds: [school02], attachmentIds: [file] })));
    await c.refused(c.call('GET', `${inbox}/${onlyEast.id}/files/${file}`, 'teacher01'), 404);
    // An attachment must be the publisher's own file.
    const schoolFile = (await c.upload('school01', 'attachment', 'x.pdf', padded(PDF_HEAD, 2048))).id;
    await c.refused(c.call('POST', district, 'district01', notice({ attachmentIds: [schoolFile] })), 400, undefined, 'attachmentIds');
  });
});
