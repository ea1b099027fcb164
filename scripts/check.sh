#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run every test group and print the total "N passed, N failed, N
# skipped" last.  Each group appends "LABEL SUITE PASSED FAILED [SKIPPED]"
# lines to $RESULTS (SKIPPED missing: 0); a skip is not a pass.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report-lib.sh"

export RESULTS=$CACHE/results.txt
: > "$RESULTS"
# Every group's output, whose "not ok" lines are repeated just above the
# total: CI keeps only the end of the output.
OUTLOG=$CACHE/check-output.txt
: > "$OUTLOG"
status=0
# A group (report-lib.sh's run_group): one that fails without recording a
# failure records "NAME setup 0 1".
group() {
	local st
	run_group "$@" | tee -a "$OUTLOG"
	st=${PIPESTATUS[0]}
	((st == 0)) || status=1
}
quiet() { "$@" >/dev/null; }	# a command without its output
# The result parsers on scripts/tests/report/'s consoles: seconds, and
# every total below depends on them.
group report-parsers bash "$TOP/scripts/check-report.sh"
# Series-level checks that are tests of their own.
group series-checkpatch bash "$TOP/scripts/style.sh" --results
# Every architecture builds, at every patch: the series patch by patch on
# x86_64 and ppc64, the architectures without a driver, the uapi headers.
group bisect bash "$TOP/scripts/check-bisect.sh"
# The leading fixes to code outside perfctr, each alone on plain 7.3.4:
# applied without fuzz, their objects built with W=1, no new warning.
group standalone bash "$TOP/scripts/check-standalone.sh"
group other-arches bash "$TOP/scripts/check-arches.sh"
# Configurations no test kernel has: i386 UP with and without a local
# APIC, ppc32 UP, each linked.
group configs bash "$TOP/scripts/check-configs.sh"
group uapi-headers bash "$TOP/scripts/check-uapi.sh"
# The documentation as the kernel builds it (kernel-doc, Sphinx).
group docs bash "$TOP/scripts/check-docs.sh"
# libperfctr and perfex on the host; in the guests below, beside the
# kselftests.
group libperfctr-host bash "$TOP/scripts/check-lib.sh"
# make deb's configuration step on Debian's own amd64 configuration
# (scripts/check-deb.sh; the kernel packages' build itself is not run
# here).
group deb-host bash "$TOP/scripts/check-deb.sh"
# make deb's library packages (deb.sh libdeb: debian/, dpkg-buildpackage,
# lintian), and over the single package it made before.
group debsrc-host bash "$TOP/scripts/check-debsrc.sh"
# Secure Boot: the kernel hook, deb.sh secureboot and sign-image, the
# build's module-signing key removed.
group secureboot-host bash "$TOP/scripts/check-secureboot.sh"
# make try's set-up: the host's packages only, apt untouched, as nobody.
group try-setup bash "$TOP/scripts/check-try-setup.sh"
# perfctr 2.7's own sources (Debian's papi 7.0.0), whose examples self
# and signal the guests below run (scripts/perfctr27.sh).
group perfctr27-fetch quiet bash "$TOP/scripts/fetch-perfctr27.sh"
# Each architecture under each of its CPU models (the Makefile's lists).
boot_all() {
	local arch=$1 cpu
	shift
	for cpu in "$@"; do
		group "$arch/$cpu:kselftest" bash "$TOP/scripts/run-tests.sh" "$arch" "$cpu" kselftest
	done
}
# QEMU 10.0.2 with an x86 PMU for TCG (tools/qemu), which the x86 guests
# below run on.
group qemu-patches bash "$TOP/tools/qemu/check.sh"
boot_all x86_64 ${X86_CPUS-max}
# The emulated PMU against QEMU's own instruction count (-icount
# shift=0, one CPU): Intel's architectural counters and AMD's.
group x86_64/Skylake-Client:icount bash "$TOP/scripts/run-tests.sh" x86_64 Skylake-Client icount
group x86_64/max:icount bash "$TOP/scripts/run-tests.sh" x86_64 max icount
# make try's boot on the x86_64 kernel just booted: KVM tried (a short
# bound), the fallback to TCG, perfctr-selftest and perfex in the guest.
group try bash "$TOP/scripts/try.sh" --check
boot_all x86_64-rt ${X86_RT_CPUS-max}
boot_all i386 ${I386_CPUS-pentium}
boot_all ppc64 ${PPC64_CPUS-POWER9}
boot_all ppc32 ${PPC32_CPUS-G4}
# ppc32 user space on the big-endian ppc64 kernel (COMPAT).
boot_all ppc64be ${PPC64BE_CPUS-POWER9}
# PAPI with the perfctr component (tools/papi, built for the guests and
# cached): exact instruction counts on POWER9 and on tools/qemu's x86
# PMUs (Intel's architectural counters on x86_64/Skylake-Client, AMD's
# core counters under i386's 32-bit build on max, the P6's two counters
# and single enable bit on pentium3), the timers
# everywhere, the component disabled with its reason on i386/pentium
# (no counters: the CPU model has no PMU) and on ppc32 (the G4: PAPI's
# bundled libpfm4, no events for its CPU).
group x86_64/Skylake-Client:papi bash "$TOP/scripts/run-tests.sh" x86_64 Skylake-Client papi
group i386/max:papi bash "$TOP/scripts/run-tests.sh" i386 max papi
group i386/pentium3:papi bash "$TOP/scripts/run-tests.sh" i386 pentium3 papi
group i386/pentium:papi bash "$TOP/scripts/run-tests.sh" i386 pentium papi
group ppc64/POWER9:papi bash "$TOP/scripts/run-tests.sh" ppc64 POWER9 papi
group ppc32/G4:papi bash "$TOP/scripts/run-tests.sh" ppc32 G4 papi
# PAPI's configure options for the component (on a copy of the x86_64
# guests' source, built just above).
group papi-configure bash "$TOP/scripts/check-papi-configure.sh"
# PAPI installed as a site would (tools/papi/build.sh --prefix on the host,
# run from the prefix without LD_LIBRARY_PATH).
group papi-install bash "$TOP/scripts/check-papi-install.sh"
echo
echo "Summary:"
results_total "$RESULTS" | sed '$d'
notok=$(grep -aE '(^|[:#] )not ok' "$OUTLOG" | cut -c1-200)
if [[ -n $notok ]]; then
	echo "Failures ($(wc -l <<<"$notok") lines; the first 25):"
	head -25 <<<"$notok" | sed 's/^/  /'
fi
results_total "$RESULTS" | tail -1
failed=$(awk '{ f += $4 } END { print f + 0 }' "$RESULTS")
[[ $failed -eq 0 && $status -eq 0 ]]
