import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { AppAccountGiven } from '@/domain/people/app-accounts';
import type { ParentRecord } from '@/domain/people/parents';
import type { StudentRecord } from '@/domain/people/students';
import { auditLogs } from '../../../server/db/schema/audit';
import { parents, students } from '../../../server/db/schema/school';
import { sha256Hex } from '../../../server/lib/password';
import { orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let student: { id: string; regNo: string; name: string };
let parent: { id: string; mobile: string };
let schoolId: string;

beforeAll(async () => {
  t = await createTestApp({ rateLimits: { loginPerMinute: 1_000_000, captchaPerMinute: 1_000_000 } });
  schoolId = (await orgOf(t, 'school01')).orgId;
  [student] = await t.db
    .select({ id: students.id, regNo: students.regNo, name: students.name })
    .from(students)
    .where(and(eq(students.orgId, schoolId), isNull(students.userId), eq(students.status, 'studying')))
    .orderBy(students.regNo)
    .limit(1);
  [parent] = await t.db.select({ id: parents.id, mobile: parents.mobile }).from(parents).where(and(eq(parents.orgId, schoolId), isNull(parents.userId))).orderBy(parents.mobile).limit(1);
});
afterAll(async () => {
  await t?.close();
});

const STUDENTS = '/api/busi/web/k12/user/student';
const PARENTS = '/api/busi/web/k12/user/parent';
const appLogin = (account: string, password: string) => t.request({ method: 'POST', url: '/api/v1/app/login', payload: { account, password: sha256Hex(password) } });

describe('app accounts of students and parents', () => {
  it('gives a student an app account (login = registration number, one-time password), shown on the row; audited', async () => {
    const res = await t.as('school01').post<AppAccountGiven>(`${STUDENTS}/${student.id}/app-account`);
    expect(res.status, res.res.body).toBe(200);
    const given = res.body.data;
    expect(given.accountNum).toBe(student.regNo);
    expect(given.password).toMatch(/^[A-Za-z0-9]{10}$/);
    const login = await appLogin(student.regNo, given.password);
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json()).toMatchObject({ data: { must_change_password: true } });
    const row = (await t.as('school01').get<StudentRecord>(`${STUDENTS}/${student.id}`)).body.data;
    expect(row.appAccount).toEqual({ accountNum: student.regNo, enabled: true });
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'student'), eq(auditLogs.entityId, student.id), eq(auditLogs.action, 'giveAppAccount')));
    expect(JSON.stringify(log)).not.toContain(given.password);
    // Twice is refused, naming why.
    const again = await t.as('school01', { language: 'en-US' }).post(`${STUDENTS}/${student.id}/app-account`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ msg: 'This person already has an app account' });
  });

  it('disabling ends the app session and refuses sign-in; enabling lets them in again', async () => {
    const password = 'Reset@2026';
    expect((await t.as('school01').put(`${STUDENTS}/${student.id}/app-account/password`, { mode: 'set', password })).status).toBe(200);
    const session = (await appLogin(student.regNo, password)).json<Envelope<{ access_token: string }>>().data.access_token;
    expect((await t.as('school01').put(`${STUDENTS}/${student.id}/app-account/status`, { enabled: false })).status).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/v1/app/me', token: session })).statusCode).toBe(401);
    expect((await appLogin(student.regNo, password)).statusCode).toBe(400);
    const list = (await t.as('school01').get<Page<StudentRecord>>(`${STUDENTS}/page?keyword=${student.regNo}`)).body.data;
    expect(list.records[0].appAccount).toEqual({ accountNum: student.regNo, enabled: false });
    expect((await t.as('school01').put(`${STUDENTS}/${student.id}/app-account/status`, { enabled: true })).status).toBe(200);
    expect((await appLogin(student.regNo, password)).statusCode).toBe(200);
  });

  it('resets the password with the console rules: a generated one is answered once, a bad one refused on the field', async () => {
    const bad = await t.as('school01').put(`${STUDENTS}/${student.id}/app-account/password`, { mode: 'set', password: '123' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ data: { field: 'password' } });
    const res = await t.as('school01').put<{ password: string }>(`${STUDENTS}/${student.id}/app-account/password`, { mode: 'generate' });
    const { password } = res.body.data;
    expect((await appLogin(student.regNo, password)).statusCode).toBe(200);
  });

  it('gives a parent an app account under their mobile, shown on their row', async () => {
    const res = await t.as('school01').post<AppAccountGiven>(`${PARENTS}/${parent.id}/app-account`);
    expect(res.status, res.res.body).toBe(200);
    const given = res.body.data;
    expect(given.accountNum).toBe(parent.mobile);
    const login = await appLogin(parent.mobile, given.password);
    expect(login.statusCode, login.body).toBe(200);
    const row = (await t.as('school01').get<Page<ParentRecord>>(`${PARENTS}/page?keyword=${parent.mobile}`)).body.data.records[0];
    expect(row.appAccount).toEqual({ accountNum: parent.mobile, enabled: true });
  });

  it('no account yet: status and reset are 409; another school’s student is 404', async () => {
    const [other] = await t.db.select({ id: students.id }).from(students).where(and(eq(students.orgId, schoolId), isNull(students.userId), eq(students.status, 'studying'))).orderBy(students.regNo).offset(5).limit(1);
    expect((await t.as('school01').put(`${STUDENTS}/${other.id}/app-account/status`, { enabled: false })).status).toBe(409);
    expect((await t.as('school01').put(`${STUDENTS}/${other.id}/app-account/password`, { mode: 'generate' })).status).toBe(409);
    expect((await t.as('college01').post(`/api/busi/web/gx/user/student/${student.id}/app-account`)).status).toBe(404);
  });
});
