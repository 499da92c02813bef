import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import { ORG_TYPE } from '@/domain/constants';
import { convertPoints, type ConversionRow } from '@/domain/conversion/conversion';
import type { PlanDetail, PlanFormOptions } from '@/domain/test-plans/types';
import type { StudentReport } from '@/domain/physique-results/types';
import { auditLogs } from '../../../server/db/schema/audit';
import { conversionTables } from '../../../server/db/schema/conversion';
import { physiqueResults } from '../../../server/db/schema/physique';
import { schoolYears } from '../../../server/db/schema/school';
import { testPlans } from '../../../server/db/schema/test-plans';
import { writeXlsx } from '../../../server/lib/spreadsheet/xlsx-writer';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { currentGrade, dataOf, orgOf } from '../../support/factories';
import { waitForJob } from '../../support/jobs';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
const BASE = '/api/busi/web/admin/physiqueManage/conversion';
const PLANS = '/api/busi/web/k12/organizeTest/testManage';

beforeAll(async () => {
  t = await createTestApp({ jobWorker: true });
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
});
afterAll(async () => {
  await t?.close();
});

const steps = [
  { min: 60, points: 30 },
  { min: 80, points: 40 },
  { min: 95, points: 50 },
];
const table = (over: Record<string, unknown> = {}) => ({ name: '测试换算表', stage: 'junior', year: 2031, basis: 'total', maxPoints: 50, note: '', rows: steps, ...over });

