#!/usr/bin/env bash
# Installs Debian's nginx when it is missing (the reverse-proxy example of docs/OPERATIONS.md is tested with it).
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then exit 0; fi
echo "nginx not found: installing Debian's nginx package..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq nginx-light >/dev/null 2>&1 || apt-get install -y -qq nginx >/dev/null
# The package starts a default site on port 80; the tests run their own nginx and do not need it.
(command -v systemctl >/dev/null && systemctl stop nginx 2>/dev/null) || /usr/sbin/nginx -s stop 2>/dev/null || true
