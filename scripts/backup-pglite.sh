#!/usr/bin/env bash
# Backs up a PGlite data directory (and, if given, the file store) into one tar.gz (docs/deploy.md, "Backups").
#   scripts/backup-pglite.sh <PGLITE_DIR> <out.tar.gz> [STORAGE_DIR]
# PGlite has no online backup: the server must be stopped, so a copy never catches a half-written page. The server's
# lock file (server/db/dir-lock.ts) tells whether it still runs; a live lock refuses the backup.
# The archive holds db/ (the data directory) and files/ (the file store). Restore: stop the server, move the old
# directories aside, `tar xzf <out.tar.gz> -C <where>`, start with PGLITE_DIR=<where>/db STORAGE_DIR=<where>/files.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 <PGLITE_DIR> <out.tar.gz> [STORAGE_DIR]" >&2; exit 2; }
DIR=$1 OUT=$2 FILES=${3:-}
[ -f "$DIR/PG_VERSION" ] || { echo "backup-pglite: $DIR is not a PGlite data directory" >&2; exit 1; }
LOCK="$DIR/tiyu-server.lock"
if [ -f "$LOCK" ]; then
  pid=$(tr -dc 0-9 < "$LOCK")
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    echo "backup-pglite: a tiyu server (pid $pid) has $DIR open; stop it first (PGlite cannot be copied while it runs)" >&2
    exit 1
  fi
fi
OUT_ABS=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$(cd "$DIR" && pwd)" "$tmp/db"
if [ -n "$FILES" ]; then ln -s "$(cd "$FILES" && pwd)" "$tmp/files"; fi
tar czhf "$OUT_ABS" --exclude=tiyu-server.lock -C "$tmp" db ${FILES:+files}
echo "backup-pglite: $DIR${FILES:+ and $FILES} → $OUT_ABS ($(du -h "$OUT_ABS" | cut -f1))"
