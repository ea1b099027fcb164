#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build PAPI with the perfctr component: fetch PAPI 7.2.0's source
# (fetch.sh), copy it, apply tools/papi/patches with quilt (no fuzz
# allowed: a hunk that no longer fits exactly stops the build), install
# libperfctr from tools/lib/perfctr into the build directory, and
# configure and make PAPI with the perfctr component beside perf_event
# (--with-perfctr-prefix, that directory) and --with-virtualtimer=perfctr,
# against Debian's libpfm4 as Debian builds it.
#
#   tools/papi/build.sh [--prefix DIR] [--components LIST] [BUILD_DIR]  (options in any order)
#   tools/papi/build.sh --guest ARCH [BUILD_DIR]
#
# --components LIST: PAPI's other components to build besides perfctr
# and perf_event, as configure --with-components takes them (blank
# separated, for instance "appio coretemp"); each needs what its own
# README asks for.
#
# --prefix DIR: also install PAPI there (make install: DIR/bin's
# utilities, DIR/lib's libpapi.so and libpapi.a with the component and
# libperfctr inside, DIR/include's papi.h), linked with a run path to
# DIR/lib, so that neither the utilities nor a program linked with
# -Wl,-rpath,DIR/lib need LD_LIBRARY_PATH; what tools configure
# --with-papi=DIR against.
#
# BUILD_DIR (default $PERFCTR_CACHE/papi/build) is made anew: papi/ the
# patched source, built in place (src/libpapi.so, src/utils/...),
# perfctr/ the installed libperfctr, *.log the logs.
#
# --guest ARCH (x86_64, i386, ppc64 or ppc32; ppc64 little-endian, ppc32
# big-endian): the build for the test guests (scripts/run-tests.sh ARCH
# CPU papi), static, with the utilities and src/ctests only (no Fortran:
# F77 is left empty), perfctr as component 0 (--with-perfctr-presets),
# against Debian's libpfm4 of that architecture (libpfm4-dev,
# libpfm4-dev:i386, libpfm4-dev:ppc64el; ppc32: PAPI's bundled
# libpfm4); all but x86_64 are cross-compiled.  BUILD_DIR defaults to
# $PERFCTR_CACHE/papi/guest-ARCH, and is kept while the series, the
# libperfctr tree and this script are unchanged (a stamp of their
# contents): a second run builds nothing.
#
# Environment:
#   PERFCTR_CACHE  cache directory (default ~/.cache/perfctr)
#   PERFCTR_SRC    the perfctr tree whose tools/lib/perfctr (and uapi
#                  headers) to build (default: this one; the guests use
#                  the kernel tree they boot)
#   MAKE_JOBS      make -j (default 1)
#   CC             compiler (default gcc; --guest sets it)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CACHE=${PERFCTR_CACHE:-$HOME/.cache/perfctr}
psrc=${PERFCTR_SRC:-$top}
guest=
prefix=
components=
while [[ ${1:-} == --* ]]; do
	case $1 in
	--prefix) prefix=${2:?--prefix needs a directory}
		  [[ $prefix == /* ]] || prefix=$PWD/$prefix ;;
	--components) components=${2:?--components needs a list} ;;
	--guest) guest=${2:?--guest needs an architecture} ;;
	*) echo "papi: error: unknown option $1 (--prefix DIR, --components LIST, --guest ARCH)" >&2
	   exit 1 ;;
	esac
	shift 2
done
if [[ -n $guest && -n $prefix$components ]]; then
	echo "papi: error: --guest builds the test guests' PAPI: no --prefix or --components" >&2
	exit 1
fi
build=${1:-$CACHE/papi/${guest:+guest-$guest}}
[[ -n $guest ]] || build=${1:-$CACHE/papi/build}
jobs=${MAKE_JOBS:-1}
cc=${CC:-gcc}
# Configure options and make variables of each kind of build.
conf=(--with-static-lib=yes --with-shared-lib=yes --with-shlib-tools)
[[ -n $prefix ]] && conf+=(--prefix="$prefix" LDFLAGS="-Wl,-rpath,$prefix/lib")
[[ -n $components ]] && conf+=(--with-components="$components")
makevars=()
# configure adds a run path to the build directory for the utilities
# (--with-shlib-tools); installed, they look in DIR/lib only.
[[ -n $prefix ]] && makevars=(LDFLAGS="-Wl,-rpath,$prefix/lib,--enable-new-dtags")
targets=()
case $guest in
'') ;;
x86_64) cc=gcc conf=() ;;
ppc64) cc=powerpc64le-linux-gnu-gcc
       # Cross-compiling: what configure cannot find out by running.
       # --with-CPU: the family, for sysdetect's sources (else the
       # host's, x86, and its cpuid); the same build for POWER8-10.
       conf=(--host=powerpc64le-linux-gnu --with-arch=ppc64 --with-bitmode=64
	     --with-CPU=POWER9 --with-OS=linux --with-ffsll --with-tls=__thread
	     --with-walltimer=clock_realtime --with-nativecc=gcc) ;;
# The i386 guests' 32-bit user space, cross-compiled as their selftests
# are, against Debian's i386 libpfm4.
i386) cc=i686-linux-gnu-gcc
      conf=(--host=i686-linux-gnu --with-arch=i686 --with-bitmode=32
	    --with-CPU=x86 --with-OS=linux --with-ffsll --with-tls=__thread
	    --with-walltimer=clock_realtime --with-nativecc=gcc) ;;
# ppc32 (big-endian, the G4 guests): no libpfm4 for powerpc in Debian's
# archive here, so PAPI's bundled src/libpfm4, cross-built; its tables
# are the 64-bit POWER CPUs' (none for the 604-7450), so the component is
# disabled there with its reason and the virtual timers are what runs.
# --with-CPU=PPC970: a powerpc family, for sysdetect's sources.
ppc32) cc=powerpc-linux-gnu-gcc
       conf=(--host=powerpc-linux-gnu --with-arch=ppc --with-bitmode=32
	     --with-CPU=PPC970 --with-OS=linux --with-ffsll --with-tls=__thread
	     --with-walltimer=clock_realtime --with-nativecc=gcc) ;;
*) echo "papi: error: no guest build for $guest (x86_64, i386, ppc64, ppc32)" >&2; exit 1 ;;
esac
# Debian's libpfm4 (libpfm4-dev of the guest's architecture), or PAPI's
# bundled one where Debian has none.
bundled_pfm=0
[[ $guest == ppc32 ]] && bundled_pfm=1

log() { echo "papi: $*" >&2; }
die() { echo "papi: error: $*" >&2; exit 1; }

for tool in quilt rsync make "$cc"; do
	command -v "$tool" >/dev/null || die "$tool is missing"
done
multiarch=$("$cc" -print-multiarch 2>/dev/null || true)
pfm_libdir=/usr/lib${multiarch:+/$multiarch}
pfm_conf=(--with-pfm-incdir=/usr/include --with-pfm-libdir="$pfm_libdir")
if ((bundled_pfm)); then
	# Built by PAPI's make into src/libpfm4/lib.
	pfm_libdir=$build/papi/src/libpfm4/lib pfm_conf=()
else
	pfm_lib=$pfm_libdir/libpfm.so; [[ -n $guest ]] && pfm_lib=$pfm_libdir/libpfm.a
	[[ -f /usr/include/perfmon/pfmlib.h && -e $pfm_lib ]] ||
		die "libpfm4 is missing: $pfm_lib (Debian: apt-get install libpfm4-dev${multiarch:+ or libpfm4-dev for $multiarch})"
fi
if [[ -n $guest ]]; then
	# Static utilities and tests: libpfm after libpapi.a on their link
	# lines (LDFLAGS follows the library there).
	conf+=(--with-static-lib=yes --with-shared-lib=no --with-static-tools --with-tests=ctests
	       --with-perfctr-presets --disable-fortran)
	makevars=(F77= LDFLAGS="-static -L$pfm_libdir -lpfm")
	targets=(utils ctests)
fi

pristine=$(PERFCTR_CACHE=$CACHE "$here/fetch.sh")

# A guest build is kept while what goes into it is unchanged.
stamp=
if [[ -n $guest ]]; then
	stamp=$({ cat "$here/build.sh" "$here/patches/series" "$here"/patches/*.patch
		  find "$psrc/tools/lib/perfctr" "$psrc/include/uapi/linux/perfctr.h" \
		       "$psrc"/arch/*/include/uapi/asm/perfctr.h "$psrc/tools/perfctr" -type f \
		       -print0 2>/dev/null | sort -z | xargs -0 cat
		  echo "$pristine $("$cc" --version | head -1)"; } | sha256sum | cut -c1-16)
	if [[ -f $build/stamp && $(cat "$build/stamp") == "$stamp" ]]; then
		log "up to date: $build"
		echo "$build/papi/src"
		exit 0
	fi
