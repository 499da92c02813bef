import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema and committed; never edited after they land (docs/architecture.md).
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/*.ts',
  out: './server/db/migrations',
  strict: true,
  verbose: true,
});
