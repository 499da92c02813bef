import { and, eq, isNotNull } from 'drizzle-orm';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@/domain/api';
import { getCatalogEntry } from '@/domain/menus/catalog';
import type { CurrentOrg } from '@/domain/org-manage/current-org';
import type { OrgRow } from '@/domain/org-manage/orgs';
import { buttonId, type RoleDetail } from '@/domain/roles/roles';
import type { DeviceRow } from '@/domain/venue/devices';
import type { VenueRow } from '@/domain/venue/venues';
import { auditLogs } from '../../../server/db/schema/audit';
import { memberships, users } from '../../../server/db/schema/auth';
import { orgs } from '../../../server/db/schema/orgs';
import { devices, venues } from '../../../server/db/schema/venue';
import { dataOf, orgOf } from '../../support/factories';
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

let serial = 0;
const nextSerial = () => `TEST-${String(++serial).padStart(4, '0')}`;
const device = (extra: Record<string, unknown> = {}) => ({ name: '测试设备', serialNo: nextSerial(), status: 'online', activated: false, ...extra });
const create = async (extra: Record<string, unknown> = {}) => {
  const res = await t.as('school01').post<DeviceRow>('/api/busi/web/k12/device', device(extra));
  expect(res.status).toBe(200);
  return res.body.data;
};
const firstOf = async (table: typeof devices | typeof venues, orgId: string) => (await t.db.select({ id: table.id }).from(table).where(eq(table.orgId, orgId)).limit(1))[0].id;

describe('devices: list, filters, export', () => {
  it('lists the seeded devices of the school only, children right after their parent; filters by keyword, status and venue', async () => {
    const p = dataOf(await t.as('school01').get<Page<DeviceRow>>('/api/busi/web/k12/device/page?size=80'));
    expect(p.total).toBe(await t.db.$count(devices, eq(devices.orgId, k12Id)));
    expect(p.total).toBeGreaterThanOrEqual(10);
    const rows = p.records;
    let main: DeviceRow | undefined;
    for (const r of rows) {
      if (r.parentId) expect(r.parentId).toBe(main?.id);
      else main = r;
    }
    const jump = rows.find((r) => r.name === '智能跳绳主机')!;
    expect(jump.childCount).toBe(2);
    expect(rows.filter((r) => r.parentId === jump.id).map((r) => r.parentName)).toEqual(['智能跳绳主机', '智能跳绳主机']);

    const bySerial = dataOf(await t.as('school01').get<Page<DeviceRow>>(`/api/busi/web/k12/device/page?keyword=${jump.serialNo.toLowerCase()}`));
    expect(bySerial.records.map((r) => r.id)).toEqual([jump.id]);
    const disabled = dataOf(await t.as('school01').get<Page<DeviceRow>>('/api/busi/web/k12/device/page?status=disabled&size=80'));
    expect(disabled.total).toBeGreaterThan(0);
    expect(disabled.records.every((r) => r.status === 'disabled')).toBe(true);
    const inVenue = dataOf(await t.as('school01').get<Page<DeviceRow>>(`/api/busi/web/k12/device/page?venueId=${jump.venueId}&size=80`));
    expect(inVenue.records.every((r) => r.venueId === jump.venueId)).toBe(true);
    expect((await t.as('school01').get('/api/busi/web/k12/device/page?status=broken')).status).toBe(400);
  });

  it('exports the current filter as .xlsx with one row per device', async () => {
    const res = await t.as('school01').get('/api/busi/web/k12/device/export?status=online');
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toContain('spreadsheetml');
    const wb = XLSX.read(res.res.rawPayload, { type: 'buffer' });
    const sheet = XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[wb.SheetNames[0]], { header: 1 });
    expect(sheet[0]).toEqual(['设备名称', '序列号', 'MAC地址', '场地', '上级设备', '状态', '软件版本', '激活时间']);
    const online = await t.db.$count(devices, and(eq(devices.orgId, k12Id), eq(devices.status, 'online')));
    expect(sheet.length - 1).toBe(online);
    expect(sheet.slice(1).every((r) => r[5] === '在线')).toBe(true);
  });
});

