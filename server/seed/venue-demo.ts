import { asc, inArray } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import type { DeviceStatus } from '@/domain/venue/devices';
import type { VenueType } from '@/domain/venue/venues';
import type { DbOrTx } from '../db/client';
import { orgs } from '../db/schema/orgs';
import { devices, venues } from '../db/schema/venue';
import { createRandom } from './people';

const SEED = 20_261_124;

const VENUES: Record<21 | 22, readonly [code: string, name: string, type: VenueType][]> = {
  21: [
    ['01', '田径场', 'track'],
    ['02', '风雨操场', 'gym'],
    ['03', '篮球场', 'court'],
    ['04', '体质测试室', 'other'],
  ],
  22: [
    ['01', '东区田径场', 'track'],
    ['02', '综合体育馆', 'gym'],
    ['03', '游泳馆', 'pool'],
    ['04', '足球场', 'field'],
  ],
};

/** [name, venue code, status, software version, activated, children names]. */
type DeviceSpec = [name: string, venue: string | null, status: DeviceStatus, software: string, activated: boolean, children?: readonly string[]];
const DEVICES: readonly DeviceSpec[] = [
  ['智能跳绳主机', '02', 'online', 'v2.3.1', true, ['跳绳计数手环A', '跳绳计数手环B']],
  ['立定跳远测试仪', '02', 'online', 'v1.8.0', true],
  ['坐位体前屈测试仪', '04', 'offline', 'v1.8.0', true],
  ['50米跑测试主机', '01', 'online', 'v3.0.2', true, ['起点感应桩', '终点感应桩', '计时显示屏']],
  ['肺活量测试仪', '04', 'disabled', 'v1.2.5', true],
  ['身高体重测试仪', '04', 'online', 'v2.0.0', true],
  ['仰卧起坐测试仪', '02', 'offline', 'v1.6.3', true, ['仰卧起坐垫感应器']],
  ['引体向上测试仪', '03', 'offline', 'v1.6.3', false],
  ['操场成绩大屏', '01', 'online', 'v4.1.0', true],
  ['备用测试终端', null, 'offline', 'v2.3.1', false],
];

/**
 * Venues and devices of each demo school (docs/product-rules.md#devices, #venues): four venues and ten devices, four
 * of them with child devices, statuses mixed; a few not activated, so activated stays below activatable. Serial
 * numbers follow the device records of physique-demo.ts (TY21…, TY22…).
 */
export async function seedVenueDemo(db: DbOrTx, today: string): Promise<void> {
  const rnd = createRandom(SEED);
  const schools = await db
    .select({ id: orgs.id, type: orgs.type })
    .from(orgs)
    .where(inArray(orgs.type, [ORG_TYPE.k12, ORG_TYPE.university]))
    .orderBy(asc(orgs.code), asc(orgs.id));
  const venueRows: (typeof venues.$inferInsert)[] = [];
  const deviceRows: (typeof devices.$inferInsert)[] = [];
  const seen = new Map<number, number>();
  for (const school of schools) {
    const type = school.type as 21 | 22;
    const index = seen.get(type) ?? 0;
    seen.set(type, index + 1);
    const venueIds = new Map<string, string>();
    for (const [code, name, venueType] of VENUES[type]) {
      const id = rnd.uuid();
      venueIds.set(code, id);
      venueRows.push({ id, orgId: school.id, code, name, type: venueType });
    }
    let n = 0;
    const add = (name: string, venue: string | null, status: DeviceStatus, software: string, activated: boolean, parentId: string | null) => {
      n += 1;
      const id = rnd.uuid();
      const hex = (v: number) => v.toString(16).padStart(2, '0').toUpperCase();
      deviceRows.push({
        id,
        orgId: school.id,
        name,
        serialNo: `TY${type}${String(index * 100 + n).padStart(4, '0')}`,
        mac: `3C:6D:66:${hex(type)}:${hex(index)}:${hex(n)}`,
        venueId: venue ? venueIds.get(venue)! : null,
        parentId,
        status,
        softwareVersion: software,
        activatedAt: activated ? new Date(`${today.slice(0, 4)}-09-0${1 + (n % 9)}T08:30:00+08:00`) : null,
      });
      return id;
    };
    for (const [name, venue, status, software, activated, children = []] of DEVICES) {
      const parentId = add(name, venue, status, software, activated, null);
      for (const child of children) add(child, venue, status, software, activated, parentId);
    }
  }
  if (venueRows.length) await db.insert(venues).values(venueRows);
  if (deviceRows.length) await db.insert(devices).values(deviceRows);
}
