import { openDb } from './db/client';
import { parseEnv } from './env';
import { sealAuditChains, verifyAuditChains } from './lib/audit-chain';

/**
 * `npm run audit:verify`: seals what was written since the last seal and checks every organisation's operation-log hash
 * chain (docs/decisions/050-audit-hash-chain.md) in the configured database (PGLITE_DIR or DATABASE_URL; a PGlite
 * directory must not be in use by a running server). Prints the first broken place of each broken chain and exits 1
 * when there is one.
 */
async function main(): Promise<number> {
  const env = parseEnv();
  const handle = await openDb(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR });
  try {
    const sealed = await sealAuditChains(handle.db);
    const report = await verifyAuditChains(handle.db, null);
    process.stdout.write(`sealed ${sealed} new rows; checked ${report.rows} rows in ${report.chains} chains\n`);
    for (const b of report.breaks) process.stdout.write(`BROKEN chain ${b.chainId}: ${b.kind} at place ${b.seq}${b.id ? ` (row ${b.id}, ${b.at})` : ''}\n`);
    if (report.breaks.length === 0) process.stdout.write('intact\n');
    return report.breaks.length === 0 ? 0 : 1;
  } finally {
    await handle.close();
  }
}

process.exitCode = await main();
