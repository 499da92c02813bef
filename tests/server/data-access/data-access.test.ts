import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import type { RoleDetail } from '@/domain/roles/roles';
import type { ExportRequestRow, SensitiveLogRow } from '@/domain/data-access/data-access';
import type { MessageRow } from '@/domain/messages/messages';
import { exportDownloads, sensitiveViews } from '../../../server/db/schema/data-access';
import { orgSecuritySettings } from '../../../server/db/schema/security';
import { students } from '../../../server/db/schema/school';
import { membershipRoles, memberships, users } from '../../../server/db/schema/auth';
import { readXlsxRows } from '../../../server/lib/spreadsheet/xlsx-reader';
import { readZipDirectory, readZipEntry } from '../../../server/lib/spreadsheet/zip';
import { createTestApp, type TestApp } from '../../support/server-app';

/**
 * Unmasked views logged and export approvals (docs/product-rules.md#personal-data-access), through HTTP on the demo.
 */
let t: TestApp;
let k12Id: string;
const STAFF = '/api/busi/web/k12/user/teacher';
const STUDENTS = '/api/busi/web/k12/user/student';
const LOG = '/api/busi/web/k12/system/sensitiveLog';
const APPROVAL = '/api/busi/web/k12/system/exportApproval';
const MY_EXPORTS = '/api/busi/web/myInfo/exports';
const MESSAGES = '/api/busi/web/myInfo/messages/page';
const HOMEWORK = '/api/busi/web/k12/sportsHomework/homeworkManagement';

beforeAll(async () => {
  t = await createTestApp();
  const [m] = await t.db.select({ org: memberships.tenantOrgId }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(eq(users.accountNum, 'school01'));
  k12Id = m.org;
}, 120_000);
afterAll(() => t.close());

describe('unmasked views', () => {
  it('a list shown unmasked writes one log row naming who, whose and the screen; a masked one writes none', async () => {
    const before = await t.db.$count(sensitiveViews);
    const page = await t.as('school01').get<Page<{ id: string; name: string; mobile: string | null }>>(`${STAFF}/page?size=10`);
    expect(page.status).toBe(200);
    const rows = await t.db.select().from(sensitiveViews);
    expect(rows.length).toBe(before + 1);
    const row = rows.at(-1)!;
    const [me] = await t.db.select().from(users).where(eq(users.accountNum, 'school01'));
    expect(row).toMatchObject({ userId: me.id, accountNum: 'school01', screen: 'k12.user.teacher', via: 'list', orgId: k12Id });
    const withMobile = page.body.data.records.filter((r) => r.mobile);
    expect(row.people.map((p) => p.id).sort()).toEqual(withMobile.map((r) => r.id).sort());
    // The PE teacher, given the staff page but not its sensitive button: masked, nothing logged.
    const [{ roleId }] = await t.db
      .select({ roleId: membershipRoles.roleId })
      .from(membershipRoles)
      .innerJoin(memberships, eq(memberships.id, membershipRoles.membershipId))
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(users.accountNum, 'teacher01'));
    const role = (await t.as('school01').get<RoleDetail>(`/api/busi/web/k12/role/${roleId}`)).body.data;
    const saved = await t.as('school01').put(`/api/busi/web/k12/role/${roleId}`, {
      name: role.name,
      remark: role.remark,
      identity: role.identity,
      menuIds: [...new Set([...role.menuIds, 'k12.user', 'k12.user.teacher'])],
      mobileFunctions: role.mobileFunctions,
      dataScope: role.dataScope,
      version: role.version,
    });
    expect(saved.status).toBe(200);
    const masked = await t.as('teacher01').get<Page<{ mobile: string | null }>>(`${STAFF}/page?size=10`);
    expect(masked.status).toBe(200);
    expect(masked.body.data.records.some((r) => r.mobile?.includes('****'))).toBe(true);
    expect(await t.db.$count(sensitiveViews)).toBe(before + 1);
    // A form's record loads whole: logged as a form view.
    const one = await t.as('school01').get(`${STAFF}/${withMobile[0].id}`);
    expect(one.status).toBe(200);
    const [last] = (await t.db.select().from(sensitiveViews)).slice(-1);
    expect(last).toMatchObject({ via: 'form', people: [{ id: withMobile[0].id }] });
  });

  it('the log screen lists them, filtered by viewer and person, and exports them; another school sees none of them', async () => {
    const log = await t.as('school01').get<Page<SensitiveLogRow>>(`${LOG}/page?viewer=school01`);
    expect(log.status).toBe(200);
    expect(log.body.data.total).toBeGreaterThan(0);
    const name = log.body.data.records[0].people[0].name;
    const byPerson = await t.as('school01').get<Page<SensitiveLogRow>>(`${LOG}/page?person=${encodeURIComponent(name)}`);
    expect(byPerson.body.data.records.every((r) => r.people.some((p) => p.name.includes(name)))).toBe(true);
    const none = await t.as('school01').get<Page<SensitiveLogRow>>(`${LOG}/page?viewer=nobody-like-this`);
    expect(none.body.data.total).toBe(0);
    const file = await t.request({ url: `${LOG}/export`, token: await t.as('school01').token() });
    expect(file.statusCode).toBe(200);
    const other = await t.as('school02').get<Page<SensitiveLogRow>>(`${LOG}/page`);
    expect(other.body.data.records.some((r) => r.accountNum === 'school01')).toBe(false);
    // The PE teacher has no such page.
    expect((await t.as('teacher01').get(`${LOG}/page`)).status).toBe(403);
  });
});

