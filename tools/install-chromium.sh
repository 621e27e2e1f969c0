#!/usr/bin/env bash
# Debian's Chromium, for the one real-browser test. playwright-core drives it; no browser is
# downloaded from anywhere else.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "[install-chromium] installing Debian's chromium package..." >&2
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >&2
