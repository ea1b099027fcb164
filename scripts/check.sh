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
# Every architecture builds, at every patch: the series patch by patch on
# x86_64 and ppc64, the architectures without a driver, the uapi headers.
bash "$TOP/scripts/check-bisect.sh" || status=1
bash "$TOP/scripts/check-arches.sh" || status=1
bash "$TOP/scripts/check-uapi.sh" || status=1
# The documentation as the kernel builds it (kernel-doc, Sphinx).
bash "$TOP/scripts/check-docs.sh" || status=1
# libperfctr and perfex on the host; in the guests below, beside the
# kselftests.
bash "$TOP/scripts/check-lib.sh" || status=1
# make deb's configuration step on Debian's own amd64 configuration, and
# the libperfctr package (scripts/check-deb.sh; the kernel packages' build
# itself is not run here).
bash "$TOP/scripts/check-deb.sh" || status=1
# The Debian source package of libperfctr and perfex (debian/).
bash "$TOP/scripts/check-debsrc.sh" || status=1
# perfctr 2.7's own sources (Debian's papi 7.0.0), whose examples self
# and signal the guests below run (scripts/perfctr27.sh).
bash "$TOP/scripts/fetch-perfctr27.sh" >/dev/null || status=1
# Each architecture under each of its CPU models (the Makefile's lists).
boot_all() {
	local arch=$1 cpu
	shift
	for cpu in "$@"; do
		bash "$TOP/scripts/run-tests.sh" "$arch" "$cpu" kselftest || status=1
	done
}
boot_all x86_64 ${X86_CPUS-max}
# make try's boot on the x86_64 kernel just booted: KVM tried (a short
# bound), the fallback to TCG, perfctr-selftest and perfex in the guest.
bash "$TOP/scripts/try.sh" --check || status=1
boot_all x86_64-rt ${X86_RT_CPUS-max}
boot_all i386 ${I386_CPUS-pentium}
boot_all ppc64 ${PPC64_CPUS-POWER9}
boot_all ppc32 ${PPC32_CPUS-G4}
# ppc32 user space on the big-endian ppc64 kernel (COMPAT).
boot_all ppc64be ${PPC64BE_CPUS-POWER9}
# PAPI with the perfctr component (tools/papi, built for the guests and
# cached): exact instruction counts on POWER9, the timers on x86_64,
# i386 (its 32-bit build) and ppc32 (the G4: PAPI's bundled libpfm4, no
# events for its CPU).
bash "$TOP/scripts/run-tests.sh" x86_64 max papi || status=1
bash "$TOP/scripts/run-tests.sh" i386 max papi || status=1
bash "$TOP/scripts/run-tests.sh" ppc64 POWER9 papi || status=1
bash "$TOP/scripts/run-tests.sh" ppc32 G4 papi || status=1
# PAPI's configure options for the component (on a copy of the x86_64
# guests' source, built just above).
bash "$TOP/scripts/check-papi-configure.sh" || status=1
# PAPI installed as a site would (tools/papi/build.sh --prefix on the host,
# run from the prefix without LD_LIBRARY_PATH).
bash "$TOP/scripts/check-papi-install.sh" || status=1
echo
echo "Summary:"
awk '{ printf "  %s %s: %d passed, %d failed\n", $1, $2, $3, $4; p += $3; f += $4 }
     END { printf "%d passed, %d failed\n", p, f }' "$RESULTS"
failed=$(awk '{ f += $4 } END { print f + 0 }' "$RESULTS")
[[ $failed -eq 0 && $status -eq 0 ]]
