// `npm run bench -- meet`: the arrangement of a 3,000-athlete, 60-event meet in memory (the pure algorithms the
// server runs inside its transaction: the seeded draw with lane preference and class spread for every event, then the
// schedule over three days with its conflict check). Target: under 1 s in all (docs/product-rules.md#meets). Then the
// same draw through the API (POST …/draw on PGlite, app.inject), beside its floor in the same run: the same draw in
// memory and its rows written in two set-wise inserts (target ≤ 2×). Then 500 certificates as one PDF, under 10 s
// (docs/product-rules.md#meet-documents). --no-api skips the API draw (it seeds a demo database, about a minute).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { and, eq } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { drawHeats, type DrawAthlete } from '../../src/domain/meets/draw';
import { findConflicts, generateSchedule, type ScheduleHeat } from '../../src/domain/meets/schedule';
import { DEFAULT_CERTIFICATE_FIELDS } from '../../src/domain/meets/documents';
import { certificatesPdf } from '../../server/modules/meets/certificate-pdf';
import { ORG_TYPE } from '../../src/domain/constants';
import type { MeetDetail, MeetForm } from '../../src/domain/meets/meets';
import { usesLanes } from '../../src/domain/meets/meets';
import { buildApp } from '../../server/app';
import { migrateDb, openDb } from '../../server/db/client';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed/demo';
import { meetAthletes, meetEntries, meetEvents, meetHeats, meetResults } from '../../server/db/schema/meets';
import { orgs } from '../../server/db/schema/orgs';
import { classes, students } from '../../server/db/schema/school';
import { parseEnv } from '../../server/env';
import { sha256Hex } from '../../server/lib/password';

const ATHLETES = 3000;
const EVENTS = 60;
const CLASSES = 60;
const ENTRIES_PER_ATHLETE = 2;

function run() {
  const t0 = performance.now();
  const heats: ScheduleHeat[] = [];
  for (let e = 0; e < EVENTS; e++) {
    const track = e % 2 === 0;
    const entrants: DrawAthlete[] = [];
    // Each athlete enters two events: athlete a enters events a % 60 and (a + 30) % 60.
    for (let a = 0; a < ATHLETES; a++) {
      if (a % EVENTS === e || (a + EVENTS / 2) % EVENTS === e) entrants.push({ id: `a${a}`, classId: `c${a % CLASSES}`, mark: 10 + ((a * 7919) % 1000) / 100 });
    }
    const drawn = drawHeats(entrants, { mode: 'seeded', seed: 20261124 + e, kind: track ? 'time' : 'distance', heatSize: track ? 8 : 12, lanes: track ? 8 : 0 });
    for (const h of drawn) heats.push({ id: `e${e}h${h.no}`, eventId: `e${e}`, round: 0, venueId: track ? 'track' : `pit${e % 6}`, duration: track ? 3 : 10, athleteIds: h.athletes.map((x) => x.id) });
  }
  const t1 = performance.now();
  const sessions = [0, 1, 2].flatMap((day) => [
    { day, start: 480, end: 690 },
    { day, start: 840, end: 1050 },
  ]);
  const { slots, unplaced } = generateSchedule(heats, { sessions, changeover: 10, minRest: 30 });
  const t2 = performance.now();
  const conflicts = findConflicts(heats, slots, { changeover: 10, minRest: 30 });
  const t3 = performance.now();
  return { draw: t1 - t0, schedule: t2 - t1, check: t3 - t2, total: t3 - t0, heats: heats.length, unplaced: unplaced.length, conflicts: conflicts.length };
}

run(); // warm-up
const r = run();
console.log(`meet arrangement: ${ATHLETES} athletes × ${ENTRIES_PER_ATHLETE} entries, ${EVENTS} events, ${r.heats} heats`);
console.log(`  draw ${r.draw.toFixed(1)} ms, schedule ${r.schedule.toFixed(1)} ms, conflict check ${r.check.toFixed(1)} ms, total ${r.total.toFixed(1)} ms (target < 1000 ms)`);
console.log(`  unplaced heats ${r.unplaced}, conflicts ${r.conflicts}`);

/**
 * The draw as a user runs it: a meet of 3,000 athletes (two groups of 30 events, each athlete in two) in the demo K12
 * school, drawn with POST /draw (tenant check, lock, reads, draw, writes, audit, one transaction). Floor, same run
 * and database: the same entries read, drawn in memory and written with one multi-row insert per table.
 */
