#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run on a machine (or guest) booted with the perfctr kernel:
#   guest-run.sh [DIR]    DIR holds libperfctr_test and perfex (default:
#                         this script's directory), marker_test if built,
#                         and the examples self and signal in
#                         DIR/examples or DIR
# Prints TAP lines from libperfctr_test (which runs perfex and the
# examples end to end) and marker_test, and a final "libperfctr: N
# passed, N failed, N skipped" summary line: an "ok N ... # SKIP" line is
# a skip, not a pass.
dir=${1:-$(dirname "$0")}
ex=$dir/examples
[ -x "$ex/self" ] || ex=$dir
cd /tmp 2>/dev/null || cd /
out=$("$dir/libperfctr_test" --perfex "$dir/perfex" --examples "$ex" 2>&1)
rc=$?
if [ -x "$dir/marker_test" ]; then
	mout=$("$dir/marker_test" 2>&1) || rc=1
	out="$out
$mout"
fi
echo "$out"
skip=$(echo "$out" | grep -ci '^ok [0-9][^#]*#[[:space:]]*skip')
pass=$(($(echo "$out" | grep -c '^ok ') - skip))
fail=$(echo "$out" | grep -c '^not ok ')
if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
	echo "not ok - libperfctr_test exited $rc"
	fail=$((fail + 1))
fi
echo "libperfctr: $pass passed, $fail failed, $skip skipped"
