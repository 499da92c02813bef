/**
 * Every console route describes its answer in the API document (/api/docs, server/lib/openapi.ts): the data of its
 * envelope has a schema from src/domain, wired through the kits' `response` / `answer` options. The only routes left
 * without one are file downloads (a workbook, a PDF, an image: no envelope). The second half checks that the described answers are what the routes really answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeSchema, pageSchema } from '@/domain/api';
import type { z } from 'zod';
import { currentOrgSchema } from '@/domain/org-manage/current-org';
import { departmentRowsSchema } from '@/domain/org-manage/departments';
import { orgDetailSchema, orgRowsSchema } from '@/domain/org-manage/orgs';
import { parentRecordSchema } from '@/domain/people/parents';
import { staffFormOptionsSchema, staffListRowSchema, staffRowSchema } from '@/domain/people/staff';
import { studentDetailSchema, studentFormOptionsSchema, studentRecordSchema } from '@/domain/people/students';
import { studentImportOptionsSchema } from '@/domain/people/people-import';
import { operationLogDetailSchema, operationLogPageSchema, onlineSessionRowSchema, signInLogPageSchema } from '@/domain/platform/logs';
import { permissionTreeSchema } from '@/domain/roles/permission-tree';
import { roleDetailSchema, roleMemberSchema, roleRowSchema } from '@/domain/roles/roles';
import { classFormOptionsSchema } from '@/domain/school/classes';
import { collegeDetailSchema, majorDetailSchema, majorFormOptionsSchema } from '@/domain/school/colleges';
import { gradeDetailSchema, gradeFormOptionsSchema, gradeRowsSchema } from '@/domain/school/grades';
import { rolloverPreviewSchema } from '@/domain/school/rollover';
import { schoolYearDetailSchema, schoolYearRowsSchema } from '@/domain/school/school-years';
import { userFormOptionsSchema, userRowSchema } from '@/domain/users/users';
import { deviceOptionsSchema, deviceRowSchema } from '@/domain/venue/devices';
import { venueRowSchema } from '@/domain/venue/venues';
import { classListViewSchema, classViewSchema, dataCenterOptionsSchema, gradeViewSchema, schoolViewSchema, studentListPageSchema, studentViewSchema } from '@/domain/data-center/types';
import { districtOverviewSchema } from '@/domain/data-center/district';
import { screenLinkRowSchema } from '@/domain/wall/wall';
import { classCompletionRowSchema, planDetailSchema, planFormOptionsSchema, planRowSchema, planSchoolOptionSchema, signUpRowSchema } from '@/domain/test-plans/answers';
import { resultDetailSchema, scoreSearchPageSchema, studentReportSchema, syncPreviewSchema, testRecordRowSchema } from '@/domain/physique-results/answers';
import { menuTreeSchema, uInfoSchema } from '@/domain/auth/answers';
import { menuCustomRowSchema } from '@/domain/menus/customize';
import { createTestApp, type TestApp } from '../support/server-app';
import { DEMO, createGrade, dataOf } from '../support/factories';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  [k: string]: unknown;
}

let t: TestApp;
let paths: Record<string, Record<string, Operation>>;
beforeAll(async () => {
  t = await createTestApp({ seeded: true });
  const res = await t.app.inject({ url: '/api/docs/console/json' });
  expect(res.statusCode).toBe(200);
  paths = res.json<{ paths: typeof paths }>().paths;
});
afterAll(async () => t?.close());

/** A route's path after the family (`/api/busi/web/k12/org/class/{id}` → `org/class/{id}`). */
const FAMILIES = new Set(['admin', 'k12', 'gx', 'single']);
function relative(path: string): string {
  const rest = path.slice('/api/busi/web/'.length).replace(/\/$/, '');
  const [first, ...more] = rest.split('/');
  return FAMILIES.has(first) ? more.join('/') : rest;
}