async function apiDraw() {
  const dir = await mkdtemp(join(tmpdir(), 'tiyu-meet-bench-'));
  const handle = await openDb({ pgliteDir: join(dir, 'pglite') });
  const app = await buildApp({ db: handle.db, env: parseEnv({ NODE_ENV: 'test', TIYU_CAPTCHA_FIXED: '1234', WEB_DIST: '/nonexistent' }), rateLimits: { captchaPerMinute: 1000, loginPerMinute: 1000 } });
  try {
    const t0 = performance.now();
    await migrateDb(handle);
    await seedDemo(handle.db);
    const { db } = handle;
    const key = `${Date.now()}bench`;
    await app.inject({ url: `/api/code?randomStr=${key}` });
    const login = await app.inject({ method: 'POST', url: '/api/sso/login', payload: { accountNum: 'school01', password: sha256Hex(DEMO_PASSWORD), code: '1234', randomStr: key } });
    const authorization = `bearer ${login.json<{ data: { access_token: string } }>().data.access_token}`;
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => app.inject({ method, url: `/api/busi/web/k12/sportsMeet${url}`, payload, headers: { authorization } });

    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const events = (prefix: string) =>
      Array.from({ length: EVENTS / 2 }, (_, k) =>
        k % 2 === 0
          ? { name: `${prefix}径赛${k}`, type: 'track' as const, resultKind: 'time' as const, lanes: 8, heatSize: 8, classCap: 30 }
          : { name: `${prefix}田赛${k}`, type: 'field' as const, resultKind: 'distance' as const, lanes: 0, heatSize: 12, classCap: 30 },
      );
    const form: MeetForm = {
      name: '编排基准运动会',
      signupStart: day(-1),
      signupEnd: day(1),
      startDate: day(2),
      endDate: day(4),
      athleteCap: 2,
      groups: [
        { name: '男子组', gender: 'male', bibStart: 1, gradeIds: [], events: events('男') },
        { name: '女子组', gender: 'female', bibStart: 5001, gradeIds: [], events: events('女') },
      ],
    };
    const created = await call('POST', '', form);
    if (created.statusCode !== 200) throw new Error(`meet not created: ${created.body.slice(0, 300)}`);
    const meet = created.json<{ data: MeetDetail }>().data;

    // 3,000 new students in the school's classes, their athletes and two approved entries each, written directly.
    const [school] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.type, ORG_TYPE.k12));
    const classList = await db.select({ id: classes.id, gradeId: classes.gradeId }).from(classes).where(eq(classes.orgId, school.id));
    const studentRows = Array.from({ length: ATHLETES }, (_, a) => ({
      id: crypto.randomUUID(),
      orgId: school.id,
      classId: classList[a % classList.length].id,
      name: `运动员${a}`,
      regNo: `M${String(a).padStart(18, '0')}`,
      gender: a % 2 === 0 ? ('male' as const) : ('female' as const),
    }));
    for (let i = 0; i < studentRows.length; i += 1000) await db.insert(students).values(studentRows.slice(i, i + 1000));
    const athleteRows = studentRows.map((st, a) => {
      const group = meet.groups[a % 2];
      return { id: crypto.randomUUID(), meetId: meet.id, studentId: st.id, classId: st.classId, gradeId: classList[a % classList.length].gradeId, groupId: group.id, bib: String(group.bibStart + Math.floor(a / 2)) };
    });
    for (let i = 0; i < athleteRows.length; i += 1000) await db.insert(meetAthletes).values(athleteRows.slice(i, i + 1000));
    const entryRows = athleteRows.flatMap((ath, a) => {
      const evs = meet.groups[a % 2].events;
      const k = Math.floor(a / 2) % evs.length;
      return [evs[k], evs[(k + evs.length / 2) % evs.length]].map((ev) => ({
        meetId: meet.id,
        eventId: ev.id,
        athleteId: ath.id,
        classId: ath.classId,
        status: 'approved' as const,
        seedMark: 10 + ((a * 7919) % 1000) / 100,
      }));
    });
    for (let i = 0; i < entryRows.length; i += 1000) await db.insert(meetEntries).values(entryRows.slice(i, i + 1000));
    console.log(`\nmeet draw through the API (PGlite): ${ATHLETES} athletes, ${entryRows.length} entries, ${EVENTS} events; prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const times: number[] = [];
    for (let run = 0; run < 3; run++) {
      const s0 = performance.now();
      const res = await call('POST', `/${meet.id}/draw`, { mode: 'seeded', seed: 20261124 + run });
      times.push(performance.now() - s0);
      if (res.statusCode !== 200) throw new Error(`draw failed: ${res.body.slice(0, 300)}`);
    }
    const heats = await db.$count(meetHeats, eq(meetHeats.meetId, meet.id));
    const lanes = await db.$count(meetResults, eq(meetResults.meetId, meet.id));

    // Floor: the same entries read, drawn, and written in one multi-row insert per table, in a transaction.
    const floors: number[] = [];
    for (let run = 0; run < 3; run++) {
      await db.delete(meetHeats).where(eq(meetHeats.meetId, meet.id));
      const s0 = performance.now();
      await db.transaction(async (tx) => {
        const evs = await tx.select().from(meetEvents).where(eq(meetEvents.meetId, meet.id)).orderBy(meetEvents.sort);
        const rows = await tx
          .select({ id: meetEntries.id, eventId: meetEntries.eventId, classId: meetEntries.classId, mark: meetEntries.seedMark })
          .from(meetEntries)
          .where(and(eq(meetEntries.meetId, meet.id), eq(meetEntries.status, 'approved')));
        const heatRows: (typeof meetHeats.$inferInsert)[] = [];
        const laneRows: (typeof meetResults.$inferInsert)[] = [];
        for (const [i, e] of evs.entries()) {
          const drawn = drawHeats(
            rows.filter((r) => r.eventId === e.id),
            { mode: 'seeded', seed: 20261124 + i * 7919, kind: e.resultKind, heatSize: e.heatSize, lanes: usesLanes(e.type) ? e.lanes : 0 },
          );
          for (const h of drawn) {
            const heatId = crypto.randomUUID();
            heatRows.push({ id: heatId, meetId: meet.id, eventId: e.id, round: 0, no: h.no });
            for (const x of h.athletes) laneRows.push({ meetId: meet.id, heatId, entryId: x.id, lane: x.lane });
          }
        }
        await tx.insert(meetHeats).values(heatRows);
        for (let i = 0; i < laneRows.length; i += 10_000) await tx.insert(meetResults).values(laneRows.slice(i, i + 10_000));
      });
      floors.push(performance.now() - s0);
    }
    const best = (xs: number[]) => Math.min(...xs);
    console.log(`  POST /draw, 3 runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms (${heats} heats, ${lanes} lanes written)`);
    console.log(`  floor (read, draw in memory, one insert per table), 3 runs: ${floors.map((t) => t.toFixed(0)).join(', ')} ms`);
    console.log(`  ratio, best of each: ${(best(times) / best(floors)).toFixed(2)}× (target ≤ 2×)`);
  } finally {
    await app.close();
    await handle.close();
    await rm(dir, { recursive: true, force: true });
  }
}
if (!process.argv.includes('--no-api')) await apiDraw();

// 500 certificates as one PDF (server/modules/meets/certificate-pdf.ts): a background and a stamp embedded once, eight
// texts per page in Noto Sans SC embedded as a subset. Floor, same run: pdf-lib writing 500 pages of the same texts
// in a standard font (no font parsing or subsetting, no images), to read the ratio on a loaded machine.
const CERTIFICATES = 500;
const names = Array.from({ length: CERTIFICATES }, (_, i) => ({
  name: `${'张王李赵刘陈杨黄周吴'[i % 10]}${'子小明华建国文思雨欣'[(i * 7) % 10]}${'一二三四五六七八九十'[(i * 3) % 10]}`,
  className: `初${'一二三'[i % 3]}(${(i % 12) + 1})班`,
  event: `${i % 2 ? '女子组' : '男子组'} ${['100米', '200米', '跳远', '铅球', '跳高'][i % 5]}`,
  place: `第${(i % 8) + 1}名`,
  mark: `${(12 + (i % 50) / 10).toFixed(2)}秒`,
  date: '2026年11月24日',
  meet: '2026年秋季田径运动会',
}));
const background = await sharp({ create: { width: 1754, height: 1240, channels: 3, background: '#fffaf0' } }).jpeg().toBuffer();
const stamp = await sharp({ create: { width: 300, height: 300, channels: 4, background: { r: 200, g: 0, b: 0, alpha: 0.8 } } }).png().toBuffer();
const fields = [...DEFAULT_CERTIFICATE_FIELDS, { field: 'text' as const, x: 148.5, y: 60, size: 40, color: '#b91c1c', align: 'center' as const, bold: true, text: '荣誉证书' }];

async function floor() {
  const s = performance.now();
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < CERTIFICATES; i++) {
    const page = doc.addPage([841.89, 595.28]);
    for (const [j, f] of fields.entries()) page.drawText(`Certificate ${i} line ${j}`, { x: f.x * 2.83, y: 595 - f.y * 2.83, size: f.size, font });
  }
  const bytes = await doc.save();
  return { ms: performance.now() - s, bytes: bytes.length };
}
async function certificates() {
  const s = performance.now();
  const bytes = await certificatesPdf({ orientation: 'landscape', fields, stampX: 225, stampY: 170, stampSize: 40 }, { background: { bytes: background, mime: 'image/jpeg' }, stamp }, names);
  return { ms: performance.now() - s, bytes: bytes.length };
}
await certificates(); // warm-up: the font files are read once per process
const f = await floor();
const c = await certificates();
console.log(`${CERTIFICATES} certificates as one PDF: ${c.ms.toFixed(0)} ms, ${(c.bytes / 1024).toFixed(0)} KB (target < 10000 ms)`);
console.log(`  floor (same pages, standard font, no images) ${f.ms.toFixed(0)} ms, ${(f.bytes / 1024).toFixed(0)} KB; ratio ${(c.ms / f.ms).toFixed(1)}×`);

if (r.total > 1000 || r.conflicts > 0 || r.unplaced > 0 || c.ms > 10_000) process.exit(1);
