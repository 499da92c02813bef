// `npm run bench -- meet`: the arrangement of a 3,000-athlete, 60-event meet in memory (the pure algorithms the
// server runs inside its transaction: the seeded draw with lane preference and class spread for every event, then the
// schedule over three days with its conflict check). Target: under 1 s in all (docs/product-rules.md#meets).
import { performance } from 'node:perf_hooks';
import { drawHeats, type DrawAthlete } from '../../src/domain/meets/draw';
import { findConflicts, generateSchedule, type ScheduleHeat } from '../../src/domain/meets/schedule';

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
if (r.total > 1000 || r.conflicts > 0 || r.unplaced > 0) process.exit(1);
