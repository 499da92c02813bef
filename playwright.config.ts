import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8099);
const dataDir = `/tmp/tiyu-e2e-${port}`;

// Debian's Chromium: browser downloads (`npx playwright install`) cannot work on these machines.
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1440, height: 900 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: {
    // A fresh embedded database each run, and a fixed captcha so the suite can sign in.
    command: `rm -rf ${dataDir} && PORT=${port} PGLITE_DIR=${dataDir} TIYU_CAPTCHA_FIXED=1234 NODE_ENV=test npx tsx server/main.ts`,
    url: `http://127.0.0.1:${port}/busi/`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
