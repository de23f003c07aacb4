#!/usr/bin/env bash
# The load-balancer tests (e2e/mcp-load-balanced.spec.ts) put a real nginx, with its own config
# in a temporary directory, in front of two app instances. Install Debian's when it is missing
# and we can (root with apt-get), otherwise say what to do. Only the binary is used: the tests
# never touch the system's nginx service or /etc/nginx.
set -euo pipefail
# Debian puts it in /usr/sbin, which is not on every user's PATH.
if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's nginx for the load-balancer tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
  exit 0
fi
echo "The load-balancer tests need nginx: install it (sudo apt-get install nginx) and run again." >&2
exit 1
