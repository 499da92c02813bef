import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8099);

/**
 * The flow files of the second flows project: data centre, meets, people, physique, platform, notices, dictionaries,
 * two-factor sign-in, user administration, column settings and the lesson monitor (about half the flows' time).
 */
const FLOWS_B = /\/(data-center|meet|people-|physique|platform|notices|dictionaries|two-factor|admin-users|column-settings|lesson-monitor)[^/]*\.spec\.ts$/;

/**
 * Four projects side by side, each on its own server with its own fresh embedded database and a fixed captcha, so
 * each project's tests see only their server's data (the accessibility sweep's edits, e.g. a renamed class, never reach
 * a flow): the flows split in two by file on `port` and `port + 3`, and the accessibility sweep split in two halves by
 * its rows' tags on `port + 1` and `port + 2`, the second half with the field flows' sweep at phone size (its tests are
 * tagged `@a11y-b` too; docs/performance.md, "CI time": per-file times of a full run).
 */
const PROJECTS = [
  { name: 'flows', testIgnore: [/a11y(-phone)?\.spec\.ts$/, FLOWS_B] },
  { name: 'a11y', testMatch: /a11y\.spec\.ts$/, grepInvert: /@a11y-b/ },
  { name: 'a11y-b', testMatch: /a11y(-phone)?\.spec\.ts$/, grep: /@a11y-b/ },
  { name: 'flows-b', testMatch: FLOWS_B },
];

const dataDir = (at: number) => `/tmp/tiyu-e2e-${at}`;
// A few days of simulated devices and app users (server/simulate): the activity screens' records arrive through the API.
// tsx itself rather than npx: a stop signal reaches the server, which closes its database before it exits.
const serverCommand = (at: number) =>
  `PORT=${at} PGLITE_DIR=${dataDir(at)} STORAGE_DIR=${dataDir(at)}-files TIYU_CAPTCHA_FIXED=1234 TIYU_SIMULATE_DAYS=3 NODE_ENV=test node_modules/.bin/tsx server/main.ts`;
const ports = PROJECTS.map((_, i) => port + i);
// Node, not curl: a fresh machine may not have curl, and Node is there by definition.
const answers = (at: number) => `node -e "fetch('http://127.0.0.1:${at}/busi/').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"`;
/**
 * One command prepares and starts the servers, says when all answer, and keeps them running; Playwright stops the
 * whole group. The demo data is seeded once, by a server on the first port that stops once it answers; every project
 * then starts on its own copy of that database and file store. Four servers seeding at once took 188 s on the 2-core
 * machine (docs/performance.md, "CI time").
 */
const servers = {
  command: [
    // Without a url Playwright does not check the ports: a server left from another run must not answer for this one.
    ...ports.map((at) => `! ${answers(at)} || { echo "port ${at} is in use" >&2; exit 1; };`),
    `rm -rf ${ports.map((at) => `${dataDir(at)} ${dataDir(at)}-files`).join(' ')};`,
    `${serverCommand(port)} & seed=$!;`,
    `until ${answers(port)}; do sleep 1; done;`,
    'kill $seed; wait $seed;',
    ...ports.slice(1).map((at) => `cp -r ${dataDir(port)} ${dataDir(at)} && cp -r ${dataDir(port)}-files ${dataDir(at)}-files;`),
    ...ports.map((at) => `(${serverCommand(at)}) &`),
    ...ports.map((at) => `until ${answers(at)}; do sleep 1; done;`),
    'echo "e2e servers ready";',
    'wait',
  ].join(' '),
  wait: { stdout: /e2e servers ready/ },
  timeout: 360_000,
  reuseExistingServer: false,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
};

// Debian's Chromium: browser downloads (`npx playwright install`) cannot work on these machines.
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: PROJECTS.length,
  retries: process.env.CI ? 1 : 0,
  // On a loaded 2-core CI machine a passing test took up to 3× its quiet time (docs/performance.md, "CI time");
  // long flows say test.slow().
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  projects: PROJECTS.map((project, i) => ({ ...project, workers: 1, use: { baseURL: `http://127.0.0.1:${ports[i]}` } })),
  use: {
    viewport: { width: 1440, height: 900 },
    // Recording a trace costs every test CPU (snapshots, screencast) on the 2-core machine: only a retry records one.
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: servers,
});
