#!/usr/bin/env bash
# Headless Chromium for the Space's browser test (Debian's `chromium`; Playwright drives it and never
# downloads a browser of its own). Idempotent; without root or apt-get it says so and the test skips.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "install_browser: installing Debian chromium for the browser test"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    chromium --version
else
    echo "install_browser: chromium is missing and cannot be installed here (needs root and apt-get);" \
         "the browser test will be skipped. Install it with: sudo apt-get install chromium" >&2
fi
