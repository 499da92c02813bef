import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import i18next from 'eslint-plugin-i18next';
import globals from 'globals';

const features = (existsSync('src/features') ? readdirSync('src/features', { withFileTypes: true }) : [])
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

export default tseslint.config(
  { ignores: ['dist/**', 'storybook-static/**', 'data/**', 'server/db/migrations/**', 'test-results/**', 'playwright-report/**', 'storybook-static/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    // Without a TypeScript resolver import-x cannot resolve `@/…` or extension-less `.ts` imports, and every zone and
    // cycle rule below silently skips them.
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: {
      // A runtime import cycle makes module order (and so initialisation) depend on who imports first; type-only
      // imports are erased and may go both ways.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // One-way layers (docs/architecture.md): domain ← lib/components ← features ← app; server ← domain only.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/domain', from: ['./src/app', './src/features', './src/components', './src/lib', './server'], message: 'src/domain is pure: it imports nothing of the app or server.' },
            { target: './server', from: ['./src/app', './src/features', './src/components', './src/lib'], message: 'The server may import only src/domain.' },
            { target: ['./src/components', './src/lib'], from: ['./src/app', './src/features'], message: 'Shared code must not depend on features or the app.' },
            { target: './src/lib', from: './src/components', message: 'src/lib wraps libraries for the components above it; it never imports a component.' },
            { target: './src/features', from: './src/app', message: 'Features must not import the app shell.' },
            // The demo and scale seeds write through the services, so they sit above the modules (docs/architecture.md).
            { target: ['./server/db', './server/lib', './server/plugins', './server/modules'], from: './server/seed', message: 'server/seed is above the modules: nothing below it imports the seed.' },
            { target: './server/db', from: ['./server/modules', './server/plugins'], message: 'server/db (client, schema, migrations) is below the modules and plugins.' },
            ...features.map((f) => ({
              target: `./src/features/${f}`,
              from: './src/features',
              except: [`./${f}`],
              message: 'Features never import each other; compose them in src/app.',
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['src/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['react', 'react-*', 'axios', 'node:*', 'drizzle-orm*', 'fastify*', '@/lib/*', '@/components/*', '@/features/*', '@/app/*'], message: 'src/domain is pure TypeScript shared by browser and server.' }] },
      ],
    },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, i18next },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Every visible string comes from locales/ (docs/architecture.md, rule 5).
      'i18next/no-literal-string': ['error', { mode: 'jsx-only', 'jsx-attributes': { include: ['title', 'alt', 'placeholder', 'aria-label', 'label'] } }],
    },
  },
  {
    // A route file declares routes: its params, queries and bodies are named schemas of src/domain, the one rule the
    // form and the server share (src/domain/fields.ts holds the primitives), never zod written inline.
    files: ['server/**/*.routes.ts', 'server/**/*-routes.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'zod', message: 'Name the schema in src/domain/<area> (primitives in src/domain/fields.ts) and import it here.' }] }],
    },
  },
);
