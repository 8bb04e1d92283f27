#!/usr/bin/env bash
# Writes a migration for the schema changes in server/src/platform/db/schema (drizzle-kit generate).
set -euo pipefail
cd "$(dirname "$0")/../server"
npx drizzle-kit generate --config drizzle.config.ts "$@"
