#!/usr/bin/env bash
# The load-balancer tests (e2e/mcp-load-balanced.spec.ts) put a real nginx, with its own config
# in a temporary directory, in front of two app instances, and check that the nginx block of
# docs/deploying.md loads (with a self-signed certificate openssl makes). Install Debian's nginx
# and openssl when missing and we can (root with apt-get), otherwise say what to do. Only the
# binary is used: the tests never touch the system's nginx service or /etc/nginx.
set -euo pipefail
missing=()
# Debian puts nginx in /usr/sbin, which is not on every user's PATH.
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v openssl >/dev/null || missing+=(openssl)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's ${missing[*]} for the load-balancer tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi
echo "The load-balancer tests need ${missing[*]}: install it (sudo apt-get install ${missing[*]}) and run again." >&2
exit 1
