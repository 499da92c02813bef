import { and, asc, eq, inArray } from 'drizzle-orm';
import { ORG_TYPE } from '@/domain/constants';
import { defaultTeamName, teamSaveSchema } from '@/domain/meets/entries';
import { meetSaveSchema, type MeetForm } from '@/domain/meets/meets';
import { arrangement, drawMeet, scheduleMeet } from '../modules/meets/arrange.service';
import { addEntries, addTeam, entryPage, reviewEntries } from '../modules/meets/entry.service';
import { createMeet } from '../modules/meets/meet.service';
import { approveRecord, createRecord } from '../modules/meets/record.service';
import { enterResults, heatResults, stepResults } from '../modules/meets/result.service';
import type { Actor } from '../plugins/tenant';
import type { Tx } from '../db/client';
import { users } from '../db/schema/auth';
import { meetRecords } from '../db/schema/meets';
import { orgs } from '../db/schema/orgs';
import { classes, students } from '../db/schema/school';

/**
 * The demo school's meets (docs/product-rules.md#meets): a finished spring meet with results, records and points, and
 * an autumn meet in sign-up with pending entries and relay teams. Written through the meet services, so the demo follows every rule.
 */
const day = (today: string, offset: number) => {
  const d = new Date(`${today}T09:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d;
};
const iso = (d: Date) => d.toISOString().slice(0, 10);

function form(name: string, today: string, signupOffset: number, relay = false): MeetForm {
  return {
    name,
    signupStart: iso(day(today, signupOffset)),
    signupEnd: iso(day(today, signupOffset + 7)),
    startDate: iso(day(today, signupOffset + 10)),
    endDate: iso(day(today, signupOffset + 11)),
    athleteCap: 2,
    groups: [
      {
        name: '男子组',
        gender: 'male',
        bibStart: 1001,
        gradeIds: [],
        events: [
          { name: '100米', type: 'track', resultKind: 'time', lanes: 8, heatSize: 8, classCap: 2 },
          { name: '跳远', type: 'field', resultKind: 'distance', lanes: 0, heatSize: 12, classCap: 2, attempts: 3 },
          ...(relay ? [{ name: '4×100米接力', type: 'relay' as const, resultKind: 'time' as const, lanes: 8, heatSize: 8, classCap: 2, relayLegs: 4 }] : []),
        ],
      },
      {
        name: '女子组',
        gender: 'female',
        bibStart: 2001,
        gradeIds: [],
        events: [{ name: '100米', type: 'track', resultKind: 'time', lanes: 8, heatSize: 8, classCap: 2 }],
      },
    ],
  };
}

export async function seedMeetDemo(tx: Tx, today: string): Promise<void> {
  const [school] = await tx.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12)).orderBy(asc(orgs.code)).limit(1);
  const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.accountNum, 'school01'));
  if (!school || !admin) return;
  const actor: Actor = { userId: admin.id, accountId: admin.id, orgId: school.id, tenantOrgId: school.id, roleId: admin.id, orgType: ORG_TYPE.k12, permissions: new Set(), dataScope: 'org' };
  const pick = async (gender: 'male' | 'female') =>
    tx
      .select({ id: students.id, classId: students.classId })
      .from(students)
      .where(and(eq(students.orgId, school.id), eq(students.gender, gender), eq(students.status, 'studying')))
      .orderBy(asc(students.classId), asc(students.regNo));
  const boys = await pick('male');
  const girls = await pick('female');
  // Two athletes of each of the first classes: the class cap is 2.
  const perClass = (list: { id: string; classId: string }[], classes: number) => {
    const out: string[] = [];
    const seen = new Map<string, number>();
    for (const s of list) {
      const n = seen.get(s.classId) ?? 0;
      if (n < 2 && (seen.size < classes || seen.has(s.classId))) {
        out.push(s.id);
        seen.set(s.classId, n + 1);
      }
    }
    return out;
  };

  // The finished spring meet.
  const spring = await createMeet(tx, actor, meetSaveSchema.parse(form('2026年春季田径运动会', today, -60)), day(today, -60));
  const [run, jump] = spring.groups[0].events;
  const girlsRun = spring.groups[1].events[0];
  const signUp = day(today, -58);
  const sprinters = perClass(boys, 6);
  for (const [i, id] of sprinters.entries()) await addEntries(tx, actor, spring.id, { studentId: id, eventIds: i % 3 === 0 ? [run.id, jump.id] : [run.id], seedMark: 12 + (i % 7) / 10 }, signUp);
  for (const [i, id] of perClass(girls, 4).entries()) await addEntries(tx, actor, spring.id, { studentId: id, eventIds: [girlsRun.id], seedMark: 14 + i / 10 }, signUp);
  const { records: entries } = await entryPage(tx, actor, spring.id, { current: 1, size: 80 });
  await reviewEntries(tx, actor, spring.id, { ids: entries.map((e) => e.id), status: 'approved' });
  await drawMeet(tx, actor, spring.id, { mode: 'seeded', seed: 20260405 });
  await scheduleMeet(tx, actor, spring.id, false);
  const meetDay = day(today, -50);
  const { heats } = await arrangement(tx, actor, spring.id);
  for (const heat of heats) {
    const rows = await heatResults(tx, actor, spring.id, heat.id);
    if (!rows.length) continue;
    const field = heat.type === 'field';
    await enterResults(tx, actor, spring.id, heat.id, {
      results: rows.map((r, i) => (field ? { id: r.id, attempts: [4.1 + i * 0.13, null, 4.2 + ((i * 7) % 5) * 0.11], status: 'ok' as const } : { id: r.id, mark: 12.1 + ((i * 7) % 9) * 0.17 + heat.no * 0.05, status: 'ok' as const })),
    });
    await stepResults(tx, actor, spring.id, { step: 'confirm', heatIds: [heat.id] }, meetDay);
    await stepResults(tx, actor, spring.id, { step: 'publish', heatIds: [heat.id] }, meetDay);
  }
  for (const r of await tx.select({ id: meetRecords.id }).from(meetRecords).where(and(eq(meetRecords.meetId, spring.id), eq(meetRecords.state, 'pending')))) await approveRecord(tx, actor, r.id);
  // The school's own record book: a record with its history (kept by hand, no meet).
  await createRecord(tx, actor, { scope: 'school', eventName: '100米', groupName: '男子组', resultKind: 'time', mark: 12.05, holder: '陈浩然', className: '九年级(2)班', setOn: '2019-04-20' });
  await createRecord(tx, actor, { scope: 'school', eventName: '100米', groupName: '男子组', resultKind: 'time', mark: 11.86, holder: '欧阳子轩', className: '九年级(1)班', setOn: '2023-04-22' });
  await createRecord(tx, actor, { scope: 'school', eventName: '跳远', groupName: '男子组', resultKind: 'distance', mark: 6.12, holder: '李明', className: '九年级(4)班', setOn: '2021-10-15' });

  // The autumn meet, in sign-up: a few entries waiting for review, and three classes' relay teams.
  const autumn = await createMeet(tx, actor, meetSaveSchema.parse(form('2026年秋季运动会', today, -3, true)), day(today, -3));
  for (const id of perClass(boys, 3)) await addEntries(tx, actor, autumn.id, { studentId: id, eventIds: [autumn.groups[0].events[0].id] }, day(today, 0));
  const relay = autumn.groups[0].events[2];
  const squads = new Map<string, string[]>();
  for (const b of boys) squads.set(b.classId, [...(squads.get(b.classId) ?? []), b.id]);
  const full = [...squads].filter(([, ids]) => ids.length >= 5).slice(0, 3);
  const names = new Map((await tx.select({ id: classes.id, name: classes.name }).from(classes).where(inArray(classes.id, full.map(([id]) => id)))).map((c) => [c.id, c.name]));
  for (const [i, [classId, ids]] of full.entries()) {
    const team = { eventId: relay.id, classId, teamName: defaultTeamName(names.get(classId) ?? '', 0), legs: ids.slice(0, 4), reserves: i === 0 ? ids.slice(4, 5) : [], seedMark: 52 + i };
    await addTeam(tx, actor, autumn.id, teamSaveSchema.parse(team), day(today, 0));
  }
}
