import { asc, inArray } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import type { ContestLevel } from '@/domain/contests/contests';
import type { DbOrTx } from '../db/client';
import { contests } from '../db/schema/contests';
import { orgs } from '../db/schema/orgs';

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * Contests of the demo (docs/product-rules.md#contests), relative to the demo's today: at the K12 school a running
 * rope-skipping contest for grades 7–8 and a long-distance running contest (sum of
 * distances) that ended two days ago; at the
 * university a running standing-long-jump obstacle challenge. Their entries arrive through the device and app API
 * (server/simulate), like every activity record of the demo.
 */
export async function seedContestsDemo(db: DbOrTx, today: string): Promise<void> {
  const schools = await db.select({ id: orgs.id, type: orgs.type }).from(orgs).where(inArray(orgs.type, [ORG_TYPE.k12, ORG_TYPE.university])).orderBy(asc(orgs.code));
  const k12 = schools.find((s) => s.type === ORG_TYPE.k12);
  const uni = schools.find((s) => s.type === ORG_TYPE.university);
  if (k12) {
    await db.insert(contests).values([
      { orgId: k12.id, type: 'rank', name: '冬季跳绳排名赛', startDate: addDays(today, -7), endDate: addDays(today, 20), gradeNos: [7, 8], items: ['rope1min'], rule: 'best', prizes: '一等奖 3 名：奖状和跳绳\n二等奖 10 名：奖状' },
      { orgId: k12.id, type: 'rank', name: '秋季长跑累计赛', startDate: addDays(today, -30), endDate: addDays(today, -2), items: ['running'], rule: 'sum', prizes: '累计前 20 名获“长跑之星”' },
    ]);
  }
  if (uni) {
    const levels: ContestLevel[] = [
      { name: '青铜', threshold: 200 },
      { name: '白银', threshold: 230 },
      { name: '黄金', threshold: 255 },
    ];
    await db
      .insert(contests)
      .values({ orgId: uni.id, type: 'challenge', name: '立定跳远闯关赛', startDate: addDays(today, -5), endDate: addDays(today, 25), items: ['standingLongJump'], rule: 'best', levels, passLevels: 2, prizes: '通关即获电子证书' });
  }
}
