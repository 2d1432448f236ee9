#!/bin/sh
# Hooks Debian's Chromium into miniflare's local Browser Rendering so `npm run dev`
# and the tests work offline. Harmless elsewhere: with no Debian Chromium (and no
# root to install it) miniflare downloads its own browser as usual.
set -eu
cd "$(dirname "$0")/.."
DEB_CHROMIUM=/usr/lib/chromium/chromium

if [ ! -x "$DEB_CHROMIUM" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup-browser: installing Debian's chromium (once)"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ ! -x "$DEB_CHROMIUM" ]; then
  echo "setup-browser: no $DEB_CHROMIUM; miniflare will fetch its own browser"
  exit 0
fi

# Every miniflare copy names the Chrome build it expects; hook ours in under each.
versions=$(grep -ho 'var BROWSER_VERSION = "[0-9.]*"' \
  node_modules/miniflare/dist/src/index.js \
  node_modules/*/node_modules/miniflare/dist/src/index.js \
  node_modules/@*/*/node_modules/miniflare/dist/src/index.js 2>/dev/null \
  | sed 's/.*"\(.*\)"/\1/' | sort -u)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/.wrangler/chrome"
for v in $versions; do
  dir="$cache/linux-$v"
  mkdir -p "$dir/chrome-linux64"
  cat > "$dir/chrome-linux64/chrome" <<WRAP
#!/bin/sh
exec $DEB_CHROMIUM --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \\
  --disable-background-networking --disable-component-update --disable-sync \\
  --no-first-run --mute-audio "\$@"
WRAP
  chmod +x "$dir/chrome-linux64/chrome"
  touch "$dir/.miniflare-install-complete"
done
echo "setup-browser: Debian Chromium hooked in for miniflare ($versions)"
