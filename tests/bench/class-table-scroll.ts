/**
 * Scroll smoothness of the class table with 100,000 students (docs/product-rules.md#data-centre: class table with 100,000 rows; no frame over 50 ms while scrolling).
 * Builds a one-page harness around the real ClassStudentsTable (DataTable in virtual mode, every item's raw value,
 * score and level) with the project's Vite config, serves it, and scrolls it in headless Chromium slowed down 4× (CDP
 * Emulation.setCPUThrottlingRate, as a low-end laptop; BENCH_CPU_THROTTLE=n to change), recording the time between
 * animation frames and any long task. A slow frame (over 50 ms) counts as the page's own when the main thread's
 * tasks in it (from a Chromium trace) used 50 ms or more of CPU, however the work was split into tasks: a frame the
 * renderer spent waiting for the CPU (other processes on a busy machine) is shown beside it, not counted. Also printed:
 * the main thread's CPU per frame (median and 95th percentile), which moves less with the machine's load than frame
 * times do. Prints numbers only; nothing is asserted.
 * Run: npx tsx tests/bench/class-table-scroll.ts [rows=100000]
 * Diagnostics: BENCH_PROFILE=1 (CPU self time in a fling), BENCH_ALLOC=<px per frame> (allocation sites), BENCH_ITEMS=n,
 * BENCH_ONLY=steady,fastest (only those scenarios), BENCH_BREAKDOWN=1 (CPU per frame by kind: script, style, layout, paint…),
 * BENCH_TRACE_OUT=<file> with it (the main thread's trace events as JSON, e.g. UpdateLayoutTree's elementCount: elements restyled).
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { build, type Plugin, type Rollup } from 'vite';

// The first number among the arguments (flags meant for other benchmarks pass through `npm run bench` too).
const ROWS = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 100_000);
const root = resolve(import.meta.dirname, '../..');
/** Chromium's CPU slow-down for the page (CDP Emulation.setCPUThrottlingRate). */
const THROTTLE = Number(process.env.BENCH_CPU_THROTTLE ?? 4);
// A path that does not exist: the plugin below supplies its source, and bare imports resolve from this folder.
const HARNESS = join(root, 'tests/bench/class-table-harness.generated.js');

/** The page: deterministic rows, the real table, and a flag once it has painted. */
const harnessSource = `
import { createElement as h, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@/styles/globals.css';
import '@/styles/fonts.css';
import { loadAllNamespaces } from '@/lib/i18n';
import { ITEM_KEYS } from '@/domain/physique/standard';
import { levelOf } from '@/domain/physique/level';
import { ClassStudentsTable } from '@/features/data-center/components/class-students-table';

const SURNAMES = '王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗';
const GIVEN = '伟芳娜敏静丽强磊军洋勇艳杰涛明超秀霞平刚桂英华玉萍红';
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const BMI = ['normal', 'normal', 'normal', 'lowWeight', 'overweight', 'obese'];

function makeRows(n) {
  const rows = new Array(n);
  for (let i = 0; i < n; i++) {
    const items = {};
    let sum = 0;
    for (const item of ITEM_KEYS) {
      const score = Math.round(40 + rnd() * 60);
      sum += score;
      items[item] = { raw: Math.round(rnd() * 3000) / 10, score, level: item === 'bmi' ? BMI[i % BMI.length] : levelOf(score), bonus: null };
    }
    const total = Math.round((sum / ITEM_KEYS.length) * 10) / 10;
    rows[i] = {
      studentId: 's' + i,
      name: SURNAMES[i % SURNAMES.length] + GIVEN[(i * 7) % GIVEN.length] + (i % 3 ? GIVEN[(i * 13) % GIVEN.length] : ''),
      regNo: 'G' + String(320100000000 + i),
      studentNo: String(2025000000 + i),
      gender: i % 2 ? 'female' : 'male',
      resultId: 'r' + i, planId: 'p1', testedOn: '2025-10-20', gradeNo: 7,
      heightCm: 150 + (i % 30), weightKg: 40 + (i % 25),
      items, standardScore: total, bonus: 0, total, level: levelOf(total), complete: true,
      previousTotal: total - 3 + (i % 7), change: 3 - (i % 7), watch: [],
    };
  }
  return rows;
}

// The app loads namespaces on demand; the table's headers need theirs before the first paint.
await loadAllNamespaces();
const t0 = performance.now();
const rows = makeRows(${ROWS});
window.__buildRowsMs = performance.now() - t0;
const t1 = performance.now();
createRoot(document.getElementById('root')).render(
  h(StrictMode, null, h('div', { style: { padding: 16 } }, h(ClassStudentsTable, { rows, items: ITEM_KEYS.slice(0, ${Number(process.env.BENCH_ITEMS ?? 11)}), height: 800 }))),
);
requestAnimationFrame(() => requestAnimationFrame(() => {
  window.__mountMs = performance.now() - t1;
  window.__ready = true;
}));
`;

