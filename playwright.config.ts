import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8099);

/**
 * Two servers, each on its own fresh embedded database with a fixed captcha, and two projects run side by side: the
 * accessibility sweep (one long file) on one, every flow on the other. Each project's tests see only their server's
 * data, so the sweep's edits (it renames a class) never reach a flow.
 */
const server = (at: number) => {
  const dataDir = `/tmp/tiyu-e2e-${at}`;
  return {
    // A few days of simulated devices and app users (server/simulate): the activity screens' records arrive through the API.
    command: `rm -rf ${dataDir} ${dataDir}-files && PORT=${at} PGLITE_DIR=${dataDir} STORAGE_DIR=${dataDir}-files TIYU_CAPTCHA_FIXED=1234 TIYU_SIMULATE_DAYS=3 NODE_ENV=test npx tsx server/main.ts`,
    url: `http://127.0.0.1:${at}/busi/`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  };
};

// Debian's Chromium: browser downloads (`npx playwright install`) cannot work on these machines.
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  projects: [
    { name: 'flows', workers: 1, testIgnore: /a11y\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${port}` } },
    { name: 'a11y', workers: 1, testMatch: /a11y\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${port + 1}` } },
  ],
  use: {
    viewport: { width: 1440, height: 900 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: [server(port), server(port + 1)],
});
