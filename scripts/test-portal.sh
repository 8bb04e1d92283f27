#!/usr/bin/env bash
# Portal tests: the Docusaurus build (broken links and anchors throw) and the end-to-end suite in
# Debian's Chromium, against the built site and a live sandbox for the guides' examples.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  echo "Installing Debian's chromium for the browser tests"
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi

node scripts/ensure-portal-build.mjs --force
exec npx vitest run --config e2e/vitest.config.ts "$@"
