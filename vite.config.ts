import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vitest/config';
import { precompress } from './scripts/precompress.js';
import { echartsChunks } from './scripts/echarts-chunks.js';
import { signedInChunks } from './scripts/signed-in-chunks.js';
import SpawningFirst from './tests/support/test-sequencer.js';

const src = fileURLToPath(new URL('./src', import.meta.url));
const apiPort = Number(process.env.PORT ?? 8080);
const routerBuild = (file: string) => fileURLToPath(new URL(`./node_modules/react-router/dist/production/${file}`, import.meta.url));

const signedIn = signedInChunks();
const charts = echartsChunks();

export default defineConfig(({ command }) => ({
  base: '/busi/',
  plugins: [react(), tailwindcss(), precompress(), signedIn.plugin, charts.plugin],
  resolve: {
    alias: [
      { find: '@', replacement: src },
      // react-router's package exports name only its development build (remix-run/react-router#12532); the production
      // one, same API, leaves out the development warnings.
      ...(command === 'build'
        ? [
            { find: /^react-router$/, replacement: routerBuild('index.mjs') },
            { find: /^react-router\/dom$/, replacement: routerBuild('dom-export.mjs') },
          ]
        : []),
    ],
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: true } },
  },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // A shared module too small to be worth a request goes into each chunk that imports it (≈ 6 kB of source,
          // ≈ 2 kB compressed): the K12 school view loaded ~20 scripts under 2 kB, each with ≈ 1 kB of response headers
          // (decision 012). It turns on Rolldown's strictExecutionOrder, which wraps modules (login page +4.8 kB, in budget).
          experimentalInlineCommonChunks: { maxSize: 6000 },
          groups: [
            // What the login page imports statically, in one file: it split into 34 chunks, and over HTTP/1.1 each
            // costs about 1 kB of response headers (tests/bench/bundle-size.ts counts them).
            { name: 'app', tags: ['$initial'] },
            // Icons are a few hundred bytes each; grouped by the screens that share them, they made dozens of tiny files.
            { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/ },
            // ECharts' core in one chunk, each chart type and component in its own (scripts/echarts-chunks.ts).
            ...charts.groups,
            // The signed-in shell in one chunk, the screens' modules in a few (scripts/signed-in-chunks.ts).
            ...signedIn.groups,
          ],
        },
      },
    },
  },
  test: {
    // Vitest's default leaves a core free (cores − 1): one worker on the 2-core CI machine, where two ran the unit
    // suite in 161 s instead of 253 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SpawningFirst },
    projects: [
      { extends: true, test: { name: 'domain', environment: 'node', include: ['tests/domain/**/*.test.ts'] } },
      { extends: true, test: { name: 'i18n', environment: 'node', include: ['tests/i18n/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/web-setup.ts'],
          // A test's first visit to a screen compiles its chunk (see tests/support/web-setup.ts).
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // Migrates and seeds one database per run; every test file copies it (tests/support/server-db.ts).
          globalSetup: ['tests/support/server-global-setup.ts'],
          // New password hashes at a test cost (server/lib/password.ts).
          setupFiles: ['tests/support/server-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // PGlite instances are ~300 MB each; two workers fit the 2-core machine
          maxWorkers: 2,
          // The files share one module graph per worker instead of importing the server afresh for each file: 427 s of
          // the PGlite run's worker time was module imports (docs/performance.md, "CI time"). Each file still
          // builds its own app on its own database copy (tests/support/server-app.ts); only module-level caches
          // (fonts, number formats, the sign-in decoy) carry over between files, as they do in a long-running server.
          isolate: false,
        },
      },
    ],
  },
}));
