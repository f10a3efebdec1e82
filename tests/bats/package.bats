#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package: the files of 'make dist' (make distdir), built with
# dpkg-buildpackage -b as a distribution would (without rerunning the test
# suite), clean of lintian errors, holding pfmon, its man pages and its
# bash completion; the packaged pfmon runs and its completion answers.

load helpers
load completion

TOP_BUILDDIR=$(dirname "$PFMON")

require_packaging_tools() {
	local t
	for t in dpkg-buildpackage dpkg-checkbuilddeps dpkg-deb dpkg-parsechangelog lintian make; do
		command -v "$t" >/dev/null || skip "$t is not installed (contrib/install-deps.sh)"
	done
}

# the version of debian/changelog without its Debian revision
upstream_version() {
	dpkg-parsechangelog -l "$TESTS_SRCDIR/../debian/changelog" -S Version | sed 's/-[^-]*$//'
}

setup_file() {
	require_packaging_tools
	export PKG_DIR="$BATS_FILE_TMPDIR/pkg"
	mkdir -p "$PKG_DIR"
	# a make of our own: not the jobs of the 'make check' that runs us
	unset MAKEFLAGS MFLAGS MAKELEVEL
	make -s -C "$TOP_BUILDDIR" distdir distdir="$PKG_DIR/src" >"$PKG_DIR/distdir.log" 2>&1 || {
		cat "$PKG_DIR/distdir.log" >&2
		return 1
	}
	if ! (cd "$PKG_DIR/src" && dpkg-checkbuilddeps -B >"$PKG_DIR/deps.log" 2>&1); then
		echo "missing build dependencies" >"$PKG_DIR/skip"
		return 0
	fi
	(cd "$PKG_DIR/src" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
		nice dpkg-buildpackage -us -uc -b >"$PKG_DIR/build.log" 2>&1)
	echo $? >"$PKG_DIR/build.status"
}

setup() {
	require_packaging_tools
	[ ! -e "$PKG_DIR/skip" ] || skip "$(cat "$PKG_DIR/deps.log")"
	DEB=$(ls "$PKG_DIR"/pfmon_*.deb 2>/dev/null | head -1)
}

@test "dpkg-buildpackage -b builds the package from the files of make dist" {
	[ "$(cat "$PKG_DIR/build.status")" -eq 0 ] || { tail -30 "$PKG_DIR/build.log"; false; }
	[ -n "$DEB" ]
	# the package's version is pfmon's: one version scheme
	[ "$(dpkg-deb -f "$DEB" Package)" = pfmon ]
	version=$(dpkg-deb -f "$DEB" Version)
	[ "${version%-*}" = "$("$PFMON" --version | sed -n '1s/^pfmon version //p')" ]
}

@test "lintian finds no error in the package" {
	[ -n "$DEB" ] || skip "the package was not built"
	changes=$(ls "$PKG_DIR"/pfmon_*.changes | head -1)
	run lintian --fail-on error --allow-root "$changes"
	echo "$output"
	[ "$status" -eq 0 ]
	! printf '%s\n' "$output" | grep -q '^E: '
}

@test "the package holds pfmon, its man pages, its bash completion and its licence" {
	[ -n "$DEB" ] || skip "the package was not built"
	run dpkg-deb -c "$DEB"
	[ "$status" -eq 0 ]
	for f in ./usr/bin/pfmon ./usr/share/man/man1/pfmon.1.gz ./usr/share/man/man5/pfmon-smpl.5.gz \
		./usr/share/man/man5/pfmon-metrics.5.gz ./usr/share/bash-completion/completions/pfmon \
		./usr/share/doc/pfmon/copyright; do
		printf '%s\n' "$output" | awk '{ print $NF }' | grep -qx -- "$f" || { echo "missing: $f"; false; }
	done
	# every man page of the tree is packaged
	for m in "$TESTS_SRCDIR"/../man/*.[1-8]; do
		name=$(basename "$m")
		printf '%s\n' "$output" | grep -q "/man${name##*.}/$name.gz\$" || { echo "missing: $name"; false; }
	done
	dpkg-deb -f "$DEB" Depends | grep -q libpfm4
}

@test "the packaged pfmon runs and states its licence; its completion answers" {
	[ -n "$DEB" ] || skip "the package was not built"
	root="$BATS_TEST_TMPDIR/root"
	dpkg-deb -x "$DEB" "$root"
	run "$root/usr/bin/pfmon" --version
	[ "$status" -eq 0 ]
	[[ "$output" == *"GPL-2.0-or-later"* ]]
	run "$root/usr/bin/pfmon" -e task-clock true
	[ "$status" -eq 0 ]
	[[ "$output" == *task-clock* ]]
	require_bash_completion
	PFMON="$root/usr/bin/pfmon" COMPLETION_SCRIPT="$root/usr/share/bash-completion/completions/pfmon" \
		run complete_line "pfmon --report-sort=bin"
	[ "$output" = binary ]
}
