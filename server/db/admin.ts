import pg from 'pg';

/** The same PostgreSQL URL pointing at another database. */
export function withDatabase(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;
function ident(name: string): string {
  // Database names are built by our own code; refuse anything that would need quoting rules.
  if (!IDENT.test(name)) throw new Error(`Unsafe database name: ${name}`);
  return `"${name}"`;
}

// CREATE/DROP DATABASE cannot run inside a transaction, so they get their own short connection.
async function run(databaseUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Creates a database on the server of `databaseUrl`, optionally as a copy of `template` (which must have no open connections). */
export async function createDatabase(databaseUrl: string, name: string, template?: string): Promise<void> {
  await run(databaseUrl, `create database ${ident(name)}${template ? ` template ${ident(template)}` : ''}`);
}

/** Drops a database, closing other sessions on it (PostgreSQL 13+). */
export async function dropDatabase(databaseUrl: string, name: string): Promise<void> {
  await run(databaseUrl, `drop database if exists ${ident(name)} with (force)`);
}
