import { and, eq, isNotNull } from 'drizzle-orm';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, Page } from '@/domain/api';
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

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, account: string, payload?: unknown, lang = 'zh-CN') =>
  t.as(account, { language: lang }).request(method, `/api/busi/web/${url}`, payload).then((a) => a.res);
const body = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>();
let serial = 0;
const nextSerial = () => `TEST-${String(++serial).padStart(4, '0')}`;
const device = (extra: Record<string, unknown> = {}) => ({ name: '测试设备', serialNo: nextSerial(), status: 'online', activated: false, ...extra });
const create = async (extra: Record<string, unknown> = {}) => {
  const res = await call('POST', 'k12/device', 'school01', device(extra));
  expect(res.statusCode).toBe(200);
  return body<DeviceRow>(res).data;
};
const firstOf = async (table: typeof devices | typeof venues, orgId: string) => (await t.db.select({ id: table.id }).from(table).where(eq(table.orgId, orgId)).limit(1))[0].id;

describe('devices: list, filters, export', () => {
  it('lists the seeded devices of the school only, children right after their parent; filters by keyword, status and venue', async () => {
    const p = body<Page<DeviceRow>>(await call('GET', 'k12/device/page?size=80', 'school01')).data;
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

    const bySerial = body<Page<DeviceRow>>(await call('GET', `k12/device/page?keyword=${jump.serialNo.toLowerCase()}`, 'school01')).data;
    expect(bySerial.records.map((r) => r.id)).toEqual([jump.id]);
    const disabled = body<Page<DeviceRow>>(await call('GET', 'k12/device/page?status=disabled&size=80', 'school01')).data;
    expect(disabled.total).toBeGreaterThan(0);
    expect(disabled.records.every((r) => r.status === 'disabled')).toBe(true);
    const inVenue = body<Page<DeviceRow>>(await call('GET', `k12/device/page?venueId=${jump.venueId}&size=80`, 'school01')).data;
    expect(inVenue.records.every((r) => r.venueId === jump.venueId)).toBe(true);
    expect((await call('GET', 'k12/device/page?status=broken', 'school01')).statusCode).toBe(400);
  });

  it('exports the current filter as .xlsx with one row per device', async () => {
    const res = await call('GET', 'k12/device/export?status=online', 'school01');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = XLSX.read(res.rawPayload, { type: 'buffer' });
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
    const dup = await call('POST', 'k12/device', 'school01', device({ serialNo: 'TYX-0001' }));
    expect(dup.statusCode).toBe(400);
    expect(body(dup)).toMatchObject({ msg: '设备序列号已存在', data: { field: 'serialNo' } });
    const [uniDevice] = await t.db.select({ serialNo: devices.serialNo }).from(devices).where(eq(devices.orgId, uniId)).limit(1);
    const other = await call('POST', 'k12/device', 'school01', device({ serialNo: uniDevice.serialNo.toLowerCase() }), 'en-US');
    expect(body(other)).toMatchObject({ msg: 'This serial number already exists', data: { field: 'serialNo' } });
    expect(await t.db.$count(devices)).toBe(before);
  });

  it('refuses a malformed MAC address, a missing name and an unknown status, naming the field', async () => {
    for (const mac of ['3C:6D:66:AA:BB', '3C:6D:66:AA:BB:GG', '3C:6D-66:AA:BB:0F', '3c6d66aabb0f']) {
      const res = await call('POST', 'k12/device', 'school01', device({ mac }));
      expect(res.statusCode).toBe(400);
      expect(body(res)).toMatchObject({ msg: 'MAC地址格式不正确，应为 AA:BB:CC:DD:EE:FF', data: { field: 'mac' } });
    }
    expect(body(await call('POST', 'k12/device', 'school01', device({ name: ' ' })))).toMatchObject({ msg: '请填写设备名称', data: { field: 'name' } });
    expect(body(await call('POST', 'k12/device', 'school01', device({ status: 'broken' })))).toMatchObject({ data: { field: 'status' } });
  });

  it('activation consumes the activatable count and is refused past it; the own-organisation screen counts the devices', async () => {
    const activated = await t.db.$count(devices, and(eq(devices.orgId, k12Id), isNotNull(devices.activatedAt)));
    const org = body<CurrentOrg>(await call('GET', 'k12/currentOrg', 'school01')).data;
    expect(org.activatedDevices).toBe(activated);
    expect(activated).toBeLessThanOrEqual(org.activatableDevices);
    await t.db.update(orgs).set({ activatableDevices: activated + 1 }).where(eq(orgs.id, k12Id));
    try {
      const one = await create({ activated: true });
      expect(one.activatedAt).not.toBeNull();
      expect(body<CurrentOrg>(await call('GET', 'k12/currentOrg', 'school01')).data.activatedDevices).toBe(activated + 1);

      const refused = await call('POST', 'k12/device', 'school01', device({ activated: true }));
      expect(refused.statusCode).toBe(400);
      expect(body(refused)).toMatchObject({ msg: `已达到本单位可激活设备数（${activated + 1}台），不能再激活设备`, data: { field: 'activated' } });
      const idle = await create();
      const edit = await call('PUT', `k12/device/${idle.id}`, 'school01', device({ serialNo: idle.serialNo, activated: true, version: idle.version }));
      expect(body(edit)).toMatchObject({ data: { field: 'activated' } });

      // Deactivating frees the place; an activated device keeps its activation time when edited.
      const off = await call('PUT', `k12/device/${one.id}`, 'school01', device({ serialNo: one.serialNo, activated: false, version: one.version }));
      expect(body<DeviceRow>(off).data.activatedAt).toBeNull();
      const on = body<DeviceRow>(await call('PUT', `k12/device/${idle.id}`, 'school01', device({ serialNo: idle.serialNo, activated: true, version: idle.version }))).data;
      expect(on.activatedAt).not.toBeNull();
      const renamed = body<DeviceRow>(await call('PUT', `k12/device/${idle.id}`, 'school01', device({ name: '改名', serialNo: idle.serialNo, activated: true, version: on.version }))).data;
      expect(renamed.activatedAt).toBe(on.activatedAt);
      // The district's organisation list counts the same devices.
      const tree = body<OrgRow[]>(await call('GET', 'admin/orgManage/orgInfo/tree', 'district01')).data;
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
    expect(body(await call('POST', 'k12/device', 'school01', device({ parentId: a.id })))).toMatchObject({ data: { field: 'parentId' } });
    const other = await create({ name: '另一主机' });
    const p = body<DeviceRow>(await call('GET', `k12/device/${parent.id}`, 'school01')).data;
    expect(p.childCount).toBe(2);
    const up = await call('PUT', `k12/device/${parent.id}`, 'school01', device({ serialNo: p.serialNo, parentId: other.id, version: p.version }));
    expect(body(up)).toMatchObject({ msg: '该设备带有子设备，不能再挂到其他设备下', data: { field: 'parentId' } });
    const self = await call('PUT', `k12/device/${other.id}`, 'school01', device({ serialNo: other.serialNo, parentId: other.id, version: other.version }));
    expect(body(self)).toMatchObject({ data: { field: 'parentId' } });

    const refused = await call('DELETE', `k12/device/${parent.id}`, 'school01');
    expect(refused.statusCode).toBe(409);
    expect(body(refused).msg).toBe('该数据已被子设备使用（2条：子设备甲, 子设备乙），不能删除');
    expect((await call('DELETE', `k12/device/${a.id}`, 'school01')).statusCode).toBe(200);
    const [log] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, a.id), eq(auditLogs.action, 'delete')));
    expect(log.before).toMatchObject({ name: '子设备甲' });
  });

  it('a stale save is 409 and changes nothing', async () => {
    const row = await create({ name: '旧名' });
    expect((await call('PUT', `k12/device/${row.id}`, 'school01', device({ name: '新名', serialNo: row.serialNo, version: row.version }))).statusCode).toBe(200);
    const stale = await call('PUT', `k12/device/${row.id}`, 'school01', device({ name: '覆盖', serialNo: row.serialNo, version: row.version }));
    expect(stale.statusCode).toBe(409);
    expect(body(stale).msg).toBe('数据已被他人修改，请刷新后重试');
    const [now] = await t.db.select({ name: devices.name }).from(devices).where(eq(devices.id, row.id));
    expect(now.name).toBe('新名');
  });
});

