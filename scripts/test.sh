#!/usr/bin/env bash
# The whole suite, in the order a failure is cheapest to find. Everything that needs no browser runs first, so a
# machine without Chromium still learns whether the code is right; the browser part comes last.
set -euo pipefail
cd "$(dirname "$0")/.."

# Typecheck (tsc) and lint (eslint) are one thread each, and lint ends first: the rules' tests (domain, i18n) follow it
# on that core, so the three take about typecheck's time on the 2-core machine (docs/performance.md, "CI time").
source scripts/steps.sh
together typecheck "npm run -s typecheck" "lint, then the domain and i18n tests" "npm run -s lint && npx vitest run --project domain --project i18n --maxWorkers 1"
step "web tests";      npx vitest run --project web
step server;           npm run -s test:server
step "web build";      npx vite build --logLevel warn

# The browser e2e suite runs Debian's Chromium (/usr/bin/chromium) with a CJK font.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
fc-list 2>/dev/null | grep -qiE 'wqy|noto sans cjk' || missing+=(fonts-wqy-microhei)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "test: installing ${missing[*]} (browser e2e needs them)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    step storybook; npm run -s build-storybook
    echo >&2
    echo "test: every suite above passed; the browser e2e suite needs Debian packages that are missing:" >&2
    echo "test:   sudo apt-get install ${missing[*]}" >&2
    echo "test: then run: npm run test:e2e" >&2
    exit 1
  fi
fi
# Storybook's build (a check that every story compiles) takes the core the e2e servers' one-threaded demo seed leaves.
together "browser e2e" "npm run -s test:e2e" storybook "npm run -s build-storybook"
echo; echo "test: all suites passed"