describe('devices: rules', () => {
  it('creates a device with an audit row; the MAC is normalised; a duplicate serial (any case, any school) is refused', async () => {
    const row = await create({ name: '新跳绳主机', serialNo: 'tyx-0001', mac: '3c-6d-66-aa-bb-0f', softwareVersion: 'v1.0' });
    expect(row).toMatchObject({ serialNo: 'TYX-0001', mac: '3C:6D:66:AA:BB:0F', activatedAt: null, version: 1, childCount: 0 });
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entity, 'device'), eq(auditLogs.entityId, row.id)));
    expect(log).toMatchObject({ action: 'create', orgId: k12Id });

    const before = await t.db.$count(devices);
    const dup = await t.as('school01').post('/api/busi/web/k12/device', device({ serialNo: 'TYX-0001' }));
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({ msg: '设备序列号已存在', data: { field: 'serialNo' } });
    const [uniDevice] = await t.db.select({ serialNo: devices.serialNo }).from(devices).where(eq(devices.orgId, uniId)).limit(1);
    const other = await t.as('school01', { language: 'en-US' }).post('/api/busi/web/k12/device', device({ serialNo: uniDevice.serialNo.toLowerCase() }));
    expect(other.body).toMatchObject({ msg: 'This serial number already exists', data: { field: 'serialNo' } });
    expect(await t.db.$count(devices)).toBe(before);
  });

  it('refuses a malformed MAC address, a missing name and an unknown status, naming the field', async () => {
    for (const mac of ['3C:6D:66:AA:BB', '3C:6D:66:AA:BB:GG', '3C:6D-66:AA:BB:0F', '3c6d66aabb0f']) {
      const res = await t.as('school01').post('/api/busi/web/k12/device', device({ mac }));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ msg: 'MAC地址格式不正确，应为 AA:BB:CC:DD:EE:FF', data: { field: 'mac' } });
    }
    expect((await t.as('school01').post('/api/busi/web/k12/device', device({ name: ' ' }))).body).toMatchObject({ msg: '请填写设备名称', data: { field: 'name' } });
    expect((await t.as('school01').post('/api/busi/web/k12/device', device({ status: 'broken' }))).body).toMatchObject({ data: { field: 'status' } });
  });

  it('activation consumes the activatable count and is refused past it; the own-organisation screen counts the devices', async () => {
    const activated = await t.db.$count(devices, and(eq(devices.orgId, k12Id), isNotNull(devices.activatedAt)));
    const org = dataOf(await t.as('school01').get<CurrentOrg>('/api/busi/web/k12/currentOrg'));
    expect(org.activatedDevices).toBe(activated);
    expect(activated).toBeLessThanOrEqual(org.activatableDevices);
    await t.db.update(orgs).set({ activatableDevices: activated + 1 }).where(eq(orgs.id, k12Id));
    try {
      const one = await create({ activated: true });
      expect(one.activatedAt).not.toBeNull();
      expect(dataOf(await t.as('school01').get<CurrentOrg>('/api/busi/web/k12/currentOrg')).activatedDevices).toBe(activated + 1);

      const refused = await t.as('school01').post('/api/busi/web/k12/device', device({ activated: true }));
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ msg: `已达到本单位可激活设备数（${activated + 1}台），不能再激活设备`, data: { field: 'activated' } });
      const idle = await create();
      const edit = await t.as('school01').put(`/api/busi/web/k12/device/${idle.id}`, device({ serialNo: idle.serialNo, activated: true, version: idle.version }));
      expect(edit.body).toMatchObject({ data: { field: 'activated' } });

      // Deactivating frees the place; an activated device keeps its activation time when edited.
      const off = await t.as('school01').put<DeviceRow>(`/api/busi/web/k12/device/${one.id}`, device({ serialNo: one.serialNo, activated: false, version: one.version }));
      expect(off.body.data.activatedAt).toBeNull();
      const on = dataOf(await t.as('school01').put<DeviceRow>(`/api/busi/web/k12/device/${idle.id}`, device({ serialNo: idle.serialNo, activated: true, version: idle.version })));
      expect(on.activatedAt).not.toBeNull();
      const renamed = dataOf(await t.as('school01').put<DeviceRow>(`/api/busi/web/k12/device/${idle.id}`, device({ name: '改名', serialNo: idle.serialNo, activated: true, version: on.version })));
      expect(renamed.activatedAt).toBe(on.activatedAt);
      // The district's organisation list counts the same devices.
      const tree = dataOf(await t.as('district01').get<OrgRow[]>('/api/busi/web/admin/orgManage/orgInfo/tree'));
      expect(tree.find((o) => o.id === k12Id)!.activatedDevices).toBe(activated + 1);
    } finally {
      await t.db.update(orgs).set({ activatableDevices: 50 }).where(eq(orgs.id, k12Id));
    }
  });

  it('child devices: the parent is a main device of the same school; a device with children cannot become a child or be deleted (409 naming them)', async () => {
    const parent = await create({ name: '主机' });
    const a = await create({ name: '子设备甲', parentId: parent.id });
    await create({ name: '子设备乙', parentId: parent.id });
    expect(a).toMatchObject({ parentId: parent.id, parentName: '主机' });
    expect((await t.as('school01').post('/api/busi/web/k12/device', device({ parentId: a.id }))).body).toMatchObject({ data: { field: 'parentId' } });
    const other = await create({ name: '另一主机' });
    const p = dataOf(await t.as('school01').get<DeviceRow>(`/api/busi/web/k12/device/${parent.id}`));
    expect(p.childCount).toBe(2);
    const up = await t.as('school01').put(`/api/busi/web/k12/device/${parent.id}`, device({ serialNo: p.serialNo, parentId: other.id, version: p.version }));
    expect(up.body).toMatchObject({ msg: '该设备带有子设备，不能再挂到其他设备下', data: { field: 'parentId' } });
    const self = await t.as('school01').put(`/api/busi/web/k12/device/${other.id}`, device({ serialNo: other.serialNo, parentId: other.id, version: other.version }));
    expect(self.body).toMatchObject({ data: { field: 'parentId' } });

    const refused = await t.as('school01').delete(`/api/busi/web/k12/device/${parent.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe('该数据已被子设备使用（2条：子设备甲, 子设备乙），不能删除');
    expect((await t.as('school01').delete(`/api/busi/web/k12/device/${a.id}`)).status).toBe(200);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, a.id), eq(auditLogs.action, 'delete')));
    expect(log.before).toMatchObject({ name: '子设备甲' });
  });

  it('a stale save is 409 and changes nothing', async () => {
    const row = await create({ name: '旧名' });
    expect((await t.as('school01').put(`/api/busi/web/k12/device/${row.id}`, device({ name: '新名', serialNo: row.serialNo, version: row.version }))).status).toBe(200);
    const stale = await t.as('school01').put(`/api/busi/web/k12/device/${row.id}`, device({ name: '覆盖', serialNo: row.serialNo, version: row.version }));
    expect(stale.status).toBe(409);
    expect(stale.body.msg).toBe('数据已被他人修改，请刷新后重试');
    const [now] = await t.db.select({ name: devices.name }).from(devices).where(eq(devices.id, row.id));
    expect(now.name).toBe('新名');
  });
});

describe('tenancy and permissions', () => {
  it('another school’s device or venue is 404 on read, update, delete and association; its ids are refused as references', async () => {
    const uniDevice = await firstOf(devices, uniId);
    const uniVenue = await firstOf(venues, uniId);
    const k12Venue = await firstOf(venues, k12Id);
    expect((await t.as('school01').get(`/api/busi/web/k12/device/${uniDevice}`)).status).toBe(404);
    expect((await t.as('school01').put(`/api/busi/web/k12/device/${uniDevice}`, device({ version: 1 }))).status).toBe(404);
    expect((await t.as('school01').delete(`/api/busi/web/k12/device/${uniDevice}`)).status).toBe(404);
    expect((await t.as('school01').get(`/api/busi/web/k12/place/${uniVenue}`)).status).toBe(404);
    expect((await t.as('school01').put(`/api/busi/web/k12/place/${uniVenue}`, { name: 'x', type: 'gym', code: '88', version: 1 })).status).toBe(404);
    expect((await t.as('school01').delete(`/api/busi/web/k12/place/${uniVenue}`)).status).toBe(404);
    expect((await t.as('school01').post(`/api/busi/web/k12/place/${uniVenue}/devices`, { deviceIds: [await firstOf(devices, k12Id)] })).status).toBe(404);
    expect((await t.as('school01').post(`/api/busi/web/k12/place/${k12Venue}/devices`, { deviceIds: [uniDevice] })).status).toBe(404);
    expect((await t.as('school01').delete(`/api/busi/web/k12/place/${k12Venue}/devices/${uniDevice}`)).status).toBe(404);
    expect((await t.as('school01').post('/api/busi/web/k12/device', device({ venueId: uniVenue }))).body).toMatchObject({ msg: '请选择本单位的场地', data: { field: 'venueId' } });
    expect((await t.as('school01').post('/api/busi/web/k12/device', device({ parentId: uniDevice }))).body).toMatchObject({ data: { field: 'parentId' } });
    const gx = dataOf(await t.as('college01').get<Page<DeviceRow>>('/api/busi/web/gx/device/page?size=80'));
    expect(gx.total).toBe(await t.db.$count(devices, eq(devices.orgId, uniId)));
  });

  it('permissions come from the catalogue: no page is 403; the device page without its buttons reads but cannot write', async () => {
    expect((await t.as('teacher01').get('/api/busi/web/k12/device/page')).status).toBe(403);
    expect((await t.as('teacher01').get('/api/busi/web/k12/place/page')).status).toBe(403);
    const key = 'k12.venue.device';
    const viewOnly = dataOf(await t.as('school01').post<RoleDetail>('/api/busi/web/k12/role', { name: '设备查看', identity: 'teacher', menuIds: [key, buttonId(key, 'export')] }));
    const [m] = await t.db
      .select({ id: memberships.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(users.accountNum, 'staff0001'), eq(memberships.tenantOrgId, k12Id)));
    expect((await t.as('school01').post(`/api/busi/web/k12/role/${viewOnly.id}/members`, { accountIds: [m.id] })).status).toBe(200);
    await t.as('staff0001').token();
    expect((await t.as('staff0001').get('/api/busi/web/k12/device/page')).status).toBe(200);
    expect((await t.as('staff0001').get('/api/busi/web/k12/device/export')).status).toBe(200);
    expect((await t.as('staff0001').post('/api/busi/web/k12/device', device())).status).toBe(403);
    const some = await firstOf(devices, k12Id);
    expect((await t.as('staff0001').delete(`/api/busi/web/k12/device/${some}`)).status).toBe(403);
    expect((await t.as('staff0001').post(`/api/busi/web/k12/place/${await firstOf(venues, k12Id)}/devices`, { deviceIds: [some] })).status).toBe(403);
    expect(getCatalogEntry('k12.venue.place')!.buttons.map((b) => b.action)).toContain('device');
  });
});

describe('venues', () => {
  it('creates a venue; the two-digit ID is unique in the school (another school may use it); bad ID and type are refused', async () => {
    const res = await t.as('school01').post<VenueRow>('/api/busi/web/k12/place', { name: '乒乓球馆', type: 'gym', code: '09' });
    expect(res.status).toBe(200);
    const row = res.body.data;
    expect(row).toMatchObject({ name: '乒乓球馆', type: 'gym', code: '09', deviceCount: 0, version: 1 });
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'venue'), eq(auditLogs.entityId, row.id)))).toBe(1);
    const dup = await t.as('school01').post('/api/busi/web/k12/place', { name: '重复', type: 'court', code: '09' });
    expect(dup.body).toMatchObject({ msg: '本单位已有相同ID的场地', data: { field: 'code' } });
    expect((await t.as('college01').post('/api/busi/web/gx/place', { name: '乒乓球馆', type: 'gym', code: '09' })).status).toBe(200);
    expect((await t.as('school01', { language: 'en-US' }).post('/api/busi/web/k12/place', { name: 'x', type: 'gym', code: '9' })).body).toMatchObject({ msg: 'The venue ID must be two digits', data: { field: 'code' } });
    expect((await t.as('school01').post('/api/busi/web/k12/place', { name: 'x', type: 'moon', code: '10' })).body).toMatchObject({ data: { field: 'type' } });
    expect((await t.as('school01').post('/api/busi/web/k12/place', { name: 'x'.repeat(31), type: 'gym', code: '10' })).body).toMatchObject({ msg: '场地名称不能超过30个字符' });
  });

  it('a stale venue save is 409; a venue with devices cannot be deleted (409 naming them) until they are detached', async () => {
    const venue = dataOf(await t.as('school01').post<VenueRow>('/api/busi/web/k12/place', { name: '网球场', type: 'court', code: '11' }));
    const moved = await create({ name: '网球发球机', venueId: venue.id });
    expect((await t.as('school01').put(`/api/busi/web/k12/place/${venue.id}`, { name: '网球场A', type: 'court', code: '11', version: venue.version })).status).toBe(200);
    expect((await t.as('school01').put(`/api/busi/web/k12/place/${venue.id}`, { name: '网球场B', type: 'court', code: '11', version: venue.version })).status).toBe(409);
    const refused = await t.as('school01').delete(`/api/busi/web/k12/place/${venue.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe('该数据已被设备使用（1条：网球发球机），不能删除');
    expect((await t.as('school01').delete(`/api/busi/web/k12/place/${venue.id}/devices/${moved.id}`)).status).toBe(200);
    expect((await t.as('school01').delete(`/api/busi/web/k12/place/${venue.id}`)).status).toBe(200);
    expect((await t.as('school01').get(`/api/busi/web/k12/device/${moved.id}`)).status).toBe(200);
  });

  it('associates devices of the school (moving them from another venue) and detaches one, with audit rows', async () => {
    const venue = dataOf(await t.as('school01').post<VenueRow>('/api/busi/web/k12/place', { name: '羽毛球馆', type: 'gym', code: '12' }));
    const [seeded] = await t.db.select({ id: devices.id, venueId: devices.venueId }).from(devices).where(and(eq(devices.orgId, k12Id), isNotNull(devices.venueId))).limit(1);
    const loose = await create({ name: '空闲终端' });
    const res = await t.as('school01').post(`/api/busi/web/k12/place/${venue.id}/devices`, { deviceIds: [seeded.id, loose.id] });
    expect(res.status).toBe(200);
    const list = dataOf(await t.as('school01').get<Page<DeviceRow>>(`/api/busi/web/k12/device/page?venueId=${venue.id}`));
    expect(list.records.map((r) => r.id).sort()).toEqual([seeded.id, loose.id].sort());
    expect(dataOf(await t.as('school01').get<VenueRow>(`/api/busi/web/k12/place/${venue.id}`)).deviceCount).toBe(2);
    const [attachLog] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, venue.id), eq(auditLogs.action, 'attachDevices')));
    expect(attachLog.before).toEqual(expect.arrayContaining([{ id: seeded.id, venueId: seeded.venueId }]));

    expect((await t.as('school01').post(`/api/busi/web/k12/place/${venue.id}/devices`, { deviceIds: [] })).body).toMatchObject({ msg: '请选择要关联的设备', data: { field: 'deviceIds' } });
    expect((await t.as('school01').delete(`/api/busi/web/k12/place/${venue.id}/devices/${loose.id}`)).status).toBe(200);
    expect((await t.as('school01').delete(`/api/busi/web/k12/place/${venue.id}/devices/${loose.id}`)).status).toBe(404);
    const [after] = await t.db.select({ venueId: devices.venueId }).from(devices).where(eq(devices.id, loose.id));
    expect(after.venueId).toBeNull();
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entityId, venue.id), eq(auditLogs.action, 'detachDevice')))).toBe(1);
  });
});