describe('tenancy and permissions', () => {
  it('another school’s device or venue is 404 on read, update, delete and association; its ids are refused as references', async () => {
    const uniDevice = await firstOf(devices, uniId);
    const uniVenue = await firstOf(venues, uniId);
    const k12Venue = await firstOf(venues, k12Id);
    expect((await call('GET', `k12/device/${uniDevice}`, 'school01')).statusCode).toBe(404);
    expect((await call('PUT', `k12/device/${uniDevice}`, 'school01', device({ version: 1 }))).statusCode).toBe(404);
    expect((await call('DELETE', `k12/device/${uniDevice}`, 'school01')).statusCode).toBe(404);
    expect((await call('GET', `k12/place/${uniVenue}`, 'school01')).statusCode).toBe(404);
    expect((await call('PUT', `k12/place/${uniVenue}`, 'school01', { name: 'x', type: 'gym', code: '88', version: 1 })).statusCode).toBe(404);
    expect((await call('DELETE', `k12/place/${uniVenue}`, 'school01')).statusCode).toBe(404);
    expect((await call('POST', `k12/place/${uniVenue}/devices`, 'school01', { deviceIds: [await firstOf(devices, k12Id)] })).statusCode).toBe(404);
    expect((await call('POST', `k12/place/${k12Venue}/devices`, 'school01', { deviceIds: [uniDevice] })).statusCode).toBe(404);
    expect((await call('DELETE', `k12/place/${k12Venue}/devices/${uniDevice}`, 'school01')).statusCode).toBe(404);
    expect(body(await call('POST', 'k12/device', 'school01', device({ venueId: uniVenue })))).toMatchObject({ msg: '请选择本单位的场地', data: { field: 'venueId' } });
    expect(body(await call('POST', 'k12/device', 'school01', device({ parentId: uniDevice })))).toMatchObject({ data: { field: 'parentId' } });
    const gx = body<Page<DeviceRow>>(await call('GET', 'gx/device/page?size=80', 'college01')).data;
    expect(gx.total).toBe(await t.db.$count(devices, eq(devices.orgId, uniId)));
  });

  it('permissions come from the catalogue: no page is 403; the device page without its buttons reads but cannot write', async () => {
    expect((await call('GET', 'k12/device/page', 'teacher01')).statusCode).toBe(403);
    expect((await call('GET', 'k12/place/page', 'teacher01')).statusCode).toBe(403);
    const key = 'k12.venue.device';
    const viewOnly = body<RoleDetail>(await call('POST', 'k12/role', 'school01', { name: '设备查看', identity: 'teacher', menuIds: [key, buttonId(key, 'export')] })).data;
    const [m] = await t.db
      .select({ id: memberships.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(users.accountNum, 'staff0001'), eq(memberships.tenantOrgId, k12Id)));
    expect((await call('POST', `k12/role/${viewOnly.id}/members`, 'school01', { accountIds: [m.id] })).statusCode).toBe(200);
    await t.as('staff0001').token();
    expect((await call('GET', 'k12/device/page', 'staff0001')).statusCode).toBe(200);
    expect((await call('GET', 'k12/device/export', 'staff0001')).statusCode).toBe(200);
    expect((await call('POST', 'k12/device', 'staff0001', device())).statusCode).toBe(403);
    const some = await firstOf(devices, k12Id);
    expect((await call('DELETE', `k12/device/${some}`, 'staff0001')).statusCode).toBe(403);
    expect((await call('POST', `k12/place/${await firstOf(venues, k12Id)}/devices`, 'staff0001', { deviceIds: [some] })).statusCode).toBe(403);
    expect(getCatalogEntry('k12.venue.place')!.buttons.map((b) => b.action)).toContain('device');
  });
});

