#!/usr/bin/env bash
# The README's first command on a fresh database, as a newcomer runs it: `npm start` (build, then a production server
# that migrates and seeds), checked from outside: the database is ready, the console and the login API answer, and a
# stop signal ends it cleanly. Simulated days are skipped (TIYU_SIMULATE_DAYS=0) to keep CI short.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${START_CHECK_PORT:-8188}
data=$(mktemp -d /tmp/tiyu-start.XXXXXX)
log=$data.log
# Its own process group: npm, the shell of the script, tsx and the server all end with the check.
PORT=$port PGLITE_DIR=$data/db STORAGE_DIR=$data/files TIYU_SIMULATE_DAYS=0 setsid npm start >"$log" 2>&1 &
pid=$!
cleanup() { kill -KILL -- "-$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data" "$log"; }
trap cleanup EXIT
probe() { node -e "fetch('http://127.0.0.1:$port$1').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"; }
for _ in $(seq 1 600); do
  if probe /api/health/ready; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then cat "$log"; echo "start-check: npm start exited" >&2; exit 1; fi
  sleep 1
done
probe /api/health/ready || { cat "$log"; echo "start-check: not ready after 600 s" >&2; exit 1; }
probe /busi/ || { echo "start-check: /busi/ did not answer 200" >&2; exit 1; }
grep -q 'jiaoyan01' "$log" || { cat "$log"; echo "start-check: the banner does not list every demo account (jiaoyan01)" >&2; exit 1; }
# SIGTERM to the server as a service manager sends it: to the built server's node (dist/server, scripts/build-server.ts),
# not to npm's shell, whose command line also names it; npm start then ends with the server's code.
pkill -TERM -g "$pid" -f '^node dist/server/main\.js$'
if ! wait "$pid"; then cat "$log"; echo "start-check: the server did not stop cleanly" >&2; exit 1; fi
echo "start-check: node $(node --version): npm start served /busi/ and /api/health/ready, stopped cleanly"
