#!/usr/bin/env bash
# Installs Debian's PostgreSQL server when it is missing (the tests run every rule on PostgreSQL as well as PGlite).
set -euo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi
echo "PostgreSQL server not found: installing Debian's postgresql package..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq postgresql >/dev/null
ls /usr/lib/postgresql/*/bin/initdb
