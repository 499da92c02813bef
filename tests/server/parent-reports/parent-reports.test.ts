import { and, asc, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { TokenData } from '@/domain/auth/types';
import { ORG_TYPE } from '@/domain/constants';
import { itemBands, type AppNotificationList, type AppReport, type AppReportRow, type ReportRelease } from '@/domain/parent-reports/parent-reports';
import { auditLogs } from '../../../server/db/schema/audit';
import { users } from '../../../server/db/schema/auth';
import { orgs } from '../../../server/db/schema/orgs';
import { appNotifications } from '../../../server/db/schema/parent-reports';
import { physiqueResults } from '../../../server/db/schema/physique';
import { parentStudents, parents, students } from '../../../server/db/schema/school';
import { testPlans } from '../../../server/db/schema/test-plans';
import { sha256Hex } from '../../../server/lib/password';
import { DEMO_PASSWORD } from '../../../server/seed/demo';
import { createTestApp, type TestApp } from '../../support/server-app';
import zhAdvice from '../../../locales/zh_cn/physiqueAdvice.json';
import enAdvice from '../../../locales/en_us/physiqueAdvice.json';
import twAdvice from '../../../locales/zh_tw/physiqueAdvice.json';

let t: TestApp;
const base = '/api/busi/web/k12/organizeTest/testManage';
/** The K12 school's plans, oldest first: two ended autumn plans and the current one (in progress). */
let plans: { id: string; name: string }[];
let lastEnded: string;
let olderEnded: string;
let current: string;
/** A parent with an app account, its child (tested in both ended plans) and a child of another family of the school. */
let parentAccount: string;
let child: string;
let otherFamilyChild: string;
let otherParentAccount: string;
let studentAccount: string;
let universityAccount: string;

const data = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>().data;
const tokens = new Map<string, string>();
async function appToken(account: string): Promise<string> {
  if (!tokens.has(account)) {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/app/login', payload: { account, password: sha256Hex(DEMO_PASSWORD) } });
    expect(res.statusCode, res.body).toBe(200);
    tokens.set(account, res.json<Envelope<TokenData>>().data.access_token);
  }
  return tokens.get(account)!;
}
const app = async (account: string, method: 'GET' | 'POST', url: string, lang = 'zh-CN') =>
  t.request({ method, url: `/api/v1/app/${url}`, token: await appToken(account), headers: { 'accept-language': lang } });

beforeAll(async () => {
  t = await createTestApp();
  const [k12] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).orderBy(asc(orgs.code)).limit(1);
  // The demo's regular plans, one per school year (its re-test plans are not released).
  plans = await t.db.select({ id: testPlans.id, name: testPlans.name }).from(testPlans).where(and(eq(testPlans.orgId, k12.id), isNull(testPlans.retestOfPlanId))).orderBy(asc(testPlans.startDate));
  [olderEnded, lastEnded, current] = plans.slice(-3).map((p) => p.id);
  const testedIn = async (planId: string) => new Set((await t.db.select({ id: physiqueResults.studentId }).from(physiqueResults).where(and(eq(physiqueResults.planId, planId), eq(physiqueResults.invalid, false)))).map((r) => r.id));
  const [inLast, inOlder] = [await testedIn(lastEnded), await testedIn(olderEnded)];
  const family = await t.db
    .select({ account: users.accountNum, parentId: parents.id, studentId: parentStudents.studentId })
    .from(parents)
    .innerJoin(users, eq(users.id, parents.userId))
    .innerJoin(parentStudents, eq(parentStudents.parentId, parents.id))
    .where(isNotNull(parents.userId))
    .orderBy(asc(users.accountNum));
  const mine = family.find((f) => inLast.has(f.studentId) && inOlder.has(f.studentId))!;
  parentAccount = mine.account;
  child = mine.studentId;
  const other = family.find((f) => f.parentId !== mine.parentId && f.studentId !== child && inLast.has(f.studentId))!;
  otherParentAccount = other.account;
  otherFamilyChild = other.studentId;
  const [own] = await t.db.select({ account: users.accountNum }).from(students).innerJoin(users, eq(users.id, students.userId)).where(eq(students.id, child));
  studentAccount = own.account;
  // A university student with an app account of its own: another school's family.
  const [uni] = await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.university)).limit(1);
  const [uniStudent] = await t.db.select({ id: students.id, name: students.name }).from(students).where(and(eq(students.orgId, uni.id), eq(students.status, 'studying'))).limit(1);
  const [u] = await t.db
    .insert(users)
    .values({ accountNum: 'uniapp001', mobile: '19899990001', name: uniStudent.name, gender: 'male', passwordHash: (await t.db.select({ h: users.passwordHash }).from(users).where(eq(users.accountNum, parentAccount)))[0].h })
    .returning({ id: users.id });
  await t.db.update(students).set({ userId: u.id }).where(eq(students.id, uniStudent.id));
  universityAccount = 'uniapp001';
});

