#!/usr/bin/env bash
# Debian's Chromium, for the one real-browser test. playwright-core drives it; no browser is
# downloaded from anywhere else. apt's output goes to the install log, like npm's.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
cache="${VIDEOPLATFORM_CACHE_DIR:-$HOME/.cache/n8n-nodes-videoplatform}"
log="$cache/install.log"
mkdir -p "$cache"
# npm test starts this install in the background (tools/install/chromium.js) and the browser test
# runs it too: one waits for the other, then finds Chromium there. Queue mode's apt-get of
# PostgreSQL and Redis takes the same lock (tools/common/paths.js, aptLock).
exec 9>"$cache/apt.lock"
flock 9
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "[install] Chromium (Debian's package, for the real-browser test): installing with apt-get; its output goes to $log" >&2
# --no-prompt (the background install): sudo fails rather than ask for a password mid-run.
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
if [ -n "$SUDO" ] && [ "${1:-}" = "--no-prompt" ]; then SUDO="sudo -n"; fi
if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium; } >>"$log" 2>&1; then
	echo "[install] Installing Chromium with apt-get failed. Read $log for the details, then install it by hand (apt-get install chromium) and run the tests again." >&2
	exit 1
fi
