import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
import type { StaffListRow, StaffRow } from '@/domain/people/staff';
import type { ResetPasswordResult } from '@/domain/users/users';
import { auditLogs } from '../../../server/db/schema/audit';
import { memberships, menus, roleMenus, roles, users } from '../../../server/db/schema/auth';
import { classes, grades, teachers } from '../../../server/db/schema/school';
import { sha256Hex } from '../../../server/lib/password';
import { dataOf, orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let k12Id: string;
let uniId: string;
let adminRole: string;
let teacherRole: string;
let grade7Class: { id: string; name: string };
let grade3Class: { id: string; name: string };

async function classOf(gradeNo: number): Promise<{ id: string; name: string }> {
  const [row] = await t.db
    .select({ id: classes.id, name: classes.name })
    .from(classes)
    .innerJoin(grades, eq(grades.id, classes.gradeId))
    .where(and(eq(classes.orgId, k12Id), eq(grades.gradeNo, gradeNo), eq(grades.graduated, false)))
    .orderBy(asc(classes.code))
    .limit(1);
  return row;
}
async function staffIdOf(account: string, orgId = k12Id): Promise<string> {
  const [row] = await t.db.select({ id: teachers.id }).from(teachers).innerJoin(users, eq(users.id, teachers.userId)).where(and(eq(users.accountNum, account), eq(teachers.orgId, orgId)));
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp();
  k12Id = (await orgOf(t, 'school01')).orgId;
  uniId = (await orgOf(t, 'college01')).orgId;
  const rs = await t.db.select({ id: roles.id, name: roles.name }).from(roles).where(eq(roles.orgId, k12Id));
  adminRole = rs.find((r) => r.name === '管理员')!.id;
  teacherRole = rs.find((r) => r.name === '体育教师')!.id;
  grade7Class = await classOf(7);
  grade3Class = await classOf(3);
});
afterAll(async () => {
  await t?.close();
});

