// `npm run bench -- meet`: the arrangement of a 3,000-athlete, 60-event meet in memory (the pure algorithms the
// server runs inside its transaction: the seeded draw with lane preference and class spread for every event, then the
// schedule over three days with its conflict check). Target: under 1 s in all (docs/product-rules.md#meets). Then 500
// certificates as one PDF, under 10 s (docs/product-rules.md#meet-documents).
import { performance } from 'node:perf_hooks';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { drawHeats, type DrawAthlete } from '../../src/domain/meets/draw';
import { findConflicts, generateSchedule, type ScheduleHeat } from '../../src/domain/meets/schedule';
import { DEFAULT_CERTIFICATE_FIELDS } from '../../src/domain/meets/documents';
import { certificatesPdf } from '../../server/modules/meets/certificate-pdf';

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
