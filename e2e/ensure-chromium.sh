#!/usr/bin/env bash
# The browser tests use Debian's Chromium (browsers cannot be downloaded by test tools here).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = 0 ]; then
  echo "installing Debian's chromium for the browser tests..." >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "the browser tests need Debian's chromium at /usr/bin/chromium: run 'sudo apt-get install -y chromium'" >&2
  exit 1
fi