const person = (accountNum: string, extra: object = {}) => ({
  name: '测试老师',
  accountNum,
  password: 'Start123',
  roleId: teacherRole,
  mobile: '',
  gender: 'female',
  workNo: '',
  idCard: '',
  certificateType: '',
  certificateNo: '',
  photoFileId: '',
  taughtClasses: [],
  ...extra,
});
const editOf = (row: StaffRow, extra: object = {}) => ({
  name: row.name,
  accountNum: row.accountNum,
  roleId: row.roleId,
  mobile: row.mobile ?? '',
  gender: row.gender,
  workNo: row.workNo ?? '',
  idCard: row.idCard ?? '',
  certificateType: row.certificateType ?? '',
  certificateNo: row.certificateNo ?? '',
  photoFileId: row.photoFileId ?? '',
  taughtClasses: row.taughtClasses.map(({ classId, subject }) => ({ classId, subject })),
  version: row.version,
  ...extra,
});
async function add(accountNum: string, extra: object = {}): Promise<StaffRow> {
  const res = await t.as('school01').post<StaffRow>('/api/busi/web/k12/user/teacher', person(accountNum, extra));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe('staff: list', () => {
  it('pages the school’s staff by work number with account, role and taught classes, never ID numbers', async () => {
    const page = dataOf(await t.as('school01').get<Page<StaffListRow>>('/api/busi/web/k12/user/teacher/page?size=50'));
    expect(page.records.length).toBeGreaterThan(3);
    const wang = page.records.find((r) => r.accountNum === 'teacher01')!;
    expect(wang).toMatchObject({ name: '王磊', workNo: '100002', roleName: '体育教师', enabled: true });
    expect(wang.taughtClasses.length).toBeGreaterThan(0);
    for (const r of page.records) {
      expect(r).not.toHaveProperty('idCard');
      expect(r).not.toHaveProperty('certificateNo');
    }
    // The demo teacher with a passport and the one who also teaches health.
    expect(page.records.find((r) => r.workNo === '100008')).toMatchObject({ certificateType: 'passport' });
    expect(page.records.find((r) => r.workNo === '100004')!.taughtClasses.map((c) => c.subject)).toContain('health');
    const works = page.records.map((r) => r.workNo);
    expect(works).toEqual([...works].sort());
  });

  it('filters by keyword (name, mobile, work number, account), role, class and status', async () => {
    const byAccount = dataOf(await t.as('school01').get<Page<StaffListRow>>('/api/busi/web/k12/user/teacher/page?keyword=teacher01'));
    expect(byAccount.records.map((r) => r.name)).toEqual(['王磊']);
    expect(dataOf(await t.as('school01').get<Page<StaffListRow>>('/api/busi/web/k12/user/teacher/page?keyword=100002')).records.map((r) => r.name)).toEqual(['王磊']);
    const admins = dataOf(await t.as('school01').get<Page<StaffListRow>>(`/api/busi/web/k12/user/teacher/page?roleId=${adminRole}`)).records.map((r) => r.accountNum);
    expect(admins).toContain('school01');
    expect(admins).not.toContain('teacher01');
    const taught = dataOf(await t.as('school01').get<Page<StaffListRow>>(`/api/busi/web/k12/user/teacher/page?classId=${grade7Class.id}`)).records.map((r) => r.accountNum);
    expect(taught).toEqual(['teacher01']);
    expect(dataOf(await t.as('school01').get<Page<StaffListRow>>('/api/busi/web/k12/user/teacher/page?enabled=false')).records).toEqual([]);
  });

  it('another organisation’s staff are 404; the university lists its own under gx', async () => {
    const uniStaff = await staffIdOf('gxteacher01', uniId);
    expect((await t.as('school01').get(`/api/busi/web/k12/user/teacher/${uniStaff}`)).status).toBe(404);
    expect((await t.as('school01').put(`/api/busi/web/k12/user/teacher/${uniStaff}/status`, { enabled: false })).status).toBe(404);
    expect((await t.as('school01').put(`/api/busi/web/k12/user/teacher/${uniStaff}/password`, { mode: 'generate' })).status).toBe(404);
    expect((await t.as('school01').delete(`/api/busi/web/k12/user/teacher/${uniStaff}`)).status).toBe(404);
    const gx = dataOf(await t.as('college01').get<Page<StaffListRow>>('/api/busi/web/gx/user/teacher/page?size=50'));
    expect(gx.records.map((r) => r.accountNum)).toContain('gxteacher01');
    expect(gx.records.map((r) => r.accountNum)).not.toContain('teacher01');
    // A K12 administrator is not of the university family.
    expect((await t.as('school01').get('/api/busi/web/gx/user/teacher/page')).status).toBe(403);
  });

  it('a PE teacher without the staff page gets 403', async () => {
    expect((await t.as('teacher01').get('/api/busi/web/k12/user/teacher/page')).status).toBe(403);
    expect((await t.as('teacher01').post('/api/busi/web/k12/user/teacher', person('nobody001'))).status).toBe(403);
  });
});

describe('staff: field rules', () => {
  const refused = async (extra: object, field: string, msg?: string, lang = 'zh-CN') => {
    const before = await t.db.$count(teachers);
    const usersBefore = await t.db.$count(users);
    const res = await t.as('school01', { language: lang }).post('/api/busi/web/k12/user/teacher', person('ruletest1', extra));
    expect(res.status, JSON.stringify(extra)).toBe(400);
    expect(res.body.data).toEqual({ field });
    if (msg) expect(res.body.msg).toBe(msg);
    expect(await t.db.$count(teachers)).toBe(before);
    expect(await t.db.$count(users)).toBe(usersBefore);
  };

  it('refuses each bad field naming it, in the request’s language, writing nothing', async () => {
    await refused({ name: '' }, 'name', '请填写姓名');
    await refused({ name: '长'.repeat(31) }, 'name', '姓名不能超过30个字符');
    await refused({ accountNum: 'abc' }, 'accountNum');
    await refused({ accountNum: 'abc_def1' }, 'accountNum');
    await refused({ password: '12345' }, 'password');
    await refused({ roleId: '' }, 'roleId', '请选择本单位的角色');
    await refused({ mobile: '12345' }, 'mobile', 'The phone number is not valid.', 'en-US');
    await refused({ gender: '' }, 'gender', '请选择性别');
    await refused({ workNo: 'A 1' }, 'workNo', '工号只能包含字母、数字和连字符');
    await refused({ certificateType: 'passport' }, 'certificateNo', '请填写证件号码');
    await refused({ certificateNo: 'E123' }, 'certificateType', '请选择证件类型');
    await refused({ certificateType: 'visa', certificateNo: 'E123' }, 'certificateType');
    await refused({ taughtClasses: [{ classId: 'x', subject: 'pe' }] }, 'taughtClasses.0.classId', '请选择班级');
    await refused({ taughtClasses: [{ classId: grade7Class.id, subject: 'maths' }] }, 'taughtClasses.0.subject');
  });

  it('checks the ID number’s GB 11643 check character and birth date', async () => {
    await refused({ idCard: '320115198506120037' }, 'idCard', '身份证号码格式不正确（18位，末位校验码可为X）');
    await refused({ idCard: '110101199902290018' }, 'idCard');
    await refused({ idCard: '32011519850612003' }, 'idCard', 'The ID card number is not valid (18 characters; the last, a check digit, may be X).', 'en-US');
    // Full-width digits and a lower-case x are folded.
    const row = await add('idcheck01', { idCard: '１１０１０５１９４９１２３１００２ｘ' });
    expect(dataOf(await t.as('school01').get<StaffRow>(`/api/busi/web/k12/user/teacher/${row.id}`)).idCard).toBe('11010519491231002X');
  });

  it('refuses rules of the database: taken account and mobile, work number in the school, foreign role, class and photo', async () => {
    await refused({ accountNum: 'teacher01' }, 'accountNum', '该登录账号已被使用');
    const [{ mobile }] = await t.db.select({ mobile: users.mobile }).from(users).where(eq(users.accountNum, 'teacher01'));
    await refused({ mobile }, 'mobile');
    await refused({ workNo: '100002' }, 'workNo', '工号已存在');
    const [uniRole] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.orgId, uniId)).limit(1);
    await refused({ roleId: uniRole.id }, 'roleId');
    const [uniClass] = await t.db.select({ id: classes.id }).from(classes).where(eq(classes.orgId, uniId)).limit(1);
    await refused({ taughtClasses: [{ classId: uniClass.id, subject: 'pe' }] }, 'taughtClasses');
    await refused({ photoFileId: '00000000-0000-4000-8000-000000000000' }, 'photoFileId');
    // A university work number is not the school's: the same number is free here.
    const [uniTeacher] = await t.db.select({ workNo: teachers.workNo }).from(teachers).where(eq(teachers.orgId, uniId)).limit(1);
    expect((await add('worknofree', { workNo: uniTeacher.workNo })).workNo).toBe(uniTeacher.workNo);
  });
});