describe('venues', () => {
  it('creates a venue; the two-digit ID is unique in the school (another school may use it); bad ID and type are refused', async () => {
    const res = await call('POST', 'k12/place', 'school01', { name: '乒乓球馆', type: 'gym', code: '09' });
    expect(res.statusCode).toBe(200);
    const row = body<VenueRow>(res).data;
    expect(row).toMatchObject({ name: '乒乓球馆', type: 'gym', code: '09', deviceCount: 0, version: 1 });
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entity, 'venue'), eq(auditLogs.entityId, row.id)))).toBe(1);
    const dup = await call('POST', 'k12/place', 'school01', { name: '重复', type: 'court', code: '09' });
    expect(body(dup)).toMatchObject({ msg: '本单位已有相同ID的场地', data: { field: 'code' } });
    expect((await call('POST', 'gx/place', 'college01', { name: '乒乓球馆', type: 'gym', code: '09' })).statusCode).toBe(200);
    expect(body(await call('POST', 'k12/place', 'school01', { name: 'x', type: 'gym', code: '9' }, 'en-US'))).toMatchObject({ msg: 'The venue ID must be two digits', data: { field: 'code' } });
    expect(body(await call('POST', 'k12/place', 'school01', { name: 'x', type: 'moon', code: '10' }))).toMatchObject({ data: { field: 'type' } });
    expect(body(await call('POST', 'k12/place', 'school01', { name: 'x'.repeat(31), type: 'gym', code: '10' }))).toMatchObject({ msg: '场地名称不能超过30个字符' });
  });

  it('a stale venue save is 409; a venue with devices cannot be deleted (409 naming them) until they are detached', async () => {
    const venue = body<VenueRow>(await call('POST', 'k12/place', 'school01', { name: '网球场', type: 'court', code: '11' })).data;
    const moved = await create({ name: '网球发球机', venueId: venue.id });
    expect((await call('PUT', `k12/place/${venue.id}`, 'school01', { name: '网球场A', type: 'court', code: '11', version: venue.version })).statusCode).toBe(200);
    expect((await call('PUT', `k12/place/${venue.id}`, 'school01', { name: '网球场B', type: 'court', code: '11', version: venue.version })).statusCode).toBe(409);
    const refused = await call('DELETE', `k12/place/${venue.id}`, 'school01');
    expect(refused.statusCode).toBe(409);
    expect(body(refused).msg).toBe('该数据已被设备使用（1条：网球发球机），不能删除');
    expect((await call('DELETE', `k12/place/${venue.id}/devices/${moved.id}`, 'school01')).statusCode).toBe(200);
    expect((await call('DELETE', `k12/place/${venue.id}`, 'school01')).statusCode).toBe(200);
    expect((await call('GET', `k12/device/${moved.id}`, 'school01')).statusCode).toBe(200);
  });

  it('associates devices of the school (moving them from another venue) and detaches one, with audit rows', async () => {
    const venue = body<VenueRow>(await call('POST', 'k12/place', 'school01', { name: '羽毛球馆', type: 'gym', code: '12' })).data;
    const [seeded] = await t.db.select({ id: devices.id, venueId: devices.venueId }).from(devices).where(and(eq(devices.orgId, k12Id), isNotNull(devices.venueId))).limit(1);
    const loose = await create({ name: '空闲终端' });
    const res = await call('POST', `k12/place/${venue.id}/devices`, 'school01', { deviceIds: [seeded.id, loose.id] });
    expect(res.statusCode).toBe(200);
    const list = body<Page<DeviceRow>>(await call('GET', `k12/device/page?venueId=${venue.id}`, 'school01')).data;
    expect(list.records.map((r) => r.id).sort()).toEqual([seeded.id, loose.id].sort());
    expect(body<VenueRow>(await call('GET', `k12/place/${venue.id}`, 'school01')).data.deviceCount).toBe(2);
    const [attachLog] = await t.db.select().from(auditLogs).where(and(eq(auditLogs.entityId, venue.id), eq(auditLogs.action, 'attachDevices')));
    expect(attachLog.before).toEqual(expect.arrayContaining([{ id: seeded.id, venueId: seeded.venueId }]));

    expect(body(await call('POST', `k12/place/${venue.id}/devices`, 'school01', { deviceIds: [] }))).toMatchObject({ msg: '请选择要关联的设备', data: { field: 'deviceIds' } });
    expect((await call('DELETE', `k12/place/${venue.id}/devices/${loose.id}`, 'school01')).statusCode).toBe(200);
    expect((await call('DELETE', `k12/place/${venue.id}/devices/${loose.id}`, 'school01')).statusCode).toBe(404);
    const [after] = await t.db.select({ venueId: devices.venueId }).from(devices).where(eq(devices.id, loose.id));
    expect(after.venueId).toBeNull();
    expect(await t.db.$count(auditLogs, and(eq(auditLogs.entityId, venue.id), eq(auditLogs.action, 'detachDevice')))).toBe(1);
  });
});
