#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a PostgreSQL server on 127.0.0.1 (port PGPORT_TEST, default 54329).
# By default a throw-away cluster in a temp dir; with TIYU_PG_DIR=<dir> the cluster lives in that directory, is created
# there the first time and kept (stopped) afterwards, so a bench's seeded databases survive between runs.
# postgres refuses to run as root, so the cluster runs as the 'postgres' user.
set -euo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PORT=${PGPORT_TEST:-54329}
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
if [ -n "${TIYU_PG_DIR:-}" ]; then
  mkdir -p "$TIYU_PG_DIR"
  DIR=$(cd "$TIYU_PG_DIR" && pwd)
  CLEANUP=":"
else
  DIR=$(mktemp -d /tmp/tiyu-pg.XXXXXX)
  CLEANUP="rm -rf $DIR"
fi
chown postgres "$DIR" 2>/dev/null || true
[ -f "$DIR/db/PG_VERSION" ] || as_pg "$PGBIN/initdb -D $DIR/db -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null"
as_pg "$PGBIN/pg_ctl -D $DIR/db -o '-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off' -l $DIR/log -w start >/dev/null"
trap 'as_pg "$PGBIN/pg_ctl -D $DIR/db -m fast stop >/dev/null" || true; $CLEANUP' EXIT
export DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
echo "with-postgres: $DATABASE_URL${TIYU_PG_DIR:+ (cluster kept in $DIR)}"
"$@"
