# SPDX-License-Identifier: GPL-2.0-or-later
# Headless Chromium for the suites that look at pages as a browser draws
# them (html.bats, pprof.bats): load it after helpers.

# Debian's python3, whose python3-pil reads the screenshots
PY=/usr/bin/python3

require_chromium() {
	command -v chromium >/dev/null || skip "chromium not installed (contrib/install-deps.sh)"
}

# chromium_run ARGS...: headless, as root too, a profile of its own; its
# log (console messages) in $BATS_TEST_TMPDIR/chromium.log
chromium_run() {
	timeout 60 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--virtual-time-budget=2000 --enable-logging=stderr --v=0 --force-device-scale-factor=1 \
		--user-data-dir="$BATS_TEST_TMPDIR/chromium" "$@" 2>"$BATS_TEST_TMPDIR/chromium.log"
}

# chromium_console_clean: no script error nor console message of the page
# in the last run's log (Chromium's own dbus complaints are not the page's)
chromium_console_clean() {
	! grep -E 'Uncaught|ERROR:CONSOLE|INFO:CONSOLE' "$BATS_TEST_TMPDIR/chromium.log"
}

# chromium_shot_at URL PNG W H: a W x H screenshot of URL as it is shown
# once the browser has scrolled to URL's #fragment.  Headless Chromium
# paints no window scrolled by a fragment before its screenshot (blank
# PNG), so the page is framed, and a frame scrolls before it is painted.
chromium_shot_at() {
	local frame="$BATS_TEST_TMPDIR/frame-$$.html"

	printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><style>html, body { margin: 0; overflow: hidden; } iframe { border: 0; display: block; width: %spx; height: %spx; }</style></head>\n<body><iframe src="%s"></iframe></body></html>\n' \
		"$3" "$4" "$1" >"$frame"
	chromium_run --screenshot="$2" --window-size="$3,$4" "file://$frame"
}

# keep_screenshot PNG: a copy in $PFMON_SCREENSHOT_DIR when it is set (the
# pictures README shows: make them with the tests' own headless runs)
keep_screenshot() {
	[ -n "${PFMON_SCREENSHOT_DIR:-}" ] || return 0
	mkdir -p "$PFMON_SCREENSHOT_DIR"
	cp "$1" "$PFMON_SCREENSHOT_DIR/${1##*/}"
}

# png_colours PNG MIN: the picture has at least MIN colours (not blank)
png_colours() {
	"$PY" - "$1" "$2" <<'PYEOF'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert('RGB')
colours = im.getcolors(maxcolors=1 << 20)
assert colours is not None and len(colours) >= int(sys.argv[2]), len(colours or [])
PYEOF
}