/** A multipart upload with form fields before the file (the import dialog's table head). */
function upload(fields: Record<string, string | number>, rows: unknown[][], fileName = 'steps.xlsx') {
  const boundary = `----tiyu${randomUUID().replace(/-/g, '')}`;
  const parts = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  const file = writeXlsx([{ name: '换算档位', rows }]);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
  );
  return { payload: Buffer.concat([...parts, head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const importAs = async (account: string, fields: Record<string, string | number>, rows: unknown[][], language = 'zh-CN') => {
  const body = upload(fields, rows);
  return t.request({ method: 'POST', url: `${BASE}/import`, token: await t.as(account).token(), payload: body.payload, headers: { ...body.headers, 'accept-language': language } });
};
const tableCount = () => t.db.$count(conversionTables);

describe('conversion tables: a district uploads, versioned', () => {
  it('adds a version per upload of the same stage and year; old versions stay readable; every write audited', async () => {
    const first = dataOf(await t.as('district01').post<ConversionRow>(BASE, table()));
    expect(first).toMatchObject({ tableVersion: 1, stage: 'junior', year: 2031, plans: 0, sample: false, rows: steps });
    const second = dataOf(await t.as('district01').post<ConversionRow>(BASE, table({ name: '测试换算表（修订）', rows: [{ min: 60, points: 32 }, ...steps.slice(1)] })));
    expect(second.tableVersion).toBe(2);
    // Another year starts again at version 1.
    expect(dataOf(await t.as('district01').post<ConversionRow>(BASE, table({ year: 2032 }))).tableVersion).toBe(1);
    expect(dataOf(await t.as('district01').get<ConversionRow>(`${BASE}/${first.id}`)).rows).toEqual(steps);
    const page = dataOf(await t.as('district01').get<Page<ConversionRow>>(`${BASE}/page?stage=junior&size=50`));
    expect(page.records.filter((r) => r.year === 2031).map((r) => r.tableVersion)).toEqual([2, 1]);
    const logged = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'conversionTable'), eq(auditLogs.entityId, second.id)));
    expect(logged.map((l) => l.action)).toEqual(['create']);
  });

  it('refuses bad steps with the rule in the user’s language, on the step’s field, writing nothing', async () => {
    const before = await tableCount();
    const unordered = await t.as('district01', { language: 'en-US' }).post(BASE, table({ rows: [steps[1], steps[0]] }));
    expect(unordered.status).toBe(400);
    expect(unordered.body).toMatchObject({ msg: 'Thresholds must go from low to high: this one is below the step before.', data: { field: 'rows.1.min' } });
    const overlap = await t.as('district01').post(BASE, table({ rows: [steps[0], { min: 60, points: 35 }] }));
    expect(overlap.body).toMatchObject({ msg: '分数线与上一档相同，档位重叠', data: { field: 'rows.1.min' } });
    const negative = await t.as('district01').post(BASE, table({ rows: [{ min: 60, points: -1 }] }));
    expect(negative.body).toMatchObject({ msg: '换算分须为不小于 0 的数，最多两位小数', data: { field: 'rows.0.points' } });
    const aboveMax = await t.as('district01', { language: 'en-US' }).post(BASE, table({ maxPoints: 40 }));
    expect(aboveMax.body).toMatchObject({ msg: 'Exam points cannot exceed the full marks.', data: { field: 'rows.2.points' } });
    const falling = await t.as('district01').post(BASE, table({ rows: [{ min: 60, points: 30 }, { min: 70, points: 20 }] }));
    expect(falling.body.msg).toBe('分数线更高的档，换算分不能比上一档低');
    expect(await tableCount()).toBe(before);
  });

  it('imports a file as a new version; a bad row refuses the whole file, named by its row in the user’s language', async () => {
    const template = await t.request({ url: `${BASE}/import/template`, token: await t.as('district01').token() });
    expect(template.statusCode).toBe(200);
    expect((await readXlsxRows(template.rawPayload)).rows[0]).toEqual(['分数线', '换算分']);

    const head = { name: '导入换算表', stage: 'junior', year: 2033, basis: 'run50m', maxPoints: 10 };
    const ok = await importAs('district01', head, [['分数线', '换算分'], [60, 6], [80, 8], [90, 10]]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers['x-import-success']).toBe('3');
    const [made] = await t.db.select().from(conversionTables).where(eq(conversionTables.year, 2033));
    expect(made).toMatchObject({ name: '导入换算表', basis: 'run50m', tableVersion: 1, rows: [{ min: 60, points: 6 }, { min: 80, points: 8 }, { min: 90, points: 10 }] });
    // A second upload of the same stage and year is version 2.
    expect((await importAs('district01', head, [['分数线', '换算分'], [50, 5]])).headers['x-import-success']).toBe('1');
    expect(await t.db.$count(conversionTables, eq(conversionTables.year, 2033))).toBe(2);

    const before = await tableCount();
    const bad = await importAs('district01', head, [['分数线', '换算分'], [60, 6], [55, 7], [70, 12]], 'en-US');
    expect(bad.statusCode).toBe(200);
    expect(bad.headers['x-import-success']).toBe('0');
    expect(bad.headers['x-import-failure']).toBe('2');
    const reasons = (await readXlsxRows(bad.rawPayload)).rows.slice(1).map((r) => String(r.at(-1)));
    expect(reasons[0]).toContain('Thresholds must go from low to high');
    expect(reasons[0]).toMatch(/3/);
    expect(reasons[1]).toContain('Exam points cannot exceed the full marks.');
    expect(await tableCount()).toBe(before);
    // The head is checked too: a missing name is the field's message, nothing read.
    const noName = await importAs('district01', { ...head, name: '' }, [['分数线', '换算分'], [60, 6]]);
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toMatchObject({ msg: '请输入换算表名称', data: { field: 'name' } });
  });
});

