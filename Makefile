# SPDX-License-Identifier: GPL-2.0
# perfctr series: fetch Linux 7.3, apply, build, boot under QEMU, test.
# A plain `make` prints the targets (make help); CI runs `make check`.

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

.PHONY: all help setup patches check-patches apply quilt kernel check demo try bench style clean deb

all: help

help:
	@echo 'perfctr for Linux 7.3: make TARGET (README, notes/DEVELOPING.md)'
	@echo
	@echo '  make try      the x86_64 test kernel (ppc64 on a ppc64le host) on this'
	@echo '                machine'"'"'s CPU under QEMU with KVM, no reboot; QEMU TCG if'
	@echo '                KVM fails (PROG="/path/to/binary args", TRY_SHELL=1)'
	@echo '  make demo     build the x86_64 and ppc64 kernels, boot them under QEMU'
	@echo '                and show virtual counters at work'
	@echo '  make check    every test (six kernels, QEMU boots, PAPI), ending in'
	@echo '                "N passed, N failed, N skipped"'
	@echo '  make deb      Debian packages of the patched kernel (from the running'
	@echo '                kernel'"'"'s configuration) and of libperfctr and perfex'
	@echo '                from debian/; SBKEY=, SBCERT=: the image signed for'
	@echo '                Secure Boot (notes/INSTALL-debian.md)'
	@echo '  make bench    the benchmarks (bench/README)'
	@echo '  make patches  regenerate patches/ and series from the tree folders'
	@echo '                (check-patches: check them)'
	@echo '  make apply    fetch Linux 7.3 and apply the series; make kernel: build'
	@echo '                the six test kernels; make quilt: a quilt tree'
	@echo '  make setup    install what they need (apt), unpack the base kernel'
	@echo '  make style    checkpatch.pl --strict on every patch'
	@echo '  make clean    remove the builds and runs from the cache'
	@echo
	@echo 'The cache is ~/.cache/perfctr (PERFCTR_CACHE overrides).'

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

# Only the two kernels it boots.
demo: apply
	@bash scripts/build-kernel.sh x86_64
	@bash scripts/build-kernel.sh ppc64
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
