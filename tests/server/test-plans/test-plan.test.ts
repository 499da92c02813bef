import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import { planItemsForGrade } from '@/domain/test-plans/items';
import type { ClassCompletionRow, PlanDetail, PlanFormOptions, PlanRow, PlanSchoolOption, SignUpRow } from '@/domain/test-plans/types';
import { auditLogs } from '../../../server/db/schema/audit';
import { orgs } from '../../../server/db/schema/orgs';
import { physiqueResults } from '../../../server/db/schema/physique';
import { students, classes } from '../../../server/db/schema/school';
import { createTestApp, type TestApp } from '../../support/server-app';
import { planSchoolYear } from '../../support/factories';
import { data, day, demoIds, k12Plan, msg, planClient, type DemoIds } from './plan-fixtures';
import type { Family } from '@/domain/menus/access';

let t: TestApp;
let ids: DemoIds;
const tokens: Record<string, string> = {};
const client = (family: Family, account: string) => planClient(t, family, () => tokens[account]);

beforeAll(async () => {
  t = await createTestApp();
  for (const account of ['school01', 'teacher01', 'college01', 'district01']) tokens[account] = (await t.login(account)).access_token;
  ids = await demoIds(t);
});
afterAll(async () => {
  await t?.close();
});

describe('plan lifecycle (k12)', () => {
  let planId: string;

  it('creates a plan with default items per grade and answers its detail', async () => {
    const res = await client('k12', 'school01').post('add', k12Plan(t, ids));
    expect(res.statusCode, res.body).toBe(200);
    expect(msg(res)).toBe('保存成功');
    const detail = data<PlanDetail>(res);
    planId = detail.id;
    expect(detail).toMatchObject({
      name: '2026秋季体质测试',
      orgId: ids.k12Id,
      semesterCode: 13,
      status: 'inProgress',
      scopeType: 'grade',
      standardVersion: '2014',
      feeAmount: 12.5,
      feePrecision: 2,
      feeRounding: 'round',
      editable: true,
      runningJob: null,
    });
    expect(detail.scope.map((s) => s.gradeNo)).toEqual([7, 8]);
    expect(detail.items).toEqual([
      { gradeNo: 7, items: planItemsForGrade(7, '2014') },
      { gradeNo: 8, items: planItemsForGrade(8, '2014') },
    ]);
    // Grade 7 tests both genders' items: pull-ups and 1000 m for boys, sit-ups and 800 m for girls.
    expect(detail.items[0].items).toEqual(expect.arrayContaining(['pullUp', 'sitUp1min', 'run1000m', 'run800m']));
    const inScope = await t.db
      .select({ id: students.id })
      .from(students)
      .innerJoin(classes, eq(classes.id, students.classId))
      .where(eq(students.orgId, ids.k12Id));
    expect(detail.counts.students).toBeGreaterThan(0);
    expect(detail.counts.students).toBeLessThan(inScope.length);
    expect(detail.counts).toMatchObject({ tested: 0, complete: 0 });
  });

  it('lists it with filters and paging', async () => {
    const c = client('k12', 'school01');
    const page = data<Page<PlanRow>>(await c.get('page?current=1&size=10'));
    expect(page).toMatchObject({ current: 1, size: 10 });
    expect(page.records.map((r) => r.id)).toContain(planId);
    expect(page.records.find((r) => r.id === planId)).toMatchObject({ academicYear: '2026-2027', orgName: '南京市江宁区实验学校', status: 'inProgress' });
    const byName = data<Page<PlanRow>>(await c.get(`page?name=${encodeURIComponent('秋季')}`));
    expect(byName.records.map((r) => r.id)).toEqual([planId]);
    expect(data<Page<PlanRow>>(await c.get('page?name=nothing-like-it')).total).toBe(0);
    expect(data<Page<PlanRow>>(await c.get(`page?schoolYearId=${ids.k12Year}&semesterCode=13&status=inProgress`)).records.map((r) => r.id)).toContain(planId);
    expect(data<Page<PlanRow>>(await c.get('page?semesterCode=11')).total).toBe(0);
    expect(data<Page<PlanRow>>(await c.get('page?status=ended')).records.map((r) => r.id)).not.toContain(planId);
    expect(data<Page<PlanRow>>(await c.get('page?status=notStarted')).records.map((r) => r.id)).not.toContain(planId);
    expect((await c.get('page?size=7')).statusCode).toBe(400);
  });

  it('edits it: name, scope by classes, chosen items, fee rounding', async () => {
    const c = client('k12', 'school01');
    const seventh = ids.k12Classes.filter((k) => k.gradeNo === 7).slice(0, 2);
    const res = await c.post(
      `edit/${planId}`,
      k12Plan(t, ids, {
        name: '七年级体测',
        scopeType: 'class',
        scopeIds: seventh.map((k) => k.id),
        items: [{ gradeNo: 7, items: ['bmi', 'vitalCapacity', 'run50m'] }],
        feeAmount: 3.14159 as number,
      }),
    );
    // 5 decimals are refused: the fee accepts at most three.
    expect(res.statusCode).toBe(400);
    expect(msg(res)).toBe('测试报告费用最多保留三位小数');

    const ok = await c.post(
      `edit/${planId}`,
      k12Plan(t, ids, {
        name: '七年级体测',
        scopeType: 'class',
        scopeIds: seventh.map((k) => k.id),
        items: [{ gradeNo: 7, items: ['run50m', 'bmi', 'vitalCapacity'] }],
        feeAmount: 3.141,
        feePrecision: 1,
        feeRounding: 'up',
      }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    const detail = data<PlanDetail>(ok);
    expect(detail.name).toBe('七年级体测');
    expect(detail.scope.map((s) => s.id)).toEqual(seventh.map((k) => k.id));
    expect(detail.scope.map((s) => s.name)).toEqual(seventh.map((k) => k.name));
    expect(detail.items).toEqual([{ gradeNo: 7, items: ['bmi', 'vitalCapacity', 'run50m'] }]);
    expect(detail.feeAmount).toBe(3.2);
    const again = data<PlanDetail>(await c.get(`detail/${planId}`));
    expect(again).toEqual(detail);
  });

  it('answers the sign-up list and class completion, counting results', async () => {
    const c = client('k12', 'school01');
    const signUps = data<Page<SignUpRow>>(await c.get(`signUp/${planId}?size=80`));
    const detail = data<PlanDetail>(await c.get(`detail/${planId}`));
    expect(signUps.total).toBe(detail.counts.students);
    expect(signUps.records.every((r) => r.status === 'notTested' && r.gradeNo === 7)).toBe(true);

    // Two results: one complete, one incomplete (written directly; importing is another module's job).
    const [a, b] = signUps.records;
    await t.db.insert(physiqueResults).values([
      { orgId: ids.k12Id, planId, schoolYear: planSchoolYear(planId), studentId: a.studentId, classId: a.classId, gradeNo: 7, gender: a.gender, complete: true, total: 85.5, level: 'good', source: 'manual' },
      { orgId: ids.k12Id, planId, schoolYear: planSchoolYear(planId), studentId: b.studentId, classId: b.classId, gradeNo: 7, gender: b.gender, complete: false, source: 'manual' },
    ]);
    const complete = data<Page<SignUpRow>>(await c.get(`signUp/${planId}?status=complete`));
    expect(complete.records).toEqual([expect.objectContaining({ studentId: a.studentId, status: 'complete', total: 85.5, level: 'good', invalid: false })]);
    const incomplete = data<Page<SignUpRow>>(await c.get(`signUp/${planId}?status=incomplete`));
    expect(incomplete.records.map((r) => r.studentId)).toEqual([b.studentId]);
    expect(data<Page<SignUpRow>>(await c.get(`signUp/${planId}?status=notTested&size=80`)).total).toBe(signUps.total - 2);
    const byClass = data<Page<SignUpRow>>(await c.get(`signUp/${planId}?classId=${a.classId}&size=80`));
    expect(byClass.records.every((r) => r.classId === a.classId)).toBe(true);
    const byName = data<Page<SignUpRow>>(await c.get(`signUp/${planId}?keyword=${encodeURIComponent(a.regNo)}`));
    expect(byName.records.map((r) => r.studentId)).toEqual([a.studentId]);

    const counts = data<PlanDetail>(await c.get(`detail/${planId}`)).counts;
    expect(counts).toEqual({ students: signUps.total, tested: 2, complete: 1 });
    const perClass = data<ClassCompletionRow[]>(await c.get(`classCompletion/${planId}`));
    expect(perClass).toHaveLength(2);
    expect(perClass.reduce((s, r) => s + r.students, 0)).toBe(signUps.total);
    const rowA = perClass.find((r) => r.classId === a.classId)!;
    expect(rowA.complete).toBe(1);
    expect(rowA.rate).toBeCloseTo(1 / rowA.students, 4);
  });

  it('still edits a plan with results when the standard stays the same', async () => {
    const seventh = ids.k12Classes.filter((k) => k.gradeNo === 7).slice(0, 2);
    const res = await client('k12', 'school01').post(`edit/${planId}`, k12Plan(t, ids, { scopeType: 'class', scopeIds: seventh.map((k) => k.id) }));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('ends early at once; an ended plan cannot be edited, ended again, or joined', async () => {
    const c = client('k12', 'teacher01');
    const ended = await c.post(`end/${planId}`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(data<PlanDetail>(ended)).toMatchObject({ status: 'ended', editable: false });
    expect(data<PlanDetail>(ended).endedAt).toBe(t.clock.now().toISOString());

    const edit = await client('k12', 'school01').post(`edit/${planId}`, k12Plan(t, ids));
    expect(edit.statusCode).toBe(409);
    expect(msg(edit)).toBe('测试计划已结束，不能编辑');
    const editEn = await client('k12', 'school01').post(`edit/${planId}`, k12Plan(t, ids), 'en-US');
    expect(msg(editEn)).toBe('This test plan has ended and can no longer be edited.');
    expect(msg(await c.post(`end/${planId}`))).toBe('测试计划已结束');
    expect(data<Page<PlanRow>>(await c.get('page?status=ended')).records.map((r) => r.id)).toContain(planId);
  });

  it('deletes it (school01) into the recycle bin since it has results, but teacher01 holds no delete permission', async () => {
    const denied = await client('k12', 'teacher01').post(`delete/${planId}`);
    expect(denied.statusCode).toBe(403);
    const res = await client('k12', 'school01').post(`delete/${planId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(msg(res)).toBe('删除成功');
    expect(data(res)).toEqual({ binned: true });
    // Kept with its results, out of sight (tests/server/test-plans/plan-lifecycle.test.ts covers the bin).
    expect(await t.db.$count(physiqueResults, eq(physiqueResults.planId, planId))).toBe(2);
    expect((await client('k12', 'school01').get(`detail/${planId}`)).statusCode).toBe(404);
  });

  it('refuses deleting a plan in progress (end it first)', async () => {
    const c = client('k12', 'school01');
    const id = data<PlanDetail>(await c.post('add', k12Plan(t, ids))).id;
    const res = await c.post(`delete/${id}`);
    expect(res.statusCode).toBe(409);
    expect(msg(res)).toBe('测试计划进行中，请先提前结束再删除');
    expect((await c.post(`end/${id}`)).statusCode).toBe(200);
    expect((await c.post(`delete/${id}`)).statusCode).toBe(200);
  });
});

describe('operation log', () => {
  it('logs each plan write in the audit log with the plan, and a refused one not at all', async () => {
    const c = client('k12', 'school01');
    const logged = async (id: string) =>
      (await t.db.select({ action: auditLogs.action }).from(auditLogs).where(and(eq(auditLogs.entity, 'testPlan'), eq(auditLogs.entityId, id))).orderBy(auditLogs.at)).map((r) => r.action);
    const made = data<PlanDetail>(await c.post('add', k12Plan(t, ids)));
    expect(await logged(made.id)).toEqual(['create']);
    expect((await c.post(`delete/${made.id}`)).statusCode).toBe(409);
    expect((await c.post(`end/${made.id}`)).statusCode).toBe(200);
    expect((await c.post(`end/${made.id}`)).statusCode).toBe(409);
    expect((await c.post(`delete/${made.id}`)).statusCode).toBe(200);
    expect(await logged(made.id)).toEqual(['create', 'end', 'delete']);
  });
});

describe('validation messages', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['name of 21 characters', { name: '一二三四五六七八九十一二三四五六七八九十一' }, '计划名称长度为1-20个字符', 'The plan name must be 1 to 20 characters.'],
    ['empty name', { name: '  ' }, '请填写计划名称', 'Enter a plan name.'],
    ['fee 0.001', { feeAmount: 0.001 }, '测试报告费用不能低于0.01元', 'The test report fee must be at least 0.01 CNY.'],
    ['end before start', { startDate: '2026-11-10', endDate: '2026-11-09' }, '结束日期不能早于开始日期', 'The end date cannot be earlier than the start date.'],
    ['semester 12', { semesterCode: 12 }, '请选择学期', 'Choose a semester.'],
    ['unknown standard', { standardVersion: '1999' }, '请选择有效的评分标准', 'Choose a valid scoring standard.'],
    ['no scope', { scopeIds: [] }, '请选择测试范围', 'Choose the grades, classes or colleges to test.'],
    [
      'an item outside the grade',
      { items: [{ gradeNo: 7, items: ['rope1min'] }] },
      '所选项目不属于该年级的测试标准',
      'A chosen item is not part of the standard for this grade.',
    ],
    ['a grade with no items', { items: [{ gradeNo: 7, items: [] }] }, '每个年级至少选择一个测试项目', 'Choose at least one test item for each grade.'],
    [
      'fee rounded to zero',
      { feeAmount: 0.3, feePrecision: 0, feeRounding: 'down' },
      '按所选精度取舍后测试报告费用低于0.01元',
      'With the chosen precision and rounding, the test report fee falls below 0.01 CNY.',
    ],
  ];
  for (const [what, over, zh, en] of cases) {
    it(`refuses ${what} in zh_cn and en-US`, async () => {
      const c = client('k12', 'school01');
      const body = { ...k12Plan(t, ids), ...over };
      const res = await c.post('add', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: '400', msg: zh });
      expect(msg(await c.post('add', body, 'en-US'))).toBe(en);
    });
  }

  it('refuses a scope id of another organisation', async () => {
    const c = client('k12', 'school01');
    const body = k12Plan(t, ids, { scopeType: 'class', scopeIds: [ids.uniClasses[0]] });
    const res = await c.post('add', body);
    expect(res.statusCode).toBe(400);
    expect(msg(res)).toBe('所选测试范围不存在或不属于该学校');
    expect(msg(await c.post('add', body, 'en-US'))).toBe('A chosen grade, class or college does not exist or does not belong to this school.');
    // A school year of another school, and a college scope in a K12 school.
    expect(msg(await c.post('add', k12Plan(t, ids, { schoolYearId: ids.uniYear })))).toBe('所选学年不存在或不属于该学校');
    expect(msg(await c.post('add', k12Plan(t, ids, { scopeType: 'college', scopeIds: [ids.uniColleges[0]] })))).toBe('该学校不支持此测试范围类型');
  });

  it('accepts a fee left empty (no report fee) and rounds a given one half up', async () => {
    const c = client('k12', 'school01');
    const free = data<PlanDetail>(await c.post('add', { ...k12Plan(t, ids), feeAmount: '' }));
    expect(free.feeAmount).toBeNull();
    const rounded = data<PlanDetail>(await c.post('add', k12Plan(t, ids, { feeAmount: 1.005, feePrecision: 2, feeRounding: 'round' })));
    expect(rounded.feeAmount).toBe(1.01);
  });
});

describe('permissions and organisation scope', () => {
  it('teacher01 (PE teacher) lists, adds and ends plans, but may not delete them', async () => {
    const c = client('k12', 'teacher01');
    expect((await c.get('page')).statusCode).toBe(200);
    const added = await c.post('add', k12Plan(t, ids, { name: '教师创建的计划', startDate: day(t, 5), endDate: day(t, 9) }));
    expect(added.statusCode, added.body).toBe(200);
    const id = data<PlanDetail>(added).id;
    expect(data<PlanDetail>(added).status).toBe('notStarted');
    expect((await c.get(`detail/${id}`)).statusCode).toBe(200);
    expect((await c.post(`delete/${id}`)).statusCode).toBe(403);
    expect((await client('k12', 'school01').post(`delete/${id}`)).statusCode).toBe(200);
  });

  it('a family whose codes the role lacks answers 403', async () => {
    expect((await client('gx', 'school01').get('page')).statusCode).toBe(403);
    expect((await client('admin', 'school01').get('page')).statusCode).toBe(403);
    expect((await client('k12', 'college01').get('page')).statusCode).toBe(403);
  });

  it("the university's plans stay invisible to school01 (404, never served)", async () => {
    const gx = client('gx', 'college01');
    const options = data<PlanFormOptions>(await gx.get('options'));
    expect(options.scopeTypes).toEqual(['college', 'grade', 'class']);
    const res = await gx.post('add', {
      name: '大学体测',
      schoolYearId: ids.uniYear,
      semesterCode: 13,
      startDate: day(t, 0),
      endDate: day(t, 30),
      scopeType: 'college',
      scopeIds: [ids.uniColleges[0]],
    });
    expect(res.statusCode, res.body).toBe(200);
    const uniPlan = data<PlanDetail>(res);
    expect(uniPlan.items.map((g) => g.gradeNo)).toEqual([13, 14, 15, 16]);
    expect(uniPlan.counts.students).toBeGreaterThan(0);
    expect(uniPlan.scope).toEqual([expect.objectContaining({ id: ids.uniColleges[0], name: '体育学院' })]);

    const k12 = client('k12', 'school01');
    expect(data<Page<PlanRow>>(await k12.get('page?size=80')).records.map((r) => r.id)).not.toContain(uniPlan.id);
    for (const path of [`detail/${uniPlan.id}`, `signUp/${uniPlan.id}`, `classCompletion/${uniPlan.id}`]) {
      const r = await k12.get(path);
      expect(r.statusCode, path).toBe(404);
      expect(r.json()).toEqual({ code: '404', data: null, msg: '数据不存在或不属于当前组织' });
    }
    for (const path of [`edit/${uniPlan.id}`, `end/${uniPlan.id}`, `delete/${uniPlan.id}`]) {
      expect((await k12.post(path, path.startsWith('edit') ? k12Plan(t, ids) : undefined)).statusCode, path).toBe(404);
    }
    expect((await k12.get('detail/not-a-uuid')).statusCode).toBe(404);
    expect(data<PlanDetail>(await gx.get(`detail/${uniPlan.id}`)).status).toBe('inProgress');
  });

  it('admin district01 sees the plans of its schools and plans for a chosen school', async () => {
    const admin = client('admin', 'district01');
    const schools = data<PlanSchoolOption[]>(await admin.get('schools'));
    // Every school of the district, the demo's second school (no tests yet) included.
    const district = (await t.db.select({ id: orgs.id }).from(orgs).where(eq(orgs.parentId, ids.bureauId))).map((o) => o.id);
    expect(district).toEqual(expect.arrayContaining([ids.k12Id, ids.uniId]));
    expect(schools.map((s) => s.id).sort()).toEqual(district.sort());

    const missing = await admin.post('add', k12Plan(t, ids));
    expect(missing.statusCode).toBe(400);
    expect(msg(missing)).toBe('请选择学校');
    const foreign = await admin.post('add', k12Plan(t, ids, { schoolOrgId: ids.bureauId }));
    expect(msg(foreign)).toBe('所选学校不存在或不在本单位管辖范围内');

    const options = data<PlanFormOptions>(await admin.get(`options?schoolOrgId=${ids.k12Id}`));
    expect(options).toMatchObject({ orgId: ids.k12Id, scopeTypes: ['grade', 'class'] });
    expect(options.schoolYears.map((y) => y.id)).toContain(ids.k12Year);
    expect(options.itemsByVersion['2014'].find((g) => g.gradeNo === 1)?.items).toEqual(planItemsForGrade(1, '2014'));

    const created = await admin.post('add', k12Plan(t, ids, { name: '区级统一体测', schoolOrgId: ids.k12Id }));
    expect(created.statusCode, created.body).toBe(200);
    const plan = data<PlanDetail>(created);
    expect(plan.orgId).toBe(ids.k12Id);

    const list = data<Page<PlanRow>>(await admin.get('page?size=80'));
    const orgsListed = new Set(list.records.map((r) => r.orgId));
    expect(orgsListed).toEqual(new Set([ids.k12Id, ids.uniId]));
    expect(data<Page<PlanRow>>(await admin.get(`page?size=80&schoolOrgId=${ids.uniId}`)).records.every((r) => r.orgId === ids.uniId)).toBe(true);
    // The demo seed also holds plans of earlier school years: the filter keeps only this year's.
    const thisYear = data<Page<PlanRow>>(await admin.get('page?academicYear=2026-2027&size=80'));
    expect(thisYear.total).toBe(list.records.filter((r) => r.academicYear === '2026-2027').length);
    expect(thisYear.records.map((r) => r.id)).toContain(plan.id);
    expect((await admin.get(`detail/${plan.id}`)).statusCode).toBe(200);
    // The school sees the plan its bureau wrote for it.
    expect(data<Page<PlanRow>>(await client('k12', 'school01').get('page?size=80')).records.map((r) => r.id)).toContain(plan.id);
  });
});
