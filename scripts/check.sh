#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run every test group and print the total "N passed, N failed" last.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

export RESULTS=$CACHE/results.txt
: > "$RESULTS"
status=0
# Series-level checks that are tests of their own.
bash "$TOP/scripts/style.sh" --results || status=1
for cpu in ${X86_CPUS-max}; do
	bash "$TOP/scripts/run-tests.sh" x86_64 "$cpu" kselftest || status=1
done
for cpu in ${I386_CPUS-pentium}; do
	bash "$TOP/scripts/run-tests.sh" i386 "$cpu" kselftest || status=1
done
for cpu in ${PPC64_CPUS-POWER9}; do
	bash "$TOP/scripts/run-tests.sh" ppc64 "$cpu" kselftest || status=1
done
for cpu in ${PPC32_CPUS-G4}; do
	bash "$TOP/scripts/run-tests.sh" ppc32 "$cpu" kselftest || status=1
done
echo
echo "Summary:"
awk '{ printf "  %s %s: %d passed, %d failed\n", $1, $2, $3, $4; p += $3; f += $4 }
     END { printf "%d passed, %d failed\n", p, f }' "$RESULTS"
failed=$(awk '{ f += $4 } END { print f + 0 }' "$RESULTS")
[[ $failed -eq 0 && $status -eq 0 ]]
