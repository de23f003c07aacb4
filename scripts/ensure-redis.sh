#!/usr/bin/env bash
# The Redis session-store tests start their own redis-server. Install Debian's when it is
# missing and we can (root with apt-get), otherwise say what to do.
set -euo pipefail
if command -v redis-server >/dev/null; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's redis-server for the session-store tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  exit 0
fi
echo "The session-store tests need redis-server: install it (sudo apt-get install redis-server) and run again." >&2
exit 1
