#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build PAPI with the perfctr component: fetch Debian's PAPI source
# (fetch.sh), copy it, apply tools/papi/patches with quilt, install
# libperfctr from tools/lib/perfctr into the build directory, and
# configure and make PAPI with --with-components=perfctr beside
# perf_event and --with-virtualtimer=perfctr, against Debian's libpfm4
# as Debian builds it.
#
#   tools/papi/build.sh [BUILD_DIR]
#
# BUILD_DIR (default $PERFCTR_CACHE/papi/build) is made anew: papi/ the
# patched source, built in place (src/libpapi.so, src/utils/...),
# perfctr/ the installed libperfctr, *.log the logs.
#
# Environment:
#   PERFCTR_CACHE  cache directory (default ~/.cache/perfctr)
#   MAKE_JOBS      make -j (default 1)
#   CC             compiler (default gcc)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CACHE=${PERFCTR_CACHE:-$HOME/.cache/perfctr}
build=${1:-$CACHE/papi/build}
jobs=${MAKE_JOBS:-1}
cc=${CC:-gcc}

log() { echo "papi: $*" >&2; }
die() { echo "papi: error: $*" >&2; exit 1; }

for tool in quilt rsync make "$cc"; do
	command -v "$tool" >/dev/null || die "$tool is missing"
done
multiarch=$("$cc" -print-multiarch 2>/dev/null || true)
pfm_libdir=/usr/lib${multiarch:+/$multiarch}
[[ -f /usr/include/perfmon/pfmlib.h && -e $pfm_libdir/libpfm.so ]] ||
	die "libpfm4 is missing (Debian: apt-get install libpfm4-dev)"

pristine=$(PERFCTR_CACHE=$CACHE "$here/fetch.sh")

log "preparing $build"
rm -rf "$build"
mkdir -p "$build"
rsync -a --exclude /.pc --exclude '/.done-*' "$pristine/" "$build/papi/"
ln -s "$here/patches" "$build/papi/patches"
(cd "$build/papi" && QUILT_PATCHES=patches quilt --quiltrc /dev/null push -a -q) \
	> "$build/quilt.log" 2>&1 || { cat "$build/quilt.log" >&2; die "the series does not apply"; }
log "applied $(grep -c . "$here/patches/series") patches"

log "installing libperfctr into $build/perfctr"
make -C "$top/tools/lib/perfctr" CC="$cc" OUTPUT="$build/libperfctr/" \
	PREFIX="$build/perfctr" install > "$build/libperfctr.log" 2>&1 ||
	{ tail -20 "$build/libperfctr.log" >&2; die "libperfctr did not build"; }

log "configuring PAPI"
(cd "$build/papi/src" && CC=$cc ./configure \
	--with-components="perfctr" \
	--with-virtualtimer=perfctr \
	--with-perf-events \
	--with-pfm-incdir=/usr/include \
	--with-pfm-libdir="$pfm_libdir" \
	--with-static-lib=yes --with-shared-lib=yes --with-shlib-tools) \
	> "$build/configure.log" 2>&1 ||
	{ tail -20 "$build/configure.log" >&2; die "configure failed"; }

log "building PAPI (make -j$jobs)"
make -C "$build/papi/src" -j"$jobs" PAPI_PERFCTR_ROOT="$build/perfctr" \
	> "$build/make.log" 2>&1 ||
	{ grep -n -m 20 'error' "$build/make.log" >&2 || tail -20 "$build/make.log" >&2; die "make failed"; }

log "built: $build/papi/src/libpapi.so, $build/papi/src/utils/papi_component_avail"
echo "$build/papi/src"
