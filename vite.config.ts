import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src', import.meta.url));
const apiPort = Number(process.env.PORT ?? 8080);

export default defineConfig({
  base: '/busi/',
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': src } },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: true } },
  },
  build: { outDir: 'dist/web', emptyOutDir: true, chunkSizeWarningLimit: 1200 },
  test: {
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
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // PGlite instances are ~300 MB each; two workers fit the 2-core machine
          maxWorkers: 2,
        },
      },
    ],
  },
});