/** File downloads: their 200 is a file, not an envelope, so there is no data to describe. */
const FILE_DOWNLOADS: RegExp[] = [
  /(^|\/)export(\/\{\w+\})?$/, // workbooks of lists
  /(^|\/)import\/template$/, // import templates
  /\.pdf$/, // meet documents
  /\/print$/, // a lesson's printable report (PDF)
  /\/cover$/, // lesson resource covers
  /^org\/class\/import$/, // the class import's failures workbook (its dry run answers the preview)
  /^jobs\/\{id\}\/download$/, // a finished job's stored file
  /\/entries\/import$|^sportsMeet\/records\/import$|^organizeTest\/testManage\/import\/\{planId\}$/, // imports answering a failures workbook
  /^physiqueManage\/conversion\/import$/, // a conversion table's upload: its failures workbook
  /^myInfo\/notices\/\{id\}\/files\/\{fileId\}$/, // a notice's attachment, read through the notice
  /^system\/exportApproval\/\{id\}\/download$/, // an approved export's workbook
  /^myInfo\/exports\/\{id\}\/download$/, // the same, on the requester's 我的导出
  /^system\/retention\/archives\/\{id\}$/, // an archive of removed operation-log rows
  /^system\/retention\/access-log-archives\/\{id\}$/, // an archived day of the access log (gzip JSON Lines)
  /^system\/dataRequest\/\{id\}\/download$/, // a child's data, for the school handling a parent's request
];


/** The data schema of a route's answer, or undefined when it has none (or only `{}`). */
function dataOf200(op: Operation): JsonSchema | undefined {
  const schema = op.responses['200']?.content?.['application/json']?.schema;
  return schema?.properties?.data;
}
const isEmpty = (s: JsonSchema | undefined) => !s || Object.keys(s).length === 0;
/** Whether a data schema says something: not `{}`, and a page's rows not `{}` either. */
function described(data: JsonSchema | undefined): boolean {
  if (isEmpty(data)) return false;
  const records = data!.properties?.records;
  if (records && data!.properties?.total) return !isEmpty(records.items);
  return true;
}