fi

log "preparing $build"
rm -rf "$build"
mkdir -p "$build"
rsync -a --exclude /.pc --exclude '/.done-*' "$pristine/" "$build/papi/"
ln -s "$here/patches" "$build/papi/patches"
(cd "$build/papi" && QUILT_PATCHES=patches quilt --quiltrc /dev/null push -a -q --fuzz=0) \
	> "$build/quilt.log" 2>&1 || { cat "$build/quilt.log" >&2; die "the series does not apply"; }
log "applied $(grep -c . "$here/patches/series") patches"

log "installing libperfctr into $build/perfctr"
make -C "$psrc/tools/lib/perfctr" CC="$cc" OUTPUT="$build/libperfctr/" \
	PREFIX="$build/perfctr" install > "$build/libperfctr.log" 2>&1 ||
	{ tail -20 "$build/libperfctr.log" >&2; die "libperfctr did not build"; }

# No Fortran for the guests: F77=false fails configure's test quietly,
# and --disable-fortran keeps PAPI 7.2's testlib from compiling
# ftests_util.F with it.
log "configuring PAPI${guest:+ for the $guest guests}"
(cd "$build/papi/src" && env CC="$cc" ${guest:+F77=false} ./configure \
	--with-perfctr-prefix="$build/perfctr" \
	--with-virtualtimer=perfctr \
	--with-perf-events \
	"${pfm_conf[@]}" \
	"${conf[@]}") \
	> "$build/configure.log" 2>&1 ||
	{ tail -20 "$build/configure.log" >&2; die "configure failed"; }