describe('a plan applies a version of its district', () => {
  async function planBody(over: Record<string, unknown> = {}) {
    const options = dataOf(await t.as('school01').get<PlanFormOptions>(`${PLANS}/options`));
    const year = options.schoolYears.find((y) => y.current)!;
    const grade = await currentGrade(t, { gradeNo: 8 });
    return { options, body: { name: `换算计划${Date.now() % 10000}`, schoolYearId: year.id, semesterCode: 13, startDate: '2026-12-01', endDate: '2026-12-20', scopeType: 'grade', scopeIds: [grade.id], ...over } };
  }

  it('offers the district’s versions, applies one, refuses another district’s and a stage the plan lacks', async () => {
    const junior = dataOf(await t.as('district01').post<ConversionRow>(BASE, table({ year: 2040 })));
    const senior = dataOf(await t.as('district01').post<ConversionRow>(BASE, table({ year: 2040, stage: 'senior' })));
    // A bureau below the district (not above the school) publishes a table of its own.
    const made = await t.as('district01').post('/api/busi/web/admin/orgManage/orgInfo', { name: '下级教育局91', code: '91', type: ORG_TYPE.management, adminName: '管理员', adminAccount: 'subbureau91', adminPassword: 'Pass1234' });
    expect(made.status).toBe(200);
    const token = (await t.login('subbureau91', 'Pass1234')).access_token;
    const foreign = await t.request({ method: 'POST', url: BASE, token, payload: table({ year: 2040 }) });
    expect(foreign.statusCode, foreign.body).toBe(200);
    const foreignId = foreign.json<{ data: ConversionRow }>().data.id;
    // …which the district cannot read either (404, never 403).
    expect((await t.as('district01').get(`${BASE}/${foreignId}`)).status).toBe(404);

    const { options, body } = await planBody();
    expect(options.conversionTables.map((o) => o.id)).toEqual(expect.arrayContaining([junior.id, senior.id]));
    expect(options.conversionTables.map((o) => o.id)).not.toContain(foreignId);

    const before = await t.db.$count(testPlans);
    const refused = await t.as('school01', { language: 'en-US' }).post(`${PLANS}/add`, { ...body, conversionTableId: foreignId });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ msg: 'A plan can only apply a table published by a management organisation above its school.', data: { field: 'conversionTableId' } });
    const wrongStage = await t.as('school01').post(`${PLANS}/add`, { ...body, conversionTableId: senior.id });
    expect(wrongStage.body).toMatchObject({ msg: '换算表的学段与计划中的年级不符', data: { field: 'conversionTableId' } });
    expect(await t.db.$count(testPlans)).toBe(before);

    const plan = dataOf(await t.as('school01').post<PlanDetail>(`${PLANS}/add`, { ...body, conversionTableId: junior.id }));
    expect(plan.conversion).toMatchObject({ id: junior.id, tableVersion: 1, stage: 'junior' });
    // An edit that leaves the field out keeps the table; a blank one clears it.
    expect(dataOf(await t.as('school01').post<PlanDetail>(`${PLANS}/edit/${plan.id}`, body)).conversion?.id).toBe(junior.id);

    // The version the plan applies is frozen: no edit, no delete (409); the district publishes a new version instead.
    const row = dataOf(await t.as('district01').get<ConversionRow>(`${BASE}/${junior.id}`));
    expect(row.plans).toBe(1);
    const edit = await t.as('district01').put(`${BASE}/${junior.id}`, { ...table({ year: 2040 }), version: row.version });
    expect(edit.status).toBe(409);
    expect(edit.body.msg).toBe('已有测试计划应用此版本，不能修改；请上传或新增一个新版本');
    const del = await t.as('district01').delete(`${BASE}/${junior.id}`);
    expect(del.status).toBe(409);
    expect(await t.db.$count(conversionTables, eq(conversionTables.id, junior.id))).toBe(1);

    expect(dataOf(await t.as('school01').post<PlanDetail>(`${PLANS}/edit/${plan.id}`, { ...body, conversionTableId: '' })).conversion).toBeNull();
    expect((await t.as('district01').delete(`${BASE}/${junior.id}`)).status).toBe(200);
    // An unused version edits in place.
    const edited = await t.as('district01').put<ConversionRow>(`${BASE}/${senior.id}`, { ...table({ year: 2040, stage: 'senior', name: '改名' }), version: senior.version });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ name: '改名', tableVersion: 1, version: senior.version + 1 });
  });
});