/** In-page scroll loop: moves the table every animation frame, records frame-to-frame times and long tasks. */
const SCROLL_RUN = `async (scenario) => {
  const scroller = document.querySelector('[data-slot=data-table-scroll]');
  scroller.scrollTop = 0;
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const longTasks = [];
  const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push([e.startTime, e.duration])));
  observer.observe({ type: 'longtask', buffered: false });
  let seed = 11;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const body = () => document.querySelector('[data-slot=data-table-body]');
  const frames = [];
  const frameEnds = [];
  let placeholders = 0;
  let step = scenario.step;
  await new Promise((done) => {
    let last = performance.now();
    let i = 0;
    const tick = (now) => {
      frames.push(now - last);
      frameEnds.push(now);
      last = now;
      if (i > 0 && body().hasAttribute('data-flinging')) placeholders++;
      const max = scroller.scrollHeight - scroller.clientHeight;
      if (scenario.mode === 'jump') scroller.scrollTop = Math.floor(rnd() * max);
      else scroller.scrollTop = scroller.scrollTop + step >= max ? 0 : scroller.scrollTop + step;
      if (scenario.decay) step = Math.max(1, step * scenario.decay);
      if (++i < scenario.frames) requestAnimationFrame(tick);
      else done();
    };
    requestAnimationFrame(tick);
  });
  // Once the scroll stops: how long until the real rows are back on screen.
  const stopped = performance.now();
  await new Promise((r) => {
    const check = () => (body().hasAttribute('data-flinging') ? requestAnimationFrame(check) : requestAnimationFrame(r));
    check();
  });
  const settleMs = performance.now() - stopped;
  await new Promise((r) => setTimeout(r, 50));
  observer.disconnect();
  // A slow frame is the page's own doing when a long task (main thread busy over 50 ms) ran inside it; otherwise the
  // renderer was waiting on something else (GC helpers, raster or the OS on a small machine).
  const pageSlow = frames.filter((f, i) => i > 0 && f > 50 && longTasks.some(([start, d]) => start < frameEnds[i] && start + d > frameEnds[i] - f)).length;
  // Lines the page's clock up with the trace's (see traced()).
  const mark = performance.mark('class-table-bench-clock').startTime;
  return { frames, frameEnds, longTasks: longTasks.map(([, d]) => d), placeholders, settleMs, pageSlow, mark };
}`;

/** In-page: sort by the total column and wait for the frame after it. */
const SORT_RUN = `async () => {
  const header = [...document.querySelectorAll('thead button')].find((b) => b.closest('th')?.textContent?.includes('总分'));
  if (!header) return -1;
  const t = performance.now();
  header.click();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now() - t;
}`;

