#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install everything pfmon needs to build, test, fuzz (clang, libFuzzer) and
# benchmark on Debian 12.
set -eu
PACKAGES="build-essential autoconf automake libtool pkg-config
	libpfm4 libpfm4-dev libelf-dev libdwarf-dev libdeflate-dev zlib1g-dev libjansson-dev
	bats python3 jq groff-base util-linux time
	binutils binutils-ia64-linux-gnu elfutils linux-perf hyperfine valgrind
	libc6-dbg
	clang libclang-rt-14-dev
	libiberty-dev libdw-dev libunwind-dev libcapstone-dev libzstd-dev libtraceevent-dev zstd
	protobuf-c-compiler libprotobuf-c-dev golang-go
	openmpi-bin libopenmpi-dev
	slurmctld slurmd slurm-client munge bolt-16
	chromium python3-pil libxml2-utils
	lintian debhelper dpkg-dev fakeroot mandoc bash-completion
	hotspot strace"
missing=
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "install-deps: every package pfmon needs is installed"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "error: missing packages:$missing (run this script as root)" >&2
	exit 1
fi
start=$(date +%s)
export DEBIAN_FRONTEND=noninteractive
echo "install-deps: $(echo $missing | wc -w) packages missing; reading Debian's package lists"
apt-get update -qq
# shellcheck disable=SC2086
echo "install-deps: installing$missing and what they depend on (several minutes on a fresh system)"
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/tmp/pfmon-install-deps.log 2>&1 || {
	tail -20 /tmp/pfmon-install-deps.log >&2
	echo "error: apt-get install failed (its log: /tmp/pfmon-install-deps.log)" >&2
	exit 1
}
echo "install-deps: done in $(($(date +%s) - start)) s"
