/**
 * A kept PostgreSQL primary and streaming replica for the province bench (Debian's PostgreSQL, as the cluster test
 * starts them: tests/cluster/cluster.test.ts): created in `dir` the first time (initdb, then pg_basebackup -R of the
 * primary), started on `port` and `port + 1`, stopped by `stop()` and kept, so the seeded city (≈ 10 GB, tens of
 * minutes to seed) survives between runs. The replica streams everything the primary writes, the seed included.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const PGBIN = join('/usr/lib/postgresql', readdirSync('/usr/lib/postgresql').sort().at(-1) ?? '', 'bin');
const root = process.getuid?.() === 0;
const asPg = (cmd: string) => execFileSync(root ? 'su' : 'bash', root ? ['postgres', '-s', '/bin/bash', '-c', cmd] : ['-c', cmd], { stdio: 'pipe' }).toString();

export interface ReplicaPair {
  primaryUrl: string;
  replicaUrl: string;
  stop(): void;
}

/** Settings of a dedicated database machine scaled to this one: shared_buffers as on a 4 GB server, fsync off (a bench cluster). */
const SETTINGS = "-c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c shared_buffers=1GB -c max_wal_size=2GB -c checkpoint_timeout=30min";

export function startReplicaPair(dirArg: string, port: number): ReplicaPair {
  const dir = resolve(dirArg);
  mkdirSync(dir, { recursive: true });
  if (root) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString());
    chownSync(dir, id('-u'), id('-g'));
  }
  const running = (name: string) => {
    try {
      asPg(`${PGBIN}/pg_ctl -D ${dir}/${name} status >/dev/null`);
      return true;
    } catch {
      return false;
    }
  };
  // A server left running (an earlier run, or one started by hand for seeding) is used as it is.
  const start = (name: string, p: number) =>
    running(name) || asPg(`${PGBIN}/pg_ctl -D ${dir}/${name} -o '-p ${p} -k ${dir} ${SETTINGS}' -l ${dir}/${name}.log -w -t 600 start >/dev/null`);
  const stop = (name: string) => {
    try {
      asPg(`${PGBIN}/pg_ctl -D ${dir}/${name} -m fast -w -t 600 stop >/dev/null`);
    } catch {
      // Not running.
    }
  };
  if (!existsSync(join(dir, 'primary/PG_VERSION'))) asPg(`${PGBIN}/initdb -D ${dir}/primary -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null`);
  start('primary', port);
  if (!existsSync(join(dir, 'replica/PG_VERSION'))) asPg(`${PGBIN}/pg_basebackup -h 127.0.0.1 -p ${port} -U postgres -D ${dir}/replica -R -X stream`);
  start('replica', port + 1);
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    replicaUrl: `postgres://postgres@127.0.0.1:${port + 1}/postgres`,
    stop: () => {
      stop('replica');
      stop('primary');
    },
  };
}

/** `psql -At -c` on a server of the pair (as the postgres user when we are root). */
export function psqlAt(port: number, query: string, db = 'postgres'): string {
  return asPg(`${PGBIN}/psql -h 127.0.0.1 -p ${port} -U postgres -d ${db} -At -c "${query.replaceAll('"', '\\"')}"`).trim();
}
