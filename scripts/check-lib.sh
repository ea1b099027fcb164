#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# libperfctr and perfex on the host (tools/lib/perfctr/run-tests.sh): the
# library and perfex built warning-free for x86_64, i386, ppc64le and
# ppc32 (dynamic and static), make install with the pkg-config file and
# the soname, the man pages through man --warnings and mandoc -T lint,
# likwid's own marker examples built unchanged (scripts/fetch-likwid.sh),
# and the event encoding against libpfm4's tables (Debian 12's, and
# Debian 13's for Alder Lake and Zen 5).  The same sources as
# the series: the applied tree's copy.  Their runs under the perfctr
# kernel are in run-tests.sh (groups libperfctr, libperfctr-ia32).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report-lib.sh"	# tap_log

out=$CACHE/lib-host
rm -rf "$out"
log "libperfctr: host checks"
# Debian 13's libpfm4, unpacked by setup.sh: its PMUs' event tests.
pfm13=$CACHE/libpfm4-trixie/root
# likwid 5.2.2's marker examples (Debian 12's likwid package), built unchanged.
likwid_ex=$(bash "$TOP/scripts/fetch-likwid.sh" 2>"$CACHE/lib-host-likwid.log") || likwid_ex=
OUT=$out LIBPFM13_ROOT=$pfm13 LIKWID_EXAMPLES=$likwid_ex \
	sh "$CACHE/src/tools/lib/perfctr/run-tests.sh" > "$out.log" 2>&1
p=0 f=0 s=0
if [[ ! -f $pfm13/.done ]]; then
	f=$((f + 1)); echo "libperfctr host: not ok - Debian 13's libpfm4 is not in $pfm13 (scripts/setup.sh)"
fi
if [[ -z $likwid_ex ]]; then
	f=$((f + 1)); echo "libperfctr host: not ok - likwid's examples not fetched (scripts/fetch-likwid.sh):"
	sed 's/^/libperfctr host: # /' "$CACHE/lib-host-likwid.log"
fi
# Its TAP (report-lib.sh's tap_log: a "# SKIP" is a skip; a run that died
# before its plan, which it prints last, fails).
tap_log "$out.log" "libperfctr host"
# The README's example is the one run-tests.sh compiles against the
# installation (tests/readme_example.c): the same code, whitespace aside.
norm() { sed 's/^[[:space:]]*//; s/[[:space:]]\+/ /g; /^$/d'; }
if diff <(sed -n '/^    \/\* cc t\.c/,/^    }$/p' "$TOP/README" | norm) \
	<(sed -n '/^\/\* cc t\.c/,$p' "$TOP/tools/lib/perfctr/tests/readme_example.c" | norm) \
	> "$out/readme.diff" && [[ -s $TOP/README ]] && grep -q 'cc t\.c' "$TOP/README"; then
	p=$((p + 1)); echo "libperfctr host: ok - the README's example is tests/readme_example.c"
else
	f=$((f + 1)); echo "libperfctr host: not ok - the README's example differs from tests/readme_example.c"
	sed 's/^/libperfctr host: # /' "$out/readme.diff"
fi
echo "libperfctr host: $p passed, $f failed, $s skipped"
[[ -n ${RESULTS:-} ]] && echo "libperfctr host $p $f $s" >> "$RESULTS"
((f == 0))
