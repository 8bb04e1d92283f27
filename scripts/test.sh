#!/usr/bin/env bash
# npm test: everything, in order. Installs the system packages the tests need (PostgreSQL, Chromium) when missing.
# Every step runs even when an earlier one failed, so one run shows all problems; the exit code is non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export REDOCLY_TELEMETRY=off
mkdir -p tmp
rm -f tmp/results-*.json
failed=()

step() {
  local name="$1"; shift
  echo
  echo "=== $name"
  local started=$SECONDS
  if "$@"; then
    echo "=== $name: ok ($((SECONDS - started)) s)"
  else
    echo "=== $name: FAILED ($((SECONDS - started)) s)"
    failed+=("$name")
  fi
}

step "system packages" bash -c "bash scripts/ensure-postgres.sh && bash scripts/ensure-nginx.sh"
step "typecheck" bash -c "npx tsc -p tsconfig.json && npx tsc -p console/tsconfig.json"
step "lint (formatter, linter, dependency rule)" bash -c 'npm run --silent lint || {
  echo "lint: npx biome check --write fixes formatting and the safe lint fixes; a dependency violation needs its import changed (Checks in docs/ARCHITECTURE.md)." >&2
  exit 1
}'
step "OpenAPI documents" npm run --silent openapi
step "server and contract tests (PGlite and PostgreSQL)" npx vitest run --reporter=default --reporter=json --outputFile.json=tmp/results-server.json
# An absolute path: the browser suite runs with e2e/ as its vitest root.
step "portal build and browser tests" bash scripts/test-portal.sh --reporter=default --reporter=json --outputFile.json="$PWD/tmp/results-portal.json"

echo
node scripts/test-summary.mjs tmp/results-*.json
if [ ${#failed[@]} -gt 0 ]; then
  echo "Failed steps: ${failed[*]}"
  exit 1
fi