describe('console API document: answers', () => {
  it('describes the answer of every console route but file downloads', () => {
    const missing: string[] = [];
    let count = 0;
    for (const [path, ops] of Object.entries(paths)) {
      const rel = relative(path);
      for (const [method, op] of Object.entries(ops)) {
        count++;
        if (described(dataOf200(op))) continue;
        if (FILE_DOWNLOADS.some((p) => p.test(rel))) continue;
        missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(count).toBeGreaterThan(300);
    expect(missing).toEqual([]);
  });

  it('answers a file, not an envelope, on the routes allowed without a schema', async () => {
    // The allowance is for downloads only: a listed export answers a workbook.
    const res = await t.as(DEMO.school).get('/api/busi/web/k12/device/export');
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toContain('spreadsheetml');
  });
});

/** Fetches a read and checks its answer against the documented schema (strict at the top: no undocumented field). */
async function fits(account: string, url: string, schema: z.ZodType, post?: { body: unknown }) {
  const answer = post ? await t.as(account).post(url, post.body) : await t.as(account).get(url);
  dataOf(answer);
  const parsed = envelopeSchema(schema).safeParse(answer.json);
  expect(parsed.error, `${url}: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`).toBeUndefined();
  return answer.body.data as never;
}
const strictObject = (s: z.ZodType) => ('strict' in s && typeof s.strict === 'function' ? (s.strict() as z.ZodType) : s);
const page = (row: z.ZodType) => pageSchema(strictObject(row));

describe('the described answers are what the routes answer', () => {
  const k12 = '/api/busi/web/k12';
  const gx = '/api/busi/web/gx';
  const admin = '/api/busi/web/admin';

  it('school structure', async () => {
    const years = await fits(DEMO.school, `${k12}/org/acayear/page`, page(schoolYearDetailSchema));
    await fits(DEMO.school, `${k12}/org/acayear/${(years as { records: { id: string }[] }).records[0].id}`, strictObject(schoolYearDetailSchema));
    await fits(DEMO.school, `${k12}/org/acayear/list`, schoolYearRowsSchema);
    const grades = await fits(DEMO.school, `${k12}/org/grade/page`, page(gradeDetailSchema));
    await fits(DEMO.school, `${k12}/org/grade/${(grades as { records: { id: string }[] }).records[0].id}`, strictObject(gradeDetailSchema));
    await fits(DEMO.school, `${k12}/org/grade/list`, gradeRowsSchema);
    await fits(DEMO.school, `${k12}/org/grade/options`, strictObject(gradeFormOptionsSchema));
    await fits(DEMO.school, `${k12}/org/class/options`, strictObject(classFormOptionsSchema));
    await fits(DEMO.school, `${k12}/org/acayear/rollover/preview`, strictObject(rolloverPreviewSchema));
    const colleges = await fits(DEMO.college, `${gx}/org/college/page`, page(collegeDetailSchema));
    await fits(DEMO.college, `${gx}/org/college/${(colleges as { records: { id: string }[] }).records[0].id}`, strictObject(collegeDetailSchema));
    const majors = await fits(DEMO.college, `${gx}/org/major/page`, page(majorDetailSchema));
    await fits(DEMO.college, `${gx}/org/major/${(majors as { records: { id: string }[] }).records[0].id}`, strictObject(majorDetailSchema));
    await fits(DEMO.college, `${gx}/org/major/options`, strictObject(majorFormOptionsSchema));
  });

  it('people and accounts', async () => {
    const staff = await fits(DEMO.school, `${k12}/user/teacher/page`, page(staffListRowSchema));
    await fits(DEMO.school, `${k12}/user/teacher/${(staff as { records: { id: string }[] }).records[0].id}`, strictObject(staffRowSchema));
    await fits(DEMO.school, `${k12}/user/teacher/options`, strictObject(staffFormOptionsSchema));
    const students = await fits(DEMO.school, `${k12}/user/student/page`, page(studentRecordSchema));
    await fits(DEMO.school, `${k12}/user/student/${(students as { records: { id: string }[] }).records[0].id}`, strictObject(studentDetailSchema));
    await fits(DEMO.school, `${k12}/user/student/options`, strictObject(studentFormOptionsSchema));
    await fits(DEMO.school, `${k12}/user/student/import/options`, strictObject(studentImportOptionsSchema));
    const parents = await fits(DEMO.school, `${k12}/user/parent/page`, page(parentRecordSchema));
    await fits(DEMO.school, `${k12}/user/parent/${(parents as { records: { id: string }[] }).records[0].id}`, strictObject(parentRecordSchema));
    const users = await fits(DEMO.district, `${admin}/user/page`, page(userRowSchema));
    await fits(DEMO.district, `${admin}/user/${(users as { records: { id: string }[] }).records[0].id}`, strictObject(userRowSchema));
    await fits(DEMO.district, `${admin}/user/options`, strictObject(userFormOptionsSchema));
    const roles = await fits(DEMO.school, `${k12}/role/page`, page(roleRowSchema));
    const roleId = (roles as { records: { id: string }[] }).records[0].id;
    await fits(DEMO.school, `${k12}/role/${roleId}`, strictObject(roleDetailSchema));
    await fits(DEMO.school, `${k12}/role/${roleId}/members`, page(roleMemberSchema));
    await fits(DEMO.school, `${k12}/role/menu-tree`, permissionTreeSchema);
  });

  it('organisations, venues and logs', async () => {
    await fits(DEMO.school, `${k12}/currentOrg/`, strictObject(currentOrgSchema));
    const tree = await fits(DEMO.district, `${admin}/orgManage/orgInfo/tree`, orgRowsSchema);
    await fits(DEMO.district, `${admin}/orgManage/orgInfo/${(tree as { id: string; parentId: string | null }[]).find((o) => o.parentId)!.id}`, strictObject(orgDetailSchema));
    await fits(DEMO.district, `${admin}/departmentManage/tree`, departmentRowsSchema);
    const devices = await fits(DEMO.school, `${k12}/device/page`, page(deviceRowSchema));
    await fits(DEMO.school, `${k12}/device/${(devices as { records: { id: string }[] }).records[0].id}`, strictObject(deviceRowSchema));
    await fits(DEMO.school, `${k12}/device/options`, strictObject(deviceOptionsSchema));
    const places = await fits(DEMO.school, `${k12}/place/page`, page(venueRowSchema));
    await fits(DEMO.school, `${k12}/place/${(places as { records: { id: string }[] }).records[0].id}/devices`, page(deviceRowSchema));
    await fits(DEMO.school, `${k12}/system/signInLog/page`, signInLogPageSchema);
    await createGrade(t); // an operation to log
    const ops = await fits(DEMO.school, `${k12}/system/operationLog/page`, operationLogPageSchema);
    await fits(DEMO.school, `${k12}/system/operationLog/${(ops as { records: { id: string }[] }).records[0].id}`, strictObject(operationLogDetailSchema));
    await fits(DEMO.school, `${k12}/system/onlineSession/page`, page(onlineSessionRowSchema));
  });

  it('data centre', async () => {
    await fits(DEMO.school, `${k12}/dataCenter/filters`, strictObject(dataCenterOptionsSchema));
    await fits(DEMO.school, `${k12}/dataCenter/school`, strictObject(schoolViewSchema));
    await fits(DEMO.school, `${k12}/dataCenter/grade`, strictObject(gradeViewSchema));
    const classes = await fits(DEMO.school, `${k12}/dataCenter/class`, strictObject(classListViewSchema));
    await fits(DEMO.school, `${k12}/dataCenter/class/${(classes as { rows: { id: string }[] }).rows[0].id}`, strictObject(classViewSchema));
    const students = await fits(DEMO.school, `${k12}/dataCenter/student`, strictObject(studentListPageSchema));
    await fits(DEMO.school, `${k12}/dataCenter/student/${(students as { records: { studentId: string }[] }).records[0].studentId}`, strictObject(studentViewSchema));
    await fits(DEMO.school, `${k12}/dataCenter/screenLink`, screenLinkRowSchema.array());
    await fits(DEMO.college, `${gx}/dataCenter/college`, strictObject(classListViewSchema));
    await fits(DEMO.college, `${gx}/dataCenter/filters`, strictObject(dataCenterOptionsSchema));
    await fits(DEMO.district, `${admin}/dataCenter/school`, strictObject(schoolViewSchema));
    await fits(DEMO.district, `${admin}/dataCenter/overview`, strictObject(districtOverviewSchema));
  });

  it('test plans', async () => {
    const plans = await fits(DEMO.school, `${k12}/organizeTest/testManage/page`, page(planRowSchema));
    const planId = (plans as { records: { id: string }[] }).records[0].id;
    await fits(DEMO.school, `${k12}/organizeTest/testManage/detail/${planId}`, strictObject(planDetailSchema));
    await fits(DEMO.school, `${k12}/organizeTest/testManage/signUp/${planId}`, page(signUpRowSchema));
    await fits(DEMO.school, `${k12}/organizeTest/testManage/classCompletion/${planId}`, strictObject(classCompletionRowSchema).array());
    await fits(DEMO.school, `${k12}/organizeTest/testManage/options`, strictObject(planFormOptionsSchema));
    await fits(DEMO.district, `${admin}/organizeTest/testManage/schools`, strictObject(planSchoolOptionSchema).array());
    await fits(DEMO.college, `${gx}/organizeTest/testManage/page`, page(planRowSchema));
  });

  it('physique results', async () => {
    const scores = await fits(DEMO.school, `${k12}/organizeTest/scoreSearch/page`, strictObject(scoreSearchPageSchema));
    const row = (scores as { records: { id: string; studentId: string }[] }).records[0];
    await fits(DEMO.district, `${admin}/organizeTest/scoreSearch/page`, strictObject(scoreSearchPageSchema));
    await fits(DEMO.school, `${k12}/physiqueManage/testResult/page`, strictObject(scoreSearchPageSchema));
    await fits(DEMO.school, `${k12}/physiqueManage/testResult/${row.id}`, strictObject(resultDetailSchema));
    await fits(DEMO.school, `${k12}/selfTest/testRecord/page`, page(testRecordRowSchema));
    await fits(DEMO.school, `${k12}/physique/report/${row.studentId}`, strictObject(studentReportSchema));
    const plans = await fits(DEMO.school, `${k12}/organizeTest/testManage/page`, page(planRowSchema));
    const open = (plans as { records: { id: string; status: string }[] }).records.find((p) => p.status !== 'ended')!;
    await fits(DEMO.school, `${k12}/organizeTest/testManage/sync/${open.id}/preview`, strictObject(syncPreviewSchema), { body: {} });
  });

  it('personal centre and menu management', async () => {
    const me = await fits(DEMO.teacher, '/api/busi/web/myInfo/getUInfo', strictObject(uInfoSchema));
    const account = (me as { accounts: { accountId: string; tenantOrgId: string; presentFlag: boolean; roles: { roleId: string; presentFlag: boolean }[] }[] }).accounts.find((a) => a.presentFlag)!;
    const role = account.roles.find((r) => r.presentFlag)!;
    await fits(DEMO.teacher, '/api/busi/web/myInfo/menu', menuTreeSchema, { body: { accountId: account.accountId, roleId: role.roleId, tenantOrgId: account.tenantOrgId } });
    await fits(DEMO.district, '/api/busi/web/myInfo/getUInfo', strictObject(uInfoSchema));
    const rows = await fits(DEMO.district, '/api/busi/web/menuManagement/tree?family=k12', strictObject(menuCustomRowSchema).array());
    await fits(DEMO.district, `/api/busi/web/menuManagement/${(rows as { key: string }[])[0].key}`, strictObject(menuCustomRowSchema));
  });
});