describe('staff: add and edit', () => {
  it('adds a person, their account with the role and their classes in one go; they must change the first password', async () => {
    const row = await add('newstaff9', {
      name: '周晓燕',
      mobile: '13912340001',
      workNo: 'T-0901',
      idCard: '320115198506120036',
      taughtClasses: [
        { classId: grade7Class.id, subject: 'pe' },
        { classId: grade7Class.id, subject: 'health' },
      ],
    });
    expect(row).toMatchObject({ name: '周晓燕', accountNum: 'newstaff9', roleId: teacherRole, roleName: '体育教师', workNo: 'T-0901', enabled: true, mustChangePassword: true, version: 1 });
    expect(row.taughtClasses).toEqual([
      { classId: grade7Class.id, subject: 'pe', className: grade7Class.name },
      { classId: grade7Class.id, subject: 'health', className: grade7Class.name },
    ]);
    const [account] = await t.db.select({ org: memberships.tenantOrgId }).from(memberships).where(eq(memberships.id, row.accountId!));
    expect(account.org).toBe(k12Id);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'staff'), eq(auditLogs.entityId, row.id)));
    expect(log.action).toBe('create');
    expect(JSON.stringify(log.after)).not.toMatch(/scrypt|Start123|password/i);

    const token = await t.login('newstaff9', 'Start123');
    expect(token.must_change_password).toBe(true);
  });

  it('edits person, account and classes with the version it read; a stale save is 409', async () => {
    const created = await add('editme001', { taughtClasses: [{ classId: grade3Class.id, subject: 'pe' }] });
    const row = dataOf(await t.as('school01').get<StaffRow>(`/api/busi/web/k12/user/teacher/${created.id}`));
    const save = editOf(row, { name: '林海（改）', accountNum: 'editme002', roleId: adminRole, taughtClasses: [{ classId: grade7Class.id, subject: 'other' }], certificateType: 'hkMacauPermit', certificateNo: 'H1234567' });
    const first = await t.as('school01').put<StaffRow>(`/api/busi/web/k12/user/teacher/${row.id}`, save);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const after = first.body.data;
    expect(after).toMatchObject({ name: '林海（改）', accountNum: 'editme002', roleName: '管理员', certificateType: 'hkMacauPermit', certificateNo: 'H1234567', version: row.version + 1 });
    expect(after.taughtClasses.map((c) => [c.classId, c.subject])).toEqual([[grade7Class.id, 'other']]);
    const [user] = await t.db.select({ name: users.name, accountNum: users.accountNum }).from(users).where(eq(users.accountNum, 'editme002'));
    expect(user.name).toBe('林海（改）');
    const stale = await t.as('school01').put(`/api/busi/web/k12/user/teacher/${row.id}`, { ...save, name: '又改' });
    expect(stale.status).toBe(409);
    expect(stale.body.msg).toBe('数据已被他人修改，请刷新后重试');
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'staff'), eq(auditLogs.action, 'update'), eq(auditLogs.entityId, row.id)));
    expect(log.before).toMatchObject({ name: '测试老师' });
    expect(log.after).toMatchObject({ name: '林海（改）' });
    // Keeping one's own work number is not "taken".
    const again = dataOf(await t.as('school01').get<StaffRow>(`/api/busi/web/k12/user/teacher/${row.id}`));
    expect((await t.as('school01').put(`/api/busi/web/k12/user/teacher/${row.id}`, editOf(again, { workNo: 'LH-01' }))).status).toBe(200);
  });

  it('offers the school’s staff roles and current classes', async () => {
    const options = dataOf(await t.as('school01').get<{ roles: { name: string }[]; classes: { id: string }[] }>('/api/busi/web/k12/user/teacher/options'));
    expect(options.roles.map((r) => r.name)).toEqual(expect.arrayContaining(['管理员', '体育教师']));
    expect(options.classes.map((c) => c.id)).toContain(grade7Class.id);
  });
});