describe('export approval', () => {
  const setThreshold = async (rows: number) => {
    await t.db
      .insert(orgSecuritySettings)
      .values({ orgId: k12Id, value: { exportApprovalRows: rows } })
      .onConflictDoUpdate({ target: orgSecuritySettings.orgId, set: { value: { exportApprovalRows: rows } } });
  };

  it('an export above the threshold is refused, then requested, approved, downloaded (logged) and refused after 24 h', async () => {
    const total = await t.db.$count(students, eq(students.orgId, k12Id));
    expect(total).toBeGreaterThan(1);
    await setThreshold(total - 1);
    const refused = await t.as('school01').get(`${STUDENTS}/export`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('审批');
    expect((refused.body.data as { field?: string } | null)?.field).toBe('exportApproval');
    // At the threshold it works as before.
    await setThreshold(total);
    expect((await t.as('school01').get(`${STUDENTS}/export`)).status).toBe(200);
    await setThreshold(total - 1);

    const request = await t.as('school01').post<{ id: string }>(APPROVAL, { screen: 'k12.user.student', query: {}, reason: '体检名单' });
    expect(request.status).toBe(200);
    const id = request.body.data.id;
    // Pending: no download yet.
    expect((await t.as('school01').get(`${APPROVAL}/${id}/download`)).status).toBe(409);
    // A non-administrator cannot decide; another school cannot see it.
    expect((await t.as('teacher01').post(`${APPROVAL}/${id}/decide`, { approve: true })).status).toBe(403);
    expect((await t.as('school02').post(`${APPROVAL}/${id}/decide`, { approve: true })).status).toBe(404);
    expect((await t.as('school01').post(`${APPROVAL}/${id}/decide`, { approve: true, note: '同意' })).status).toBe(200);
    // Decided once.
    expect((await t.as('school01').post(`${APPROVAL}/${id}/decide`, { approve: false })).status).toBe(409);

    const file = await t.request({ url: `${APPROVAL}/${id}/download`, token: await t.as('school01').token() });
    expect(file.statusCode).toBe(200);
    const { rows } = await readXlsxRows(file.rawPayload);
    expect(rows.length - 1).toBe(total);
    // The exporter and time are in the sheet's print header and footer.
    const sheet = readZipEntry(file.rawPayload, readZipDirectory(file.rawPayload).get('xl/worksheets/sheet1.xml')!, 1 << 26).toString('utf8');
    expect(sheet).toMatch(/<oddFooter>[^<]*school01/);
    expect(await t.db.$count(exportDownloads, eq(exportDownloads.requestId, id))).toBe(1);
    // Someone else cannot use the link.
    expect((await t.as('school02').get(`${APPROVAL}/${id}/download`)).status).toBe(404);

    const mine = await t.as('school01').get<Page<ExportRequestRow>>(`${APPROVAL}/page?mine=true`);
    expect(mine.body.data.records.find((r) => r.id === id)).toMatchObject({ status: 'approved', downloads: 1, rows: total, reason: '体检名单' });

    t.clock.advance(24 * 3600_000 + 1000);
    t.signInAgain();
    const expired = await t.as('school01').get(`${APPROVAL}/${id}/download`);
    expect(expired.status).toBe(410);
    expect(expired.body.msg).toContain('过期');
    expect((await t.as('school01').get<Page<ExportRequestRow>>(`${APPROVAL}/page?mine=true`)).body.data.records.find((r) => r.id === id)?.status).toBe('expired');
  });

  it('a refused request cannot be downloaded; a request of a page the caller cannot export is refused', async () => {
    const request = await t.as('school01').post<{ id: string }>(APPROVAL, { screen: 'k12.user.student', query: {}, reason: '再次导出' });
    const id = request.body.data.id;
    expect((await t.as('school01').post(`${APPROVAL}/${id}/decide`, { approve: false, note: '不需要' })).status).toBe(200);
    const res = await t.as('school01').get(`${APPROVAL}/${id}/download`);
    expect(res.status).toBe(410);
    expect(res.body.msg).toContain('拒绝');
    expect((await t.as('school01').post(APPROVAL, { screen: 'k12.user.nothing', query: {}, reason: 'x' })).status).toBe(404);
    expect((await t.as('school01').post(APPROVAL, { screen: 'gx.user.student', query: {}, reason: 'x' })).status).toBe(404);
    expect((await t.as('school01').post(APPROVAL, { screen: 'k12.user.student', query: {}, reason: ' ' })).status).toBe(400);
    const rows = await t.db.select().from(sensitiveViews).where(and(eq(sensitiveViews.orgId, k12Id), eq(sensitiveViews.via, 'nothing')));
    expect(rows).toEqual([]);
  });

  it('a teacher without the approvals page follows their request on 我的导出, hears of the decision and downloads there; nobody else sees it', async () => {
    await setThreshold(0);
    // The teacher's homework export, refused as above the threshold: the refusal names the page and path to request.
    const list = await t.as('teacher01').get<Page<{ id: string }>>(`${HOMEWORK}/page?size=50`);
    let refusal: { screen: string; path: string } | undefined;
    for (const hw of list.body.data.records) {
      const res = await t.as('teacher01').get(`${HOMEWORK}/${hw.id}/export`);
      if (res.status === 409) {
        refusal = res.body.data as unknown as { screen: string; path: string };
        break;
      }
    }
    expect(refusal?.screen).toBe('k12.homework.homeworkManagement');
    const request = await t.as('teacher01').post<{ id: string }>(APPROVAL, { screen: refusal!.screen, path: refusal!.path, query: {}, reason: '家长会材料' });
    expect(request.status).toBe(200);
    const id = request.body.data.id;
    const pending = await t.as('teacher01').get<Page<ExportRequestRow>>(`${MY_EXPORTS}/page`);
    expect(pending.body.data.records.find((r) => r.id === id)).toMatchObject({ status: 'pending', reason: '家长会材料', mine: true });
    expect((await t.as('teacher01').get(`${MY_EXPORTS}/${id}/download`)).status).toBe(409);

    const before = (await t.as('teacher01').get<Page<MessageRow>>(MESSAGES)).body.data.records.filter((m) => m.kind === 'exportDecision').length;
    expect((await t.as('school01').post(`${APPROVAL}/${id}/decide`, { approve: true, note: '同意' })).status).toBe(200);

    // The teacher's message: the decision, and the way to 我的导出.
    const messages = (await t.as('teacher01').get<Page<MessageRow>>(MESSAGES)).body.data.records.filter((m) => m.kind === 'exportDecision');
    expect(messages).toHaveLength(before + 1);
    expect(messages[0]).toMatchObject({ to: '/myInfo/exports', readAt: null });
    expect(messages[0].text).toContain('已批准');
    expect(messages[0].text).toContain('我的导出');
    // The approver gets no message of it.
    const admin = (await t.as('school01').get<Page<MessageRow>>(MESSAGES)).body.data.records;
    expect(admin.some((m) => m.kind === 'exportDecision' && m.text.includes('家长会'))).toBe(false);

    const approved = await t.as('teacher01').get<Page<ExportRequestRow>>(`${MY_EXPORTS}/page?status=approved`);
    const row = approved.body.data.records.find((r) => r.id === id);
    expect(row).toMatchObject({ status: 'approved', screen: 'k12.homework.homeworkManagement', note: '同意' });
    expect(row?.decidedAt).toBeTruthy();
    expect(row?.expiresAt).toBeTruthy();
    const file = await t.request({ url: `${MY_EXPORTS}/${id}/download`, token: await t.as('teacher01').token() });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(await t.db.$count(exportDownloads, eq(exportDownloads.requestId, id))).toBe(1);

    // Nobody else: the administrator's own 我的导出 and another school's list it not, nor download it.
    expect((await t.as('school01').get<Page<ExportRequestRow>>(`${MY_EXPORTS}/page`)).body.data.records.some((r) => r.id === id)).toBe(false);
    expect((await t.as('school02').get<Page<ExportRequestRow>>(`${MY_EXPORTS}/page`)).body.data.records.some((r) => r.id === id)).toBe(false);
    expect((await t.as('school01').get(`${MY_EXPORTS}/${id}/download`)).status).toBe(404);
    expect((await t.as('school02').get(`${MY_EXPORTS}/${id}/download`)).status).toBe(404);

    // A refusal is told too, with its reason.
    const second = await t.as('teacher01').post<{ id: string }>(APPROVAL, { screen: refusal!.screen, path: refusal!.path, query: {}, reason: '再导一次' });
    expect((await t.as('school01').post(`${APPROVAL}/${second.body.data.id}/decide`, { approve: false, note: '已导出过' })).status).toBe(200);
    const refusedMsg = (await t.as('teacher01').get<Page<MessageRow>>(MESSAGES)).body.data.records.find((m) => m.kind === 'exportDecision' && m.text.includes('已导出过'));
    expect(refusedMsg?.text).toContain('拒绝');
    expect((await t.as('teacher01').get(`${MY_EXPORTS}/${second.body.data.id}/download`)).status).toBe(410);
  });
});