describe('the report and the score export show the converted points', () => {
  it('the demo’s sample table converts the junior students of the K12 school’s current plan', async () => {
    const k12 = (await orgOf(t, 'school01')).orgId;
    const [sample] = await t.db.select().from(conversionTables).where(eq(conversionTables.sample, true));
    expect(sample).toMatchObject({ stage: 'junior', basis: 'total', name: expect.stringContaining('示例') });
    const [current] = await t.db
      .select({ id: testPlans.id })
      .from(testPlans)
      .innerJoin(schoolYears, eq(schoolYears.id, testPlans.schoolYearId))
      .where(and(eq(testPlans.orgId, k12), eq(schoolYears.current, true)));
    const [junior] = await t.db
      .select()
      .from(physiqueResults)
      .where(and(eq(physiqueResults.planId, current.id), eq(physiqueResults.gradeNo, 8), isNotNull(physiqueResults.total), eq(physiqueResults.invalid, false)))
      .limit(1);
    const report = dataOf(await t.as('school01').get<StudentReport>(`/api/busi/web/k12/physique/report/${junior.studentId}?planId=${current.id}`));
    expect(report.examPoints).toEqual({ points: convertPoints(sample.rows, junior.total), maxPoints: 50, tableName: sample.name, version: 1, basis: 'total', sample: true });
    // An invalid result converts to nothing.
    const [another] = await t.db
      .select()
      .from(physiqueResults)
      .where(and(eq(physiqueResults.planId, current.id), eq(physiqueResults.gradeNo, 9), isNotNull(physiqueResults.total), eq(physiqueResults.invalid, false)))
      .limit(1);
    expect((await t.as('school01').post('/api/busi/web/k12/organizeTest/scoreSearch/invalid', { ids: [another.id] })).status).toBe(200);
    expect(dataOf(await t.as('school01').get<StudentReport>(`/api/busi/web/k12/physique/report/${another.studentId}?planId=${current.id}`)).examPoints).toBeNull();
    const [primary] = await t.db.select().from(physiqueResults).where(and(eq(physiqueResults.planId, current.id), eq(physiqueResults.gradeNo, 3))).limit(1);
    expect(dataOf(await t.as('school01').get<StudentReport>(`/api/busi/web/k12/physique/report/${primary.studentId}?planId=${current.id}`)).examPoints).toBeNull();

    const token = await t.as('school01').token();
    const exportOf = async (filter: Record<string, unknown>) => {
      const start = await t.request({ method: 'POST', url: '/api/busi/web/k12/organizeTest/scoreSearch/export', token, payload: filter });
      expect(start.statusCode, start.body).toBe(200);
      const { id } = start.json<{ data: { id: string } }>().data;
      expect((await waitForJob(t, token, id)).at(-1)!.state).toBe('done');
      return (await readXlsxRows((await t.request({ url: `/api/busi/web/jobs/${id}/download`, token })).rawPayload)).rows;
    };
    const rows = await exportOf({ planId: current.id, gradeNo: 8 });
    const header = rows[0].map(String);
    const col = header.indexOf('中考体育换算分');
    expect(col).toBe(header.length - 1);
    const totalCol = header.indexOf('总分');
    for (const r of rows.slice(1)) {
      const cell = (i: number) => (r[i] == null || r[i] === '' ? null : Number(r[i]));
      const total = cell(totalCol);
      const invalid = String(r[header.length - 2]) !== '有效';
      expect(cell(col)).toBe(invalid ? null : convertPoints(sample.rows, total));
    }
    // A year whose plan applies no table: no such column.
    const [past] = await t.db.select({ id: schoolYears.id }).from(schoolYears).where(and(eq(schoolYears.orgId, k12), eq(schoolYears.academicYear, '2025-2026')));
    expect((await exportOf({ schoolYearId: past.id, gradeNo: 8 }))[0]).not.toContain('中考体育换算分');
  });
});

describe('tenancy and permissions', () => {
  it('schools and read-only roles cannot reach the district’s tables', async () => {
    const [sample] = await t.db.select().from(conversionTables).where(eq(conversionTables.sample, true));
    expect((await t.as('school01').get(`${BASE}/page`)).status).toBe(403);
    expect((await t.as('school01').post(BASE, table())).status).toBe(403);
    expect((await t.as('jiaoyan01').post(BASE, table())).status).toBe(403);
    expect((await t.as('jiaoyan01').delete(`${BASE}/${sample.id}`)).status).toBe(403);
    const before = await tableCount();
    expect((await importAs('jiaoyan01', { name: 'x', stage: 'junior', year: 2030, basis: 'total', maxPoints: 10 }, [['分数线', '换算分'], [1, 1]])).statusCode).toBe(403);
    expect(await tableCount()).toBe(before);
  });
});