describe('the demo', () => {
  it("released the K12 school's two ended plans with notifications; the tests start from them withdrawn", async () => {
    const released = (await t.as('school01').get<ReportRelease[]>(`${base}/releases`)).body.data.map((r) => r.planId);
    expect(released.sort()).toEqual([olderEnded, lastEnded].sort());
    expect(data<AppNotificationList>(await app(parentAccount, 'GET', 'notifications')).unread).toBeGreaterThan(0);
    for (const id of [olderEnded, lastEnded]) expect((await t.as('school01').post(`${base}/withdraw/${id}`)).status).toBe(200);
  });
});
afterAll(async () => {
  await t?.close();
});

describe('release and withdraw (console, organizeTest/testManage)', () => {
  it('nothing is visible to the app before a release: the list is empty, the report and an unreleased plan are 404', async () => {
    expect(data<AppReportRow[]>(await app(parentAccount, 'GET', 'reports'))).toEqual([]);
    expect((await app(parentAccount, 'GET', `reports/${child}`)).statusCode).toBe(404);
    expect((await app(parentAccount, 'GET', `reports/${child}?planId=${lastEnded}`)).statusCode).toBe(404);
    expect(data<AppNotificationList>(await app(parentAccount, 'GET', 'notifications')).unread).toBe(0);
  });

  it('needs the release button (403) and refuses a plan that has not ended; another school cannot see the plan (404)', async () => {
    // The district's PE researcher reads the plans but holds no release button.
    expect((await t.as('jiaoyan01').post(`/api/busi/web/admin/organizeTest/testManage/release/${lastEnded}`)).status).toBe(403);
    const notEnded = await t.as('school01').post(`${base}/release/${current}`);
    expect(notEnded.status).toBe(409);
    expect(notEnded.body.msg).toContain('还没有结束');
    expect((await t.as('school02').post(`${base}/release/${lastEnded}`)).status).toBe(404);
    expect(await t.db.$count(appNotifications)).toBe(0);
  });

  it('a release is recorded with who and when, audited, and notifies the students and parents in bulk', async () => {
    const res = await t.as('school01').post<ReportRelease>(`${base}/release/${olderEnded}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const released = await t.as('school01').post<ReportRelease>(`${base}/release/${lastEnded}`);
    expect(released.body.data.notified).toBeGreaterThan(0);
    const list = (await t.as('school01').get<ReportRelease[]>(`${base}/releases`)).body.data;
    expect(list.find((r) => r.planId === lastEnded)).toMatchObject({ releasedBy: expect.any(String), releasedAt: t.clock.now().toISOString() });
    // One notification per app account and tested student: the parent and the child's own account each have one.
    const accounts = await t.db.select({ userId: appNotifications.userId }).from(appNotifications).where(eq(appNotifications.planId, lastEnded));
    expect(accounts.length).toBe(released.body.data.notified);
    const audit = await t.db.select({ action: auditLogs.action }).from(auditLogs).where(and(eq(auditLogs.entity, 'testPlan'), eq(auditLogs.entityId, lastEnded)));
    expect(audit.map((a) => a.action).sort()).toEqual(['publish', 'unpublish']); // the demo's withdrawal, then this release
    // Twice is refused and writes nothing more.
    expect((await t.as('school01').post(`${base}/release/${lastEnded}`)).status).toBe(409);
    expect((await t.db.select({ id: appNotifications.id }).from(appNotifications).where(eq(appNotifications.planId, lastEnded))).length).toBe(accounts.length);
  });

  it("the parent's notifications: newest first, words in the account's language, unread count, marked read once", async () => {
    const zh = data<AppNotificationList>(await app(parentAccount, 'GET', 'notifications'));
    expect(zh.unread).toBe(2);
    expect(zh.records.map((n) => n.planId)).toEqual(expect.arrayContaining([lastEnded, olderEnded]));
    expect(zh.records[0].title).toBe('体质健康报告已发布');
    const en = data<AppNotificationList>(await app(parentAccount, 'GET', 'notifications', 'en-US'));
    expect(en.records[0].title).toBe('Physique report released');
    const read = await app(parentAccount, 'POST', `notifications/${zh.records[0].id}/read`);
    expect(read.statusCode).toBe(200);
    expect(data<AppNotificationList>(await app(parentAccount, 'GET', 'notifications')).unread).toBe(1);
    // Another account's notification is 404 and stays unread.
    const theirs = data<AppNotificationList>(await app(otherParentAccount, 'GET', 'notifications'));
    expect((await app(parentAccount, 'POST', `notifications/${theirs.records[0].id}/read`)).statusCode).toBe(404);
    expect(data<AppNotificationList>(await app(otherParentAccount, 'GET', 'notifications')).unread).toBe(theirs.unread);
    // The student's own account is told too.
    expect(data<AppNotificationList>(await app(studentAccount, 'GET', 'notifications')).records.some((n) => n.planId === lastEnded && n.studentId === child)).toBe(true);
  });
});

describe('the report a parent reads (app API)', () => {
  it("lists the released reports of the caller's children, newest first", async () => {
    const rows = data<AppReportRow[]>(await app(parentAccount, 'GET', 'reports'));
    expect(rows.filter((r) => r.studentId === child).map((r) => r.planId)).toEqual([lastEnded, olderEnded]);
    expect(rows.every((r) => r.planId !== current)).toBe(true);
  });

  it("answers this year's items against the bands of the child's grade and gender, last year beside it, the items to improve", async () => {
    const report = data<AppReport>(await app(parentAccount, 'GET', `reports/${child}`));
    expect(report.plan.id).toBe(lastEnded);
    expect(report.items.length).toBeGreaterThan(3);
    for (const i of report.items) {
      expect(i.bands, i.item).toEqual(itemBands(report.plan.gradeNo, report.student.gender, i.item));
      if (i.bands?.kind === 'table' && i.raw != null && i.score != null) {
        const passes = i.bands.lowerIsBetter ? i.raw <= i.bands.pass : i.raw >= i.bands.pass;
        expect(passes, `${i.item} ${i.raw} ${i.score}`).toBe(i.score >= 60);
      }
    }
    expect(report.lastYear?.planId).toBe(olderEnded);
    const [older] = await t.db.select().from(physiqueResults).where(and(eq(physiqueResults.planId, olderEnded), eq(physiqueResults.studentId, child)));
    expect(report.lastYear?.total).toBe(older.total);
    const bmi = report.items.find((i) => i.item === 'bmi');
    expect(bmi?.lastYear?.raw).toBe(older.bmi);
    // Items to improve: below good (80), lowest first, flagged on their items.
    const scored = report.items.filter((i) => i.score != null && i.score < 80).sort((a, b) => a.score! - b.score!);
    expect(report.improve).toEqual(scored.slice(0, 3).map((i) => i.item));
    expect(report.items.filter((i) => i.improve).map((i) => i.item).sort()).toEqual([...report.improve].sort());
  });

  it('gives the curated advice per item and level in the language of the request', async () => {
    const pick = (d: unknown, item: string, level: string) => (d as Record<string, Record<string, string>>)[item][level];
    for (const [lang, texts] of [['zh-CN', zhAdvice], ['en-US', enAdvice], ['zh-TW', twAdvice]] as const) {
      const report = data<AppReport>(await app(parentAccount, 'GET', `reports/${child}?planId=${lastEnded}`, lang));
      for (const i of report.items.filter((x) => x.level)) expect(i.advice, `${lang} ${i.item}`).toBe(pick(texts, i.item, i.level!));
    }
  });

  it('visible to the child and its own parents only: another family, another school and an unreleased plan are 404', async () => {
    expect((await app(studentAccount, 'GET', `reports/${child}`)).statusCode).toBe(200);
    expect((await app(otherParentAccount, 'GET', `reports/${child}`)).statusCode).toBe(404);
    expect((await app(parentAccount, 'GET', `reports/${otherFamilyChild}`)).statusCode).toBe(404);
    expect((await app(studentAccount, 'GET', `reports/${otherFamilyChild}`)).statusCode).toBe(404);
    expect((await app(universityAccount, 'GET', `reports/${child}`)).statusCode).toBe(404);
    expect(data<AppReportRow[]>(await app(universityAccount, 'GET', 'reports'))).toEqual([]);
    expect((await app(parentAccount, 'GET', `reports/${child}?planId=${current}`)).statusCode).toBe(404);
    expect((await app(parentAccount, 'GET', 'reports/not-an-id')).statusCode).toBe(404);
    // The school's staff read it through the console report (its permission); another school's staff do not.
    expect((await t.as('school01').get(`/api/busi/web/k12/physique/report/${child}?planId=${lastEnded}`)).status).toBe(200);
    expect((await t.as('school02').get(`/api/busi/web/k12/physique/report/${child}?planId=${lastEnded}`)).status).toBe(404);
  });

  it('a withdrawal hides the report again (404), removes its notifications, is audited and needs the button', async () => {
    expect((await t.as('jiaoyan01').post(`/api/busi/web/admin/organizeTest/testManage/withdraw/${lastEnded}`)).status).toBe(403);
    const res = await t.as('school01').post(`${base}/withdraw/${lastEnded}`);
    expect(res.status).toBe(200);
    expect((await app(parentAccount, 'GET', `reports/${child}?planId=${lastEnded}`)).statusCode).toBe(404);
    // The latest released one is now the older plan, which has no released year before it.
    const report = data<AppReport>(await app(parentAccount, 'GET', `reports/${child}`));
    expect(report.plan.id).toBe(olderEnded);
    expect(report.lastYear).toBeNull();
    expect(await t.db.$count(appNotifications, eq(appNotifications.planId, lastEnded))).toBe(0);
    const audit = await t.db.select({ action: auditLogs.action }).from(auditLogs).where(and(eq(auditLogs.entity, 'testPlan'), eq(auditLogs.entityId, lastEnded), ne(auditLogs.action, 'publish')));
    expect(audit.map((a) => a.action)).toEqual(['unpublish', 'unpublish']);
    expect((await t.as('school01').post(`${base}/withdraw/${lastEnded}`)).status).toBe(409);
    expect((await t.as('school01').get<ReportRelease[]>(`${base}/releases`)).body.data.map((r) => r.planId)).not.toContain(lastEnded);
  });
});