describe('staff: status and password, as on the users screen', () => {
  it('a disabled staff member cannot sign in and their open session ends; enabled again they can', async () => {
    await add('status001');
    const session = await t.login('status001', 'Start123');
    const id = dataOf(await t.as('school01').get<Page<StaffListRow>>('/api/busi/web/k12/user/teacher/page?keyword=status001')).records[0].id;
    const off = await t.as('school01').put<StaffRow>(`/api/busi/web/k12/user/teacher/${id}/status`, { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body.data.enabled).toBe(false);
    expect((await t.request({ method: 'GET', url: '/api/busi/web/myInfo/getUInfo', token: session.access_token })).statusCode).toBe(401);
    const refused = await t.loginResponse('status001', 'Start123');
    expect(refused.json<Envelope<null>>().msg).toBe('账号已停用，请联系管理员');
    expect(dataOf(await t.as('school01').get<Page<StaffListRow>>('/api/busi/web/k12/user/teacher/page?enabled=false')).records.map((r) => r.id)).toEqual([id]);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'staff'), eq(auditLogs.action, 'status'), eq(auditLogs.entityId, id)));
    expect(log.after).toMatchObject({ enabled: false });
    expect((await t.as('school01').put(`/api/busi/web/k12/user/teacher/${id}/status`, { enabled: true })).status).toBe(200);
    expect((await t.loginResponse('status001', 'Start123')).statusCode).toBe(200);
  });

  it('an administrator cannot disable or delete themselves', async () => {
    const own = await staffIdOf('school01');
    expect((await t.as('school01').put(`/api/busi/web/k12/user/teacher/${own}/status`, { enabled: false })).status).toBe(409);
    expect((await t.as('school01').delete(`/api/busi/web/k12/user/teacher/${own}`)).status).toBe(409);
  });

  it('resets a password: a one-time password shown once or a typed one, to be changed at sign-in; sessions end', async () => {
    await add('reset0001');
    const id = dataOf(await t.as('school01').get<Page<StaffListRow>>('/api/busi/web/k12/user/teacher/page?keyword=reset0001')).records[0].id;
    const first = await t.login('reset0001', 'Start123');
    await t.request({ method: 'POST', url: '/api/busi/web/myInfo/editAccount', token: first.access_token, payload: { oldPassword: sha256Hex('Start123'), newPassword: 'Mine2026' } });
    const session = await t.login('reset0001', 'Mine2026');
    expect(session.must_change_password).toBeUndefined();

    const res = await t.as('school01').put<ResetPasswordResult>(`/api/busi/web/k12/user/teacher/${id}/password`, { mode: 'generate' });
    const { password } = res.body.data;
    expect(password).toMatch(/^[A-Za-z0-9]{10}$/);
    expect((await t.request({ method: 'GET', url: '/api/busi/web/myInfo/getUInfo', token: session.access_token })).statusCode).toBe(401);
    expect((await t.login('reset0001', password!)).must_change_password).toBe(true);

    const bad = await t.as('school01').put(`/api/busi/web/k12/user/teacher/${id}/password`, { mode: 'set', password: '123' });
    expect(bad.body.data).toEqual({ field: 'password' });
    expect(dataOf(await t.as('school01').put<ResetPasswordResult>(`/api/busi/web/k12/user/teacher/${id}/password`, { mode: 'set', password: 'Typed2026' }))).toEqual({ password: null });
    expect((await t.login('reset0001', 'Typed2026')).must_change_password).toBe(true);
    const logs = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'staff'), eq(auditLogs.action, 'resetPassword'), eq(auditLogs.entityId, id)));
    expect(logs).toHaveLength(2);
    expect(JSON.stringify(logs)).not.toContain(password!);
    expect(JSON.stringify(logs)).not.toContain('Typed2026');
  });
});

