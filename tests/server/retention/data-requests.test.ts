import { and, eq, isNotNull, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { TokenData } from '@/domain/auth/types';
import { DATA_REQUEST_DEADLINE_DAYS, type DataRequestRow } from '@/domain/retention/retention';
import { auditLogs } from '../../../server/db/schema/audit';
import { memberships, users } from '../../../server/db/schema/auth';
import { parentStudents, parents, students } from '../../../server/db/schema/school';
import { sha256Hex } from '../../../server/lib/password';
import { DEMO_PASSWORD } from '../../../server/seed/demo';
import { dataOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

/** Parents' data requests (docs/product-rules.md#retention, "Data requests"). */
const DAY = 86_400_000;
let t: TestApp;
let token: string;
let child: string;
let childName: string;
let stranger: string;
/** The administrator account of the child's school, and of another school. */
let schoolAccount: string;
let otherAccount: string;
let family: 'k12' | 'gx';

beforeAll(async () => {
  t = await createTestApp();
  const [p] = await t.db
    .select({ account: users.accountNum, parentId: parents.id })
    .from(parents)
    .innerJoin(users, eq(users.id, parents.userId))
    .where(isNotNull(parents.userId))
    .limit(1);
  const kids = await t.db.select({ id: parentStudents.studentId, name: students.name, orgId: students.orgId }).from(parentStudents).innerJoin(students, eq(students.id, parentStudents.studentId)).where(eq(parentStudents.parentId, p.parentId));
  ({ id: child, name: childName } = kids[0]);
  const [s] = await t.db.select({ id: students.id }).from(students).where(notInArray(students.id, kids.map((k) => k.id))).limit(1);
  stranger = s.id;
  // The demo's school administrators: school01 and school02 (K12), college01 (university).
  const orgOfAccount = async (account: string) =>
    (await t.db.select({ orgId: memberships.orgId }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(eq(users.accountNum, account)).limit(1))[0].orgId;
  const accounts = ['school01', 'school02', 'college01'];
  const orgIds = await Promise.all(accounts.map(orgOfAccount));
  schoolAccount = accounts[orgIds.indexOf(kids[0].orgId)];
  expect(schoolAccount).toBeTruthy();
  otherAccount = accounts.find((a) => a !== schoolAccount && a !== 'college01')!;
  family = schoolAccount === 'college01' ? 'gx' : 'k12';
  parentAccount = p.account;
  await appLogin();
});
let parentAccount: string;
/** Signs the parent in to the app (again after the clock passed the token's expiry). */
async function appLogin() {
  const login = await t.app.inject({ method: 'POST', url: '/api/v1/app/login', payload: { account: parentAccount, password: sha256Hex(DEMO_PASSWORD) } });
  token = login.json<Envelope<TokenData>>().data.access_token;
}
afterAll(() => t?.close());

const app = (method: 'GET' | 'POST', url: string, payload?: unknown) => t.request({ method, url: `/api/v1/app/${url}`, token, payload: payload as string });
const base = () => `/api/busi/web/${family}/system/dataRequest`;

describe('a parent', () => {
  it("reads and downloads their own child's data, never another child's", async () => {
    const res = await app('GET', `children/${child}/data`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<Envelope<{ student: { name: string }; physiqueResults: unknown[]; activities: unknown[]; parents: unknown[] }>>().data;
    expect(data.student.name).toBe(childName);
    expect(data.parents.length).toBeGreaterThan(0);
    const file = await app('GET', `children/${child}/data?download=1`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('application/json');
    expect(file.headers['content-disposition']).toContain('attachment');
    expect(JSON.parse(file.body).student.name).toBe(childName);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'dataRequest'), eq(auditLogs.action, 'download'), eq(auditLogs.entityId, child)));
    expect(log).toBeTruthy();
    expect((await app('GET', `children/${stranger}/data`)).statusCode).toBe(404);
    expect((await app('GET', `children/${stranger}/data?download=1`)).statusCode).toBe(404);
  });

  it('asks for a correction with a text; the school must answer within 15 days; empty text or another child changes nothing', async () => {
    const empty = await app('POST', 'data-requests', { studentId: child, kind: 'correction', text: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().data).toMatchObject({ field: 'text' });
    expect((await app('POST', 'data-requests', { studentId: stranger, kind: 'deletion', text: '请删除' })).statusCode).toBe(404);
    expect((await app('GET', 'data-requests')).json().data).toEqual([]);

    const made = await app('POST', 'data-requests', { studentId: child, kind: 'correction', text: '出生日期应为2012-03-04' });
    expect(made.statusCode, made.body).toBe(200);
    const row = made.json<Envelope<DataRequestRow>>().data;
    expect(row).toMatchObject({ studentId: child, kind: 'correction', status: 'pending', overdue: false });
    expect(Date.parse(row.dueAt) - Date.parse(row.createdAt)).toBe(DATA_REQUEST_DEADLINE_DAYS * DAY);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'dataRequest'), eq(auditLogs.action, 'create'), eq(auditLogs.entityId, row.id)));
    expect(log).toBeTruthy();
  });
});

