#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a throw-away PostgreSQL server on 127.0.0.1.
# postgres refuses to run as root, so the cluster runs as the 'postgres' user in a temp dir.
set -euo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PORT=${PGPORT_TEST:-54329}
DIR=$(mktemp -d /tmp/tiyu-pg.XXXXXX)
chown postgres "$DIR" 2>/dev/null || true
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
as_pg "$PGBIN/initdb -D $DIR/db -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null"
as_pg "$PGBIN/pg_ctl -D $DIR/db -o '-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off' -l $DIR/log -w start >/dev/null"
trap 'as_pg "$PGBIN/pg_ctl -D $DIR/db -m fast stop >/dev/null" || true; rm -rf "$DIR"' EXIT
export DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
echo "with-postgres: $DATABASE_URL"
"$@"
