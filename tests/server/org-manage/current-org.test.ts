import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@/domain/api';
import type { SimpleOrgInfo } from '@/domain/auth/types';
import { ORG_TYPE } from '@/domain/constants';
import type { CurrentOrg } from '@/domain/org-manage/current-org';
import { filePaths } from '@/domain/uploads/stored-file';
import { auditLogs } from '../../../server/db/schema/audit';
import { files } from '../../../server/db/schema/files';
import { orgs } from '../../../server/db/schema/orgs';
import { orgOf } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/server-app';

let t: TestApp;
let k12Id: string;
let uniId: string;

beforeAll(async () => {
  t = await createTestApp();
  k12Id = (await orgOf(t, 'school01')).orgId;
  uniId = (await orgOf(t, 'college01')).orgId;
});
afterAll(async () => {
  await t?.close();
});

const load = async () => (await t.as('school01').get<CurrentOrg>('/api/busi/web/k12/currentOrg')).body.data;

/** The form's values from what the screen read. */
function formOf(o: CurrentOrg) {
  const { id: _i, type: _t, parentId: _p, parentName: _n, hasManagementPassword: _h, activatedDevices: _a, ...rest } = o;
  return { ...rest, managementPassword: '' };
}

async function brandingFile(orgId: string): Promise<string> {
  const [f] = await t.db
    .insert(files)
    .values({ orgId, purpose: 'branding', name: 'logo.png', hash: 'a'.repeat(64), size: 10, mime: 'image/png', isPublic: true })
    .returning({ id: files.id });
  return f.id;
}

describe('own organisation', () => {
  it('answers the signed-in organisation with its superior, never the password hash', async () => {
    const res = await t.as('school01').get<CurrentOrg>('/api/busi/web/k12/currentOrg');
    expect(res.status).toBe(200);
    const o = res.body.data;
    expect(o).toMatchObject({ id: k12Id, type: ORG_TYPE.k12 });
    expect(o.parentName).toBeTruthy();
    expect(JSON.stringify(o)).not.toMatch(/hash/i);
    expect((await t.as('district01').get<CurrentOrg>('/api/busi/web/admin/currentOrg')).body.data.type).toBe(ORG_TYPE.management);
  });

  it('saves name, branding, location and a management password (stored hashed, answered only as set); public info shows the branding at once', async () => {
    const o = await load();
    const icon = await brandingFile(k12Id);
    const res = await t.as('school01').put(`/api/busi/web/k12/currentOrg/${k12Id}`, {
      ...formOf(o),
      name: '第一实验小学',
      title: '阳光体育平台',
      iconFileId: icon,
      latitude: 31.23,
      longitude: 121.47,
      managementPassword: 'Secret123',
      activatableDevices: o.activatedDevices + 5,
    });
    expect(res.status).toBe(200);
    const after = await load();
    expect(after).toMatchObject({ name: '第一实验小学', title: '阳光体育平台', iconFileId: icon, latitude: 31.23, longitude: 121.47, hasManagementPassword: true, version: o.version + 1 });
    const [row] = await t.db.select({ hash: orgs.managementPasswordHash }).from(orgs).where(eq(orgs.id, k12Id));
    expect(row.hash).toMatch(/^scrypt\$/);
    expect(row.hash).not.toContain('Secret123');
    const info = (await t.request({ method: 'GET', url: `/api/oper/web/cs/tenantOrg/getSimpleInfo?orgId=${k12Id}` })).json<Envelope<SimpleOrgInfo>>().data;
    expect(info).toMatchObject({ platformName: '阳光体育平台', icon: filePaths.publicContent(icon) });
    const [log] = await t.db.select().from(auditLogs).where(eq(auditLogs.entityId, k12Id));
    expect(log).toBeTruthy();
    expect(JSON.stringify(log)).not.toContain('Secret123');
  });

  it('refuses bad input naming the field, in the request’s language, and writes nothing', async () => {
    const o = await load();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ code: '1' }, 'code', '机构编码须为2位数字'],
      [{ latitude: 91 }, 'latitude', '纬度须在-90到90之间'],
      [{ longitude: -181 }, 'longitude', '经度须在-180到180之间'],
      [{ managementPassword: '123' }, 'managementPassword', '管理密码须为6-20位'],
      [{ activatableDevices: o.activatedDevices }, 'activatableDevices', '可激活设备数必须大于已激活设备数'],
      [{ iconFileId: await brandingFile(uniId) }, 'iconFileId', '请上传本单位的图片'],
    ];
    for (const [change, field, msg] of cases) {
      const res = await t.as('school01').put(`/api/busi/web/k12/currentOrg/${k12Id}`, { ...formOf(o), ...change });
      expect(res.status, field).toBe(400);
      expect(res.body).toMatchObject({ msg, data: { field } });
    }
    const en = await t.as('school01', { language: 'en-US' }).put(`/api/busi/web/k12/currentOrg/${k12Id}`, { ...formOf(o), latitude: 100 });
    expect(en.body.msg).toBe('Latitude must be between -90 and 90');
    expect(await load()).toEqual(o);
  });

  it('a stale save is 409; a teacher without the edit button gets 403', async () => {
    const o = await load();
    const stale = await t.as('school01').put(`/api/busi/web/k12/currentOrg/${k12Id}`, { ...formOf(o), version: o.version - 1 });
    expect(stale.status).toBe(409);
    expect((await t.as('teacher01').put(`/api/busi/web/k12/currentOrg/${k12Id}`, formOf(o))).status).toBe(403);
    // Another organisation's id is 404, read or write.
    expect((await t.as('school01').get(`/api/busi/web/k12/currentOrg/${uniId}`)).status).toBe(404);
    expect((await t.as('school01').put(`/api/busi/web/k12/currentOrg/${uniId}`, formOf(o))).status).toBe(404);
  });
});
