#!/usr/bin/env bash
# The browser tests drive Chromium. Use Playwright's own build when present, else Debian's;
# install Debian's when we can (root with apt-get), otherwise say what to do.
set -euo pipefail
if [ -x /usr/bin/chromium ] || ls "${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}"/chromium-* >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's Chromium for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "The browser tests need Chromium: install it (sudo apt-get install chromium) and run again." >&2
exit 1