describe("the school's queue", () => {
  it("lists its own requests with the deadline, overdue once past it; another school sees none of them", async () => {
    const page = dataOf<{ records: DataRequestRow[] }>(await t.as(schoolAccount).get(`${base()}/page?current=1&size=20`));
    const row = page.records.find((r) => r.studentId === child)!;
    expect(row).toMatchObject({ status: 'pending', overdue: false, studentName: childName });
    const other = dataOf<{ records: DataRequestRow[] }>(await t.as(otherAccount).get(`/api/busi/web/k12/system/dataRequest/page?current=1&size=20`));
    expect(other.records.some((r) => r.id === row.id)).toBe(false);
    expect((await t.as(otherAccount).get(`/api/busi/web/k12/system/dataRequest/${row.id}`)).status).toBe(404);
    expect((await t.as(otherAccount).put(`/api/busi/web/k12/system/dataRequest/${row.id}/handle`, { status: 'done', note: 'x', version: row.version })).status).toBe(404);
    expect((await t.as(otherAccount).get(`/api/busi/web/k12/system/dataRequest/${row.id}/download`)).status).toBe(404);

    t.clock.advance((DATA_REQUEST_DEADLINE_DAYS + 1) * DAY);
    t.signInAgain();
    const late = dataOf<DataRequestRow>(await t.as(schoolAccount).get(`${base()}/${row.id}`));
    expect(late.overdue).toBe(true);
  });

  it("downloads the child's data, then marks the request done with a note (refusing needs a reason); the parent sees it", async () => {
    const page = dataOf<{ records: DataRequestRow[] }>(await t.as(schoolAccount).get(`${base()}/page?current=1&size=20&status=pending`));
    const row = page.records.find((r) => r.studentId === child)!;
    const file = await t.as(schoolAccount).get(`${base()}/${row.id}/download`);
    expect(file.status).toBe(200);
    expect(JSON.parse(file.res.body).student.name).toBe(childName);

    const noReason = await t.as(schoolAccount).put(`${base()}/${row.id}/handle`, { status: 'refused', note: ' ', version: row.version });
    expect(noReason.status).toBe(400);
    expect(noReason.body.data).toMatchObject({ field: 'note' });
    const done = dataOf<DataRequestRow>(await t.as(schoolAccount).put(`${base()}/${row.id}/handle`, { status: 'done', note: '已更正出生日期', version: row.version }));
    expect(done).toMatchObject({ status: 'done', note: '已更正出生日期', overdue: false });
    // Handled once: a second answer (or a stale form) is refused.
    expect((await t.as(schoolAccount).put(`${base()}/${row.id}/handle`, { status: 'refused', note: '重复', version: done.version })).status).toBe(409);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'dataRequest'), eq(auditLogs.action, 'decide'), eq(auditLogs.entityId, row.id)));
    expect(log.after).toMatchObject({ status: 'done' });

    await appLogin();
    const mine = (await app('GET', 'data-requests')).json<Envelope<DataRequestRow[]>>().data;
    expect(mine.find((r) => r.id === row.id)).toMatchObject({ status: 'done', note: '已更正出生日期' });
  });
});
