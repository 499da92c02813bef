import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { MeetDetail, MeetRow } from '@/domain/meets/meets';
import { meetEntries } from '../../../server/db/schema/meets';
import { students } from '../../../server/db/schema/school';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { writeXlsx } from '../../../server/lib/spreadsheet/xlsx-writer';
import { createMeet, dataOf, DEMO, orgOf } from '../../support/factories';
import { allowLargeExportsEverywhere } from '../../support/export-approval';
import { createTestApp, type AsAnswer, type TestApp } from '../../support/server-app';
import { multipartBody } from '../physique-results/physique-fixtures';

let t: TestApp;
const base = '/api/busi/web/k12/sportsMeet';
let meet: MeetDetail;
type Kid = { regNo: string; name: string; classId: string };
let a: Kid, b: Kid, c: Kid, girl: Kid;

const HEAD = ['学籍号', '姓名', '组别', '项目', '参考成绩'];
const book = (rows: unknown[][]) => writeXlsx([{ name: '报名', rows, textColumns: [0] }]);
function upload(meetId: string, file: Buffer, account = 'school01', prefix = base) {
  const m = multipartBody(file, 'entries.xlsx');
  return t.as(account).post(`${prefix}/${meetId}/entries/import`, m.payload, { headers: m.headers });
}
const resultName = ({ res }: AsAnswer) => decodeURIComponent(String(res.headers['content-disposition']).split("''")[1]);
const entries = () => t.db.$count(meetEntries, eq(meetEntries.meetId, meet.id));

beforeAll(async () => {
  t = await createTestApp();
  // Not about the export approval: exports of the seeded schools stay under the threshold (docs/product-rules.md#personal-data-access).
  await allowLargeExportsEverywhere(t);
  const k12 = await orgOf(t, DEMO.school);
  ({ meet } = await createMeet(t, {
    name: '报名导入测试运动会',
    entries: 0,
    athleteCap: 1,
    groups: [
      {
        name: '男子组',
        gender: 'male',
        bibStart: 1,
        gradeIds: [],
        events: [
          { name: '100米', type: 'track', resultKind: 'time', lanes: 8, heatSize: 8, classCap: 1 },
          { name: '跳远', type: 'field', resultKind: 'distance', lanes: 0, heatSize: 12, classCap: 2 },
        ],
      },
    ],
  }));
  const pick = (gender: 'male' | 'female') =>
    t.db.select({ regNo: students.regNo, name: students.name, classId: students.classId }).from(students).where(and(eq(students.orgId, k12.orgId), eq(students.gender, gender), eq(students.status, 'studying'))).orderBy(asc(students.classId), asc(students.regNo));
  const boys = await pick('male');
  [a, b] = boys.filter((s) => s.classId === boys[0].classId);
  c = boys.find((s) => s.classId !== a.classId)!;
  [girl] = await pick('female');
});
afterAll(async () => {
  await t?.close();
});

describe('meet sign-up: import and export', () => {
  it('the template has the Chinese headers and the meet’s first event', async () => {
    const { rows } = await readXlsxRows((await t.as('school01').get(`${base}/${meet.id}/entries/import/template`)).res.rawPayload);
    expect(rows[0]).toEqual(HEAD);
    expect(rows[1].slice(2, 4)).toEqual(['男子组', '100米']);
  });

  it('checks every row with the sign-up rules, the rows before it counting, and writes nothing when one is wrong', async () => {
    const res = await upload(
      meet.id,
      book([
        HEAD,
        [a.regNo, a.name, '男子组', '100米', '12.5'],
        [a.regNo, a.name, '男子组', '100米', ''],
        [b.regNo, b.name, '男子组', '100米', ''],
        [a.regNo, a.name, '男子组', '跳远', ''],
        ['NO-SUCH-1', '某某', '男子组', '跳远', ''],
        [c.regNo, '别人', '男子组', '跳远', ''],
        [girl.regNo, girl.name, '男子组', '跳远', ''],
        [c.regNo, c.name, '男子组', '铅球', ''],
        [c.regNo, c.name, '男子组', '跳远', '远'],
      ]),
    );
    expect(res.status).toBe(200);
    expect(resultName(res)).toMatch(/_0_8\.xlsx$/);
    const reasons = (await readXlsxRows(res.res.rawPayload)).rows.slice(1).map((r) => r.at(-1));
    expect(reasons).toEqual([
      '第3行，项目：请勿重复选择项目',
      '第4行，项目：「100米」每班最多报1人',
      '第5行，项目：每人最多报1个项目',
      '第6行，学籍号：找不到学籍号为「NO-SUCH-1」的学生，或不在您管理的班级',
      `第7行，姓名：姓名与学籍号不符（应为「${c.name}」）`,
      '第8行，项目：该学生不符合「男子组」的性别或年级',
      '第9行，项目：本运动会没有「男子组 铅球」',
      '第10行，参考成绩：成绩须为正数',
    ]);
    expect(await entries()).toBe(0);
  });

  it('imports good rows with bibs and seed marks; the export lists them in the same columns', async () => {
    const res = await upload(
      meet.id,
      book([
        HEAD,
        [a.regNo, a.name, '男子组', '100米', '12.5'],
        [b.regNo, b.name, '男子组', '跳远', '4.10'],
        [c.regNo, '', '男子组', '跳远', ''],
      ]),
    );
    expect(resultName(res)).toMatch(/_3_0\.xlsx$/);
    expect(await entries()).toBe(3);
    const { rows } = await readXlsxRows((await t.as('school01').get(`${base}/${meet.id}/entries/export`)).res.rawPayload);
    expect(rows[0]).toEqual([...HEAD, '班级', '号码', '状态']);
    expect(rows.slice(1).map((r) => [r[0], r[3], r[7]]).sort()).toEqual(
      [
        [a.regNo, '100米', '待审核'],
        [b.regNo, '跳远', '待审核'],
        [c.regNo, '跳远', '待审核'],
      ].sort(),
    );
    // The export imports again only as refused rows (each already entered).
    const again = await upload(meet.id, book(rows));
    expect(resultName(again)).toMatch(/_0_3\.xlsx$/);
  });

  it('a closed sign-up refuses the file; another organisation gets 404', async () => {
    const spring = dataOf(await t.as('school01').get<Page<MeetRow>>(`${base}/page?size=80`)).records.find((m) => m.name === '2026年春季田径运动会')!;
    const closed = await upload(spring.id, book([HEAD, [a.regNo, a.name, '男子组', '100米', '']]));
    expect(closed.status).toBe(409);
    expect(closed.body.msg).toBe('不在报名时间内');
    expect((await upload(meet.id, book([HEAD, [a.regNo, a.name, '男子组', '100米', '']]), 'college01', '/api/busi/web/gx/sportsMeet')).status).toBe(404);
  });
});
