#!/usr/bin/env bash
# Headless Chromium for the Space's browser test (Debian's `chromium`; Playwright drives it and never
# downloads a browser of its own), and a CJK font (Debian `fonts-noto-cjk`) so Chinese in the page and in
# the heat map is drawn with glyphs, not boxes. Idempotent; without root or apt-get it says so and the
# browser test skips (or, for the font, fails its CJK check with a hint).
set -euo pipefail
packages=()
command -v chromium >/dev/null 2>&1 || packages+=(chromium)
if ! command -v fc-list >/dev/null 2>&1 || [ -z "$(fc-list :lang=zh family 2>/dev/null)" ]; then
    packages+=(fonts-noto-cjk)
fi
if [ ${#packages[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "install_browser: installing Debian ${packages[*]} for the browser test"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
    command -v chromium >/dev/null 2>&1 && chromium --version
    fc-list :lang=zh family | sed -n 1p
else
    echo "install_browser: missing ${packages[*]} and cannot install here (needs root and apt-get);" \
         "the browser test will be skipped or fail its CJK check. Install with: sudo apt-get install ${packages[*]}" >&2
fi