describe('staff: delete', () => {
  it('refuses while classes name them as head or PE teacher, naming the classes; then deletes person and account', async () => {
    const row = await add('leaving01', { taughtClasses: [{ classId: grade3Class.id, subject: 'pe' }] });
    await t.db.update(classes).set({ headTeacherId: row.id }).where(eq(classes.id, grade3Class.id));
    const refused = await t.as('school01').delete(`/api/busi/web/k12/user/teacher/${row.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(`该数据已被班级使用（1条：${grade3Class.name}），不能删除`);
    expect(await t.db.$count(teachers, eq(teachers.id, row.id))).toBe(1);

    await t.db.update(classes).set({ headTeacherId: null }).where(eq(classes.id, grade3Class.id));
    expect((await t.as('school01').delete(`/api/busi/web/k12/user/teacher/${row.id}`)).status).toBe(200);
    expect((await t.as('school01').get(`/api/busi/web/k12/user/teacher/${row.id}`)).status).toBe(404);
    expect((await t.loginResponse('leaving01', 'Start123')).statusCode).toBe(400);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'staff'), eq(auditLogs.action, 'delete'), eq(auditLogs.entityId, row.id)));
    expect(log.before).toMatchObject({ accountNum: 'leaving01' });
  });
});

describe('staff: data scope', () => {
  it('a role scoped to its classes sees only staff teaching or heading those classes', async () => {
    // The PE teacher role gets the staff page and the "my classes" scope.
    const [page] = await t.db.select({ menuId: menus.menuId }).from(menus).where(eq(menus.menuId, 'k12.user.teacher'));
    await t.db.insert(roleMenus).values({ roleId: teacherRole, menuId: page.menuId });
    await t.db.update(roles).set({ dataScope: 'classes' }).where(eq(roles.id, teacherRole));
    const mate = await add('scopemate', { name: '同班老师', taughtClasses: [{ classId: grade7Class.id, subject: 'health' }] });
    const seen = dataOf(await t.as('teacher01').get<Page<StaffListRow>>('/api/busi/web/k12/user/teacher/page?size=80')).records.map((r) => r.accountNum);
    expect(seen).toContain('teacher01');
    expect(seen).toContain('scopemate');
    expect(seen).not.toContain('teacher02');
    expect(seen).not.toContain('school01');
    expect((await t.as('teacher01').get(`/api/busi/web/k12/user/teacher/${mate.id}`)).status).toBe(200);
    expect((await t.as('teacher01').get(`/api/busi/web/k12/user/teacher/${await staffIdOf('teacher02')}`)).status).toBe(404);

    // The whole organisation again: everyone.
    await t.db.update(roles).set({ dataScope: 'org' }).where(eq(roles.id, teacherRole));
    const all = dataOf(await t.as('teacher01').get<Page<StaffListRow>>('/api/busi/web/k12/user/teacher/page?size=80')).records.map((r) => r.accountNum);
    expect(all).toEqual(expect.arrayContaining(['teacher02', 'school01']));
  });
});