function harnessPlugin(): Plugin {
  return {
    name: 'class-table-harness',
    enforce: 'pre',
    resolveId: (id) => (id === HARNESS ? HARNESS : null),
    load: (id) => (id === HARNESS ? harnessSource : null),
  };
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.woff2': 'font/woff2', '.woff': 'font/woff' };

function serve(dir: string, html: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    try {
      const body = readFileSync(join(dir, path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` })));
}

interface Run {
  name: string;
  frames: number[];
  longTasks: number[];
  /** Frames that showed placeholder rows (the table is being flung faster than a screen a frame). */
  placeholders: number;
  /** From the last scroll step to the real rows painted. */
  settleMs: number;
  /** Frames over 50 ms with a long task in them (main thread busy over 50 ms by the wall clock). */
  pageSlow: number;
  /** Frames over 50 ms whose main-thread CPU time (throttling included) reached 50 ms: the page's own. */
  pageBusySlow: number | null;
  /** Main-thread CPU time in each scrolling frame (ms, throttling included). */
  cpu: number[] | null;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

/**
 * Runs `work` under a Chromium trace and answers the main thread's tasks with their CPU time. Wall-clock long tasks
 * also grow when other processes take the CPU (this machine is shared), so the CPU time of the page's own tasks is
 * what says whether a slow frame was the page's doing.
 */
async function traced<T extends { mark: number; frames: number[] }>(page: import('@playwright/test').Page, work: () => Promise<T>) {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as TraceEvent[])));
  const categories = ['toplevel', 'blink.user_timing', ...(process.env.BENCH_BREAKDOWN ? ['devtools.timeline'] : [])];
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: categories }, transferMode: 'ReportEvents' });
  const result = await work();
  const complete = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  const mark = events.find((e) => e.name === 'class-table-bench-clock');
  if (!mark) return { result, tasks: null };
  // Trace µs → page ms: the mark is at result.mark on the page's clock.
  const offset = mark.ts / 1000 - result.mark;
  if (process.env.BENCH_BREAKDOWN) breakdown(events.filter((e) => e.pid === mark.pid && e.tid === mark.tid), result.frames.length - 1);
  const tasks = events
    .filter((e) => e.ph === 'X' && e.pid === mark.pid && e.tid === mark.tid && e.dur !== undefined && e.tdur !== undefined)
    .map((e) => ({ start: e.ts / 1000 - offset, wall: e.dur! / 1000, cpu: e.tdur! / 1000 }));
  return { result, tasks: tasks.length ? tasks : null };
}

/**
 * BENCH_BREAKDOWN=1: the main thread's CPU per frame by kind of work, each kind's own time (a forced layout inside a
 * script is layout, not script): the script's cost and the rendering's apart.
 */
function breakdown(events: TraceEvent[], frames: number): void {
  if (process.env.BENCH_TRACE_OUT) writeFileSync(process.env.BENCH_TRACE_OUT, JSON.stringify(events));
  const kind: Record<string, string> = {
    FunctionCall: 'script', EventDispatch: 'script', FireAnimationFrame: 'script', TimerFire: 'script', RunMicrotasks: 'script', V8Execute: 'script',
    UpdateLayoutTree: 'style', Layout: 'layout', PrePaint: 'pre-paint', Paint: 'paint', Layerize: 'layerize', Commit: 'commit',
    MajorGC: 'GC', MinorGC: 'GC', 'V8.GC_SCAVENGER': 'GC', HitTest: 'hit test', UpdateLayer: 'layers', ScrollLayer: 'layers',
  };
  const timed = events.filter((e) => e.ph === 'X' && e.tdur !== undefined && e.dur !== undefined && kind[e.name]).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const total = new Map<string, number>();
  // Self time: an event's CPU less that of the timed events nested in it.
  const stack: TraceEvent[] = [];
  for (const e of timed) {
    while (stack.length && stack.at(-1)!.ts + stack.at(-1)!.dur! <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) total.set(kind[parent.name], (total.get(kind[parent.name]) ?? 0) - e.tdur! / 1000);
    total.set(kind[e.name], (total.get(kind[e.name]) ?? 0) + e.tdur! / 1000);
    stack.push(e);
  }
  const sum = [...total.values()].reduce((a, b) => a + b, 0);
  console.log(
    `    CPU per frame by kind (mean ms, ${(sum / frames).toFixed(2)} in all): ` +
      [...total].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / frames).toFixed(2)}`).join(', '),
  );
}

/**
 * The main thread's CPU time in each frame, and the frames over 50 ms in which it reached 50 ms: the page's own slow
 * frames, whether one long task or many short ones made them (counting only frames with one task of over 50 ms CPU
 * left out 151 of 167 slow frames); a task's CPU is shared out over the frames it overlaps. The throttling is already in
 * it: Chromium slows the thread by spinning on it in a signal handler (blink's ThreadCPUThrottler), so its CPU time is
 * the throttled time and is not scaled again (scaling it counted frames with 12.5 ms of throttled work as slow). The
 * spin lasts in proportion to the wall-clock time the thread ran, so a busy machine still adds to it, less than to frame
 * times: compare runs at a like load, or unthrottled (BENCH_CPU_THROTTLE=1) by CPU per frame.
 */
function frameCpu(frames: number[], frameEnds: number[], tasks: { start: number; wall: number; cpu: number }[] | null): { cpu: number[]; slow: number } | null {
  if (!tasks) return null;
  // Outermost tasks only: a nested one (a microtask checkpoint inside a task) is already in its parent's time.
  const outer: typeof tasks = [];
  for (const t of [...tasks].sort((a, b) => a.start - b.start || b.wall - a.wall)) {
    const last = outer.at(-1);
    if (!last || t.start >= last.start + last.wall) outer.push(t);
  }
  const cpu = frames.map((f, i) => {
    const from = frameEnds[i] - f;
    const to = frameEnds[i];
    let used = 0;
    for (const t of outer) {
      const overlap = Math.min(t.start + t.wall, to) - Math.max(t.start, from);
      if (overlap > 0 && t.wall > 0) used += (t.cpu * overlap) / t.wall;
    }
    return used;
  });
  return { cpu: cpu.slice(1), slow: frames.filter((f, i) => i > 0 && f > 50 && cpu[i] >= 50).length };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

function report(run: Run): void {
  // The first delta spans the set-up before the loop: not a scrolling frame.
  const frames = run.frames.slice(1);
  const sorted = [...frames].sort((a, b) => a - b);
  const over50 = frames.filter((f) => f > 50).length;
  const cpu = run.cpu ? [...run.cpu].sort((a, b) => a - b) : null;
  console.log(
    `  ${run.name.padEnd(40)} frames ${String(frames.length).padStart(4)}  p50 ${pct(sorted, 50).toFixed(1).padStart(5)} ms  p95 ${pct(sorted, 95)
      .toFixed(1)
      .padStart(5)} ms  max ${(sorted.at(-1) ?? 0).toFixed(1).padStart(6)} ms  >50 ms: ${over50} (page's own: ${run.pageBusySlow ?? '?'}; ${run.pageSlow} with a long task)  CPU per frame: ${
      cpu ? `p50 ${pct(cpu, 50).toFixed(1)} ms, p95 ${pct(cpu, 95).toFixed(1)} ms` : '?'
    }  long tasks: ${run.longTasks.length}${
      run.longTasks.length ? ` (max ${Math.max(...run.longTasks).toFixed(0)} ms)` : ''
    }  placeholder frames: ${run.placeholders}${run.placeholders ? `, rows back ${run.settleMs.toFixed(0)} ms after it stops` : ''}`,
  );
}

/** BENCH_PROFILE=1: the functions with the most self time during a fling (where to look when frames are slow). */
async function profile(page: import('@playwright/test').Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  // BENCH_PROFILE=<px per frame> profiles that speed instead (380: rows drawn every frame).
  const step = Number(process.env.BENCH_PROFILE) > 1 ? Number(process.env.BENCH_PROFILE) : 2000;
  await page.evaluate(`(${SCROLL_RUN})({ mode: 'step', step: ${step}, frames: 200 })`);
  const { profile: p } = (await cdp.send('Profiler.stop')) as {
    profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples: number[]; timeDeltas: number[] };
  };
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const byName = new Map<string, number>();
  for (const node of p.nodes) {
    const t = self.get(node.id) ?? 0;
    const key = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber}`;
    byName.set(key, (byName.get(key) ?? 0) + t);
  }
  const total = [...byName.values()].reduce((a, b) => a + b, 0);
  console.log(`\nself time during 200 frames at ${step} px per frame (top 25):`);
  for (const [name, t] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`  ${((t / total) * 100).toFixed(1).padStart(5)} %  ${(t / 1000).toFixed(0).padStart(6)} ms  ${name}`);
  }
}

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

/** BENCH_ALLOC=<px per frame>: where memory is allocated while scrolling at that speed (GC pauses grow with it). */
async function allocations(page: import('@playwright/test').Page, step: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await page.evaluate(`(${SCROLL_RUN})({ mode: 'step', step: ${step}, frames: 400 })`);
  const { profile: p } = (await cdp.send('HeapProfiler.stopSampling')) as { profile: { head: SamplingNode } };
  const bySite = new Map<string, number>();
  const walk = (node: SamplingNode) => {
    const site = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    node.children.forEach(walk);
  };
  walk(p.head);
  const total = [...bySite.values()].reduce((a, b) => a + b, 0);
  console.log(`\nallocated during 400 frames at ${step} px per frame: ${(total / 1048576).toFixed(1)} MB (top 15 sites)`);
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${(bytes / 1048576).toFixed(2).padStart(7)} MB  ${site}`);
}

async function main() {
  const outDir = mkdtempSync(join(tmpdir(), 'tiyu-class-table-'));
  let server: Server | undefined;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  try {
    const built = performance.now();
    const result = await build({
      configFile: join(root, 'vite.config.ts'),
      root,
      base: '/',
      logLevel: 'warn',
      plugins: [harnessPlugin()],
      build: { outDir, emptyOutDir: true, reportCompressedSize: false, minify: !(process.env.BENCH_ALLOC || process.env.BENCH_PROFILE), rollupOptions: { input: HARNESS } },
    });
    const output = (Array.isArray(result) ? result : [result]).flatMap((r) => (r as Rollup.RollupOutput).output);
    const entry = output.find((o): o is Rollup.OutputChunk => o.type === 'chunk' && o.isEntry);
    const css = output.filter((o) => o.type === 'asset' && o.fileName.endsWith('.css')).map((o) => o.fileName);
    if (!entry) throw new Error('harness build produced no entry chunk');
    console.log(`harness build: ${((performance.now() - built) / 1000).toFixed(1)} s`);

    const html = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>class table bench</title>${css
      .map((f) => `<link rel="stylesheet" href="/${f}">`)
      .join('')}</head><body><div id="root"></div><script type="module" src="/${entry.fileName}"></script></body></html>`;
    const served = await serve(outDir, html);
    server = served.server;

    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('pageerror', (e) => console.log('page error:', e.message));
    // A slower CPU for the page: its own slow frames show whatever the machine's load, and as a weaker laptop has them.
    const throttle = await page.context().newCDPSession(page);
    await throttle.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    await page.goto(served.url);
    await page.waitForFunction('window.__ready === true', undefined, { timeout: 300_000 });
    const info = (await page.evaluate(`(() => {
      const scroller = document.querySelector('[data-slot=data-table-scroll]');
      return {
        buildRowsMs: window.__buildRowsMs,
        mountMs: window.__mountMs,
        domRows: document.querySelectorAll('[data-slot=data-table-row]').length,
        cells: document.querySelectorAll('[data-slot=data-table-row] td').length,
        scrollHeight: scroller.scrollHeight,
        scrollWidth: scroller.scrollWidth,
      };
    })()`)) as { buildRowsMs: number; mountMs: number; domRows: number; cells: number; scrollHeight: number; scrollWidth: number };
    console.log(
      `rows ${ROWS.toLocaleString('en')}: data ${info.buildRowsMs.toFixed(0)} ms, first paint of the table ${info.mountMs.toFixed(0)} ms, ${info.domRows} rows / ${info.cells} cells in the DOM, scroll area ${info.scrollWidth} × ${info.scrollHeight} px`,
    );

    // Rows are drawn every frame unless the table moves more than half its height (400 px here) two frames running, when
    // it shows placeholder rows until the scroll slows or stops (src/components/data-table/fling.ts).
    const scenarios: { name: string; mode: 'step' | 'jump'; step: number; frames: number; decay?: number }[] = [
      { name: 'steady scroll (120 px per frame)', mode: 'step', step: 120, frames: 600 },
      { name: 'fastest drawn scroll (380 px per frame)', mode: 'step', step: 380, frames: 600 },
      { name: 'fling slowing down (3,000 px × 0.97)', mode: 'step', step: 3000, frames: 200, decay: 0.97 },
      { name: 'fast fling (2,000 px per frame)', mode: 'step', step: 2000, frames: 400 },
      { name: 'random jumps anywhere (every frame)', mode: 'jump', step: 0, frames: 200 },
    ];
    // BENCH_ONLY=steady,fastest: only the scenarios whose names contain one of these words (quicker A/B runs).
    const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
    if (only) scenarios.splice(0, scenarios.length, ...scenarios.filter((s) => only.some((w) => s.name.includes(w))));
    console.log(`\nframe times while scrolling (time between animation frames; headless Chromium, no GPU, CPU throttled ${THROTTLE}×):`);
    let worst = 0;
    let totalOwn = 0;
    for (const s of scenarios) {
      // Passed as text: tsx would wrap named functions in a helper the page does not have.
      const { result: run, tasks } = await traced(
        page,
        async () => (await page.evaluate(`(${SCROLL_RUN})(${JSON.stringify(s)})`)) as Omit<Run, 'name' | 'pageBusySlow' | 'cpu'> & { frameEnds: number[]; mark: number },
      );
      const used = frameCpu(run.frames, run.frameEnds, tasks);
      report({ name: s.name, ...run, pageBusySlow: used?.slow ?? null, cpu: used?.cpu ?? null });
      totalOwn += used?.slow ?? 0;
      worst = Math.max(worst, ...run.frames.slice(1));
    }

    if (process.env.BENCH_ALLOC) await allocations(page, Number(process.env.BENCH_ALLOC));
    if (process.env.BENCH_PROFILE) await profile(page);

    // Sorting 100k rows in the browser is a click on a header: how long until the next frame.
    const sortMs = (await page.evaluate(`(${SORT_RUN})()`)) as number;
    console.log(`\nsort ${ROWS.toLocaleString('en')} rows by total (click → painted): ${sortMs.toFixed(0)} ms`);
    console.log(`worst scrolling frame: ${worst.toFixed(1)} ms; the page's own slow frames, all scenarios: ${totalOwn} (target 0, at ${THROTTLE}× CPU throttling)`);
  } finally {
    await browser.close();
    server?.close();
    if (!process.env.BENCH_KEEP) rmSync(outDir, { recursive: true, force: true });
    else console.log(`kept ${outDir}`);
  }
}

await main();
