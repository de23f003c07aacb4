#!/usr/bin/env bash
# The metrics test (reliability/telemetry.test.ts) starts its own prometheus binary, with its
# own configuration and storage in a temporary directory, on a free port. Install Debian's when
# it is missing and we can (root with apt-get), otherwise say what to do. Debian's package
# starts a system service on install: it is kept from starting (policy-rc.d for the install),
# and stopped if it runs anyway, so that nothing is left listening on 9090.
set -euo pipefail
if command -v prometheus >/dev/null; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's prometheus for the metrics test..."
  policy=/usr/sbin/policy-rc.d
  made_policy=
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod +x "$policy"
    made_policy=1
  fi
  trap '[ -n "$made_policy" ] && rm -f "$policy"' EXIT
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  if command -v systemctl >/dev/null && systemctl is-active --quiet prometheus 2>/dev/null; then
    systemctl stop prometheus
    systemctl disable --quiet prometheus
  fi
  exit 0
fi
echo "The metrics test needs prometheus: install it (sudo apt-get install prometheus) and run again." >&2
exit 1
