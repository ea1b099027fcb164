# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What scripts/run-tests.sh and scripts/try.sh share: libperfctr's static
# build for a guest (the report of perfctr-selftest's lines is
# report-lib.sh's selftest_report).  Sourced after lib.sh.

# libperfctr, perfex and perfctr-selftest (tools/lib/perfctr), static,
# against the headers in $hdr, with libpfm4's event names where Debian
# has its static library for the build (x86_64).
build_lib() {	# out-dir cc
	rm -rf "$1"; mkdir -p "$1"
	local pfm=0
	[[ $2 == gcc ]] && pfm=1
	make -s -C "${PERFCTR_LIB_SRC:-$src/tools/lib/perfctr}" OUTPUT="$1/" CC="$2" LIBPFM=$pfm \
		KHDR_INCLUDES="-I$hdr/include" LDFLAGS=-static all tests >"$1.log" 2>&1 ||
		{ cat "$1.log" >&2; die "libperfctr does not build with $2"; }
}
