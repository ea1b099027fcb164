# SPDX-License-Identifier: GPL-2.0
# perfctr series: fetch Linux 7.3, apply, build, boot under QEMU, test.
#
#   make try     the series on this machine's CPU under QEMU with KVM, no
#                reboot (PROG="/path/to/binary args", TRY_SHELL=1)
#   make check   everything, ending in "N passed, N failed"
#   make demo    boot the patched kernel and show virtual counters at work
#   make patches regenerate patches/ and series from the tree folders
#   make deb     Debian packages of the patched kernel (from the running
#                kernel's configuration) and of libperfctr and perfex

SHELL := /bin/bash
# Three x86_64 models and one for the RT kernel by default, to keep a fresh
# make check within CI's 90 minutes on 2 cores; the wider set, as before:
#   make check X86_CPUS="max Skylake-Client EPYC core2duo phenom" \
#              X86_RT_CPUS="max Skylake-Client"
X86_CPUS ?= max Skylake-Client EPYC
# The PREEMPT_RT x86_64 kernel (scripts/config/x86_64-rt.config).
X86_RT_CPUS ?= max
# i386: QEMU's pentium (P5MMX), pentium3 (P6), athlon (K7), and the Cyrix
# and VIA C3 identities QEMU has no model for (see scripts/run-tests.sh).
I386_CPUS ?= pentium pentium3 athlon pentium2,vendor=CyrixInstead pentium3,vendor=CentaurHauls
PPC64_CPUS ?= POWER9 POWER10 POWER8 powernv9
PPC32_CPUS ?= G4 750 7450 604
# ppc32 user space on the big-endian ppc64 kernel with COMPAT (pseries).
PPC64BE_CPUS ?= POWER9
export X86_CPUS X86_RT_CPUS I386_CPUS PPC64_CPUS PPC32_CPUS PPC64BE_CPUS

.PHONY: all setup patches check-patches apply quilt kernel check demo try bench style clean deb

all: check

setup:
	@bash scripts/setup.sh

patches:
	@python3 scripts/mkpatches.py

check-patches:
	@python3 scripts/mkpatches.py --check

apply: setup check-patches
	@bash scripts/apply.sh
	@bash scripts/check-gitam.sh

quilt: setup
	@bash scripts/quilt-tree.sh

kernel: apply
	@bash scripts/build-kernel.sh x86_64
	@bash scripts/build-kernel.sh x86_64 rt
	@bash scripts/build-kernel.sh i386
	@bash scripts/build-kernel.sh ppc64
	@bash scripts/build-kernel.sh ppc32
	@bash scripts/build-kernel.sh ppc64be

check: kernel
	@bash scripts/check.sh

demo: kernel
	@bash scripts/run-tests.sh x86_64 max demo
	@bash scripts/run-tests.sh ppc64 POWER9 demo

try:
	@bash scripts/try.sh

bench: kernel
	@bash scripts/bench.sh

deb:
	@bash scripts/deb.sh

style:
	@bash scripts/style.sh

clean:
	rm -rf $${PERFCTR_CACHE:-$$HOME/.cache/perfctr}/{build,run,tests,src,stage,bisect}
