#!/bin/sh
# One-time set-up shared by `npm run dev` and `npm test`: dependencies, then the local browser.
set -eu
cd "$(dirname "$0")/.."
# Patches in patches/ are applied by the postinstall step (patch-package); a newer patch reinstalls.
# CIRRUS_SKIP_INSTALL=1 keeps node_modules as it is (a copy of the tree sharing another's modules).
if [ "${CIRRUS_SKIP_INSTALL:-}" != "1" ] && { [ ! -x node_modules/.bin/vitest ] || [ package-lock.json -nt node_modules/.package-lock.json ] ||
  [ -n "$(find patches -newer node_modules/.package-lock.json 2>/dev/null)" ]; }; then
  npm ci --no-audit --no-fund --loglevel=error
fi
sh scripts/setup-browser.sh