log "building PAPI (make -j$jobs)"
# The bundled libpfm4 first, as PAPI's Rules.pfm4_pe builds it (whose
# own target then makes everything, the utilities included, without
# -lpfm): the utilities and tests link it.
if ((bundled_pfm)); then
	make -C "$build/papi/src/libpfm4" ARCH=ppc CC="$cc -m32 -Wno-override-init" lib \
		> "$build/make-libpfm4.log" 2>&1 ||
		{ tail -20 "$build/make-libpfm4.log" >&2; die "PAPI's libpfm4 did not build"; }
fi
make -C "$build/papi/src" -j"$jobs" "${makevars[@]}" \
	"${targets[@]}" > "$build/make.log" 2>&1 ||
	{ grep -n -m 20 'error' "$build/make.log" >&2 || tail -20 "$build/make.log" >&2; die "make failed"; }

[[ -n $stamp ]] && echo "$stamp" > "$build/stamp"
if [[ -n $prefix ]]; then
	log "installing PAPI into $prefix"
	make -C "$build/papi/src" "${makevars[@]}" install > "$build/install.log" 2>&1 ||
		{ tail -20 "$build/install.log" >&2; die "make install failed"; }
	log "installed: $prefix/bin/papi_component_avail, $prefix/lib/libpapi.so"
fi
lib=libpapi.so; [[ -n $guest ]] && lib=libpapi.a
log "built: $build/papi/src/$lib, $build/papi/src/utils/papi_component_avail"
echo "$build/papi/src"
