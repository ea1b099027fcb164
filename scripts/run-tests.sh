#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the perfctr selftests (static: x86_64 and i386, i386 alone, or
# ppc64le, ppc32) against the patched kernel's headers, pack them into an
# initramfs (with busybox on x86_64, with scripts/guest-init.c elsewhere),
# boot the kernel under QEMU TCG and report.
#
#   run-tests.sh ARCH CPU MODE    ARCH: x86_64 | i386 | ppc64 | ppc32 |
#                                       x86_64-rt (the PREEMPT_RT kernel,
#                                       build-kernel.sh x86_64 rt) |
#                                       ppc64be (ppc32 user space on the
#                                       big-endian ppc64 kernel, pseries)
#                                 MODE: kselftest | demo | bench | bench-base
#                                       | bench-off | bench-switch
#                                       | bench-insns[-base|-off] (ppc64)
#                                       | bench-icount[-base|-off]
#                                       | bench-marker (marker_bench:
#                                       libperfctr's marker regions
#                                       against perf_event read() pairs)
#                                       (instructions per switch by the
#                                       clock, under -icount shift=0, one
#                                       CPU; -base, -off: the unpatched
#                                       and PERFCTR=n bench kernels)
#                                       | bench-memory
#                                       | papi (PAPI with the perfctr
#                                       component: x86_64, ppc64;
#                                       scripts/papi-guest.sh)
#                                       | papi-bench (papi_bench on the
#                                       bench kernel)
#                                       | icount (x86: tools/qemu's PMU
#                                       against QEMU's -icount, one CPU:
#                                       pmu_exact --icount)
#
# PERFCTR_LIB_SRC: a libperfctr tree to build instead of the applied
# kernel tree's (to try library changes on a kernel already built).
# Prints every result line, then one line per group:
#   <arch>/<cpu> <suite>: N passed, N failed[, N skipped]
# and appends the group counts to $RESULTS (if set); exits 1 if a group
# failed or the guest did not finish.  A skipped test is not a pass; one
# that must run here (scripts/report-lib.sh's MUST_RUN) fails when it
# skips.  Any BUG, WARNING,
# Oops, KASAN, lockdep or UBSAN report on the console is a failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/papi-guest.sh"
. "$(dirname "$0")/guest-lib.sh"
. "$(dirname "$0")/report-lib.sh"
. "$(dirname "$0")/perfctr27.sh"

arch=${1:-x86_64} cpu=${2:-max} mode=${3:-kselftest}
# A group's counts: to $RESULTS (make check's total, if set) and to this
# script's exit status (1 if any group failed).
failed=0
record() {	# label/cpu suite passed failed [skipped]
	if [[ -n ${RESULTS:-} ]]; then echo "$1 $2 $3 $4 ${5:-0}" >> "$RESULTS"; fi
	if (($4 != 0)); then failed=1; fi
}
# label: the kernel (its build directory and the name in the results);
# arch: its architecture, which the rest of this script goes by.
label=$arch
case $label in
x86_64-rt) arch=x86_64 ;;
ppc64be) arch=ppc32 ;;	# ppc32 user space on the big-endian ppc64 kernel
esac
src=$CACHE/src out=$CACHE/build/$label kout=$out
[[ $mode == bench || $mode == bench-switch || $mode == bench-memory || $mode == papi-bench ||
   $mode == bench-icount || $mode == bench-marker ]] &&
	kout=$CACHE/build/$arch-bench
[[ $mode == bench-base ]] && kout=$CACHE/build/$arch-bench-base
[[ $mode == bench-off ]] && kout=$CACHE/build/$arch-bench-off
# Instructions per switch on the bench kernel, bench-base or bench-off.
[[ $mode == bench-insns* ]] && kout=$CACHE/build/$arch-bench${mode#bench-insns}
[[ $mode == bench-icount-* ]] && kout=$CACHE/build/$arch-bench${mode#bench-icount}
work=$CACHE/run/$label-$cpu-$mode
# x86 guests run on QEMU 10.0.2 with tools/qemu/patches, an x86 PMU for
# TCG (pmu=on), built once into the cache; its firmware is Debian's.
# x86_pmu_model: the model perfctr's driver must find on a CPU model
# whose PMU QEMU emulates (Intel architectural perfmon, P6, AMD K7
# legacy counters, AMD core counters); empty: no PMU there, the driver
# falls back.
x86_pmu_model() {	# cpu
	case $1 in
	# TCG's max (AMD family 15) has perfctr-core: the core counters; EPYC
	# (family 17h) has not, and athlon (family 6) is a K7: the legacy ones.
	max) echo 'cpu type 25 (AMD family 15h+ core counters)' ;;
	EPYC*) echo 'cpu type 19 (AMD family 10h)' ;;
	athlon) echo 'cpu type 9 (AMD K7/K8)' ;;
	Skylake-Client*) echo 'cpu type 24 (Intel architectural perfmon v2+)' ;;
	pentium2|pentium3) echo 'cpu type 3 (Intel P6)' ;;
	esac
}
x86_pmu_arg() { [[ -n $(x86_pmu_model "$1") ]] || echo --no-pmu; }
x86_pmu=on
# PERFCTR_QEMU_X86: another such qemu-system-x86_64 (a developer's build).
if [[ $arch == x86_64 || $arch == i386 ]]; then
	x86_qemu=${PERFCTR_QEMU_X86:-$(bash "$TOP/tools/qemu/build.sh")} ||
		die "QEMU with the x86 PMU does not build"
fi
case $arch in
x86_64) karch=x86 cc=gcc ;;
i386) karch=x86 cc=i686-linux-gnu-gcc ;;	# the x86_64 kernel's ia32 build
ppc64) karch=powerpc cc=powerpc64le-linux-gnu-gcc ;;
ppc32) karch=powerpc cc=powerpc-linux-gnu-gcc ;;
*) die "unknown arch $arch" ;;
esac
rm -rf "$work"; mkdir -p "$work/root"/{bin,sbin,proc,sys,dev,tmp,tests}

if [[ $mode == papi* ]]; then
	papi_pack "$work/root"
else
# Headers and tests.
hdr=$out/hdr
kbarch=$karch; [[ $arch == i386 ]] && kbarch=i386	# as build-kernel.sh
make -s -C "$src" O="$out" ARCH=$kbarch INSTALL_HDR_PATH="$hdr" headers_install
build_tests() {	# out-dir cc
	# From scratch: make tracks the sources, not the installed headers,
	# and a binary built against another ABI would read the state wrong.
	# Through the kselftest framework (TARGETS=perfctr), installed with
	# run_kselftest.sh into out-dir/install, the binaries in out-dir.
	rm -rf "$1"; mkdir -p "$1"
	make -s -C "$src/tools/testing/selftests" O="$1" TARGETS=perfctr CC="$2" \
		KHDR_INCLUDES="-I$hdr/include" LDFLAGS=-static \
		INSTALL_PATH="$1/install" install >"$1.log" 2>&1 ||
		{ cat "$1.log" >&2; die "selftests do not build with $2"; }
	ln -s "$1"/install/perfctr/* "$1/"
}
build_tests "$CACHE/tests/$label" "$cc"
# libperfctr, perfex and perfctr-selftest: build_lib (guest-lib.sh).
if [[ $mode == kselftest ]]; then
	build_lib "$CACHE/tests/$label-lib" "$cc"
	cp "$CACHE/tests/$label-lib/"{perfex,perfctr-selftest} "$work/root/tests/"
	cp "$CACHE/tests/$label-lib/tests/"{libperfctr_test,marker_test} "$work/root/tests/"
	if [[ $arch == x86_64 || $arch == i386 ]]; then
		cp "$CACHE/tests/$label-lib/tests/perf_differential" "$work/root/tests/"
	fi
	cp "$CACHE/tests/$label-lib/examples/"{self,signal} "$work/root/tests/"
	# perfctr 2.7's own self and signal, against the installed library.
	P27_NAMES=
	if ! p27_build "$CACHE/tests/$label-lib" "$cc" "$arch" "$work/root/tests"; then
		P27_NAMES="not ok - perfctr 2.7's sources are missing (scripts/fetch-perfctr27.sh)"
	elif [[ $arch == ppc64 ]]; then
		P27_NAMES=$(p27_ppc64_names "$CACHE/tests/$label-lib" "$cc") || true
	fi
	if [[ $arch == x86_64 ]]; then
		build_lib "$CACHE/tests/$label-lib-ia32" i686-linux-gnu-gcc
		cp "$CACHE/tests/$label-lib-ia32/perfex" "$work/root/tests/perfex_ia32"
		cp "$CACHE/tests/$label-lib-ia32/tests/libperfctr_test" \
			"$work/root/tests/libperfctr_test_ia32"
	fi
fi
if [[ $mode == bench-marker ]]; then
	build_lib "$CACHE/tests/$label-lib" "$cc"
	cp "$CACHE/tests/$label-lib/tests/marker_bench" "$work/root/tests/"
fi
cp "$CACHE/tests/$label"/perfctr_{test,pmc_test,demo,bench} "$work/root/tests/"
# The emulated x86 PMU through mainline perf (tools/qemu/tests/pmu_exact.c).
if [[ ($mode == kselftest || $mode == icount) && ($arch == x86_64 || $arch == i386) ]]; then
	$cc -static -O2 -Wall -Wextra -Werror -o "$work/root/tests/pmu_exact" \
		"$TOP/tools/qemu/tests/pmu_exact.c" || die "pmu_exact does not build with $cc"
fi
[[ $arch == ppc32 ]] && cp "$CACHE/tests/$label/perfctr_ppc32_test" "$work/root/tests/"
if [[ $arch == x86_64 ]]; then
	build_tests "$CACHE/tests/$label-ia32" i686-linux-gnu-gcc
	cp "$CACHE/tests/$label-ia32/perfctr_test" "$work/root/tests/perfctr_test_ia32"
	file "$work/root/tests/perfctr_test_ia32" 2>/dev/null | grep -q '32-bit' ||
		[[ ! -x /usr/bin/file ]] || die "i386 test binary is not 32-bit"
fi
if [[ $arch == i386 ]]; then
	file "$work/root/tests/perfctr_test" 2>/dev/null | grep -q '32-bit' ||
		[[ ! -x /usr/bin/file ]] || die "i386 test binary is not 32-bit"
fi
fi

# The user ABI has one layout in every user ABI of the architecture:
# abi_layout.h's static_asserts, compiled freestanding for each (x32 needs
# no x32 libc; ppc32 is compiled by the 32-bit cross compiler; i386 is
# one of x86_64's).
abi_cpu=max; [[ $arch == ppc64 ]] && abi_cpu=POWER9
if [[ $mode == kselftest && $cpu == "${ABI_CHECK_CPU:-$abi_cpu}" && $label == "$arch" &&
      ($arch == x86_64 || $arch == ppc64) ]]; then
	ap=0 af=0
	case $arch in
	x86_64) abis=("gcc -m64" "gcc -m32" "gcc -mx32") ;;
	ppc64) abis=("powerpc64le-linux-gnu-gcc -m64" "powerpc-linux-gnu-gcc -m32") ;;
	esac
	for abi in "${abis[@]}"; do
		c=${abi% *} m=${abi#* }
		if echo '#include "abi_layout.h"' | $c "$m" -ffreestanding -nostdinc \
			-isystem "$($c -print-file-name=include)" -I"$hdr/include" \
			-I"$src/tools/testing/selftests/perfctr" -Dstatic_assert=_Static_assert \
			-fsyntax-only -x c - ; then
			echo "$arch abi-layout: ok - $abi"; ap=$((ap + 1))
		else
			echo "$arch abi-layout: not ok - $abi"; af=$((af + 1))
		fi
	done
	echo "$arch abi-layout: $ap passed, $af failed"
	record "$arch" abi-layout "$ap" "$af"
fi

# No busybox for the guest (i386: Debian's is 64-bit); PAPI's run file.
if [[ $arch != x86_64 || $mode == papi* ]]; then
	$cc -static -O2 -Wall -o "$work/root/init" "$TOP/scripts/guest-init.c" ||
		die "guest-init does not build"
	{
		case $mode in
		demo) echo "raw-demo ./perfctr_demo" ;;
		bench) echo "raw-bench ./perfctr_bench" ;;
		bench-insns*) echo "raw-bench ./perfctr_bench --insns-per-switch" ;;
		bench-icount) echo "raw-bench ./perfctr_bench --insns-per-switch-icount" ;;
		bench-icount-*) echo "raw-bench ./perfctr_bench --insns-per-switch-icount --no-perfctr" ;;
		bench-memory) echo "raw-bench ./perfctr_bench --memory" ;;
		bench-marker) echo "raw-bench ./marker_bench" ;;
		bench-*) echo "raw-bench ./perfctr_bench --switch-only" ;;
		papi*) ;;	# papi_pack wrote the run file
		*) if [[ $arch == i386 ]]; then echo "PMU ./pmu_exact $(x86_pmu_arg "$cpu")"; fi
		   if [[ $arch == i386 && -n $(x86_pmu_model "$cpu") ]]; then
			echo "DIF ./perf_differential"
		   fi
		   echo "T64 ./perfctr_test"
		   echo "T64 ./perfctr_pmc_test"
		   if [[ $arch == ppc32 ]]; then echo "T64 ./perfctr_ppc32_test"; fi
		   echo "LIB ./libperfctr_test --perfex ./perfex --examples ."
		   echo "MRK ./marker_test"
		   echo "SEL ./perfctr-selftest"
		   echo "P27self ./perfctr27_self"
		   echo "P27signal ./perfctr27_signal" ;;
		esac
	} >> "$work/root/tests/run"
else
cp /bin/busybox "$work/root/bin/busybox"
# The kselftest runner, with the settings file's timeout.  It calls
# /usr/bin/timeout --foreground, which busybox's timeout lacks: the shim
# drops that option.
cp -r "$CACHE/tests/$label/install" "$work/root/tests/ksft"
mkdir -p "$work/root/usr/bin" "$work/root/usr/sbin"
printf '#!/bin/sh\n[ "$1" = --foreground ] && shift\nexec /bin/busybox timeout "$@"\n' \
	> "$work/root/usr/bin/timeout"
chmod +x "$work/root/usr/bin/timeout"
cat > "$work/root/init" <<EOT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev 2>/dev/null
# What udev would add; the kselftest runner logs to /dev/stdout.
ln -s /proc/self/fd /dev/fd; ln -s fd/0 /dev/stdin; ln -s fd/1 /dev/stdout; ln -s fd/2 /dev/stderr
echo "PERFCTR-BOOTED \$(uname -r)"
dmesg | grep perfctr | sed 's/^/dmesg: /'
cd /tests
if [ "$mode" = demo ]; then
	./perfctr_demo; echo "PERFCTR-EXIT demo \$?"
elif [ "$mode" = bench ]; then
	./perfctr_bench; echo "PERFCTR-EXIT bench \$?"
elif [ "$mode" = bench-marker ]; then
	./marker_bench; echo "PERFCTR-EXIT bench \$?"
elif [ "$mode" = bench-memory ]; then
	./perfctr_bench --memory; echo "PERFCTR-EXIT bench \$?"
elif [ "$mode" = bench-icount ]; then
	./perfctr_bench --insns-per-switch-icount; echo "PERFCTR-EXIT bench \$?"
elif [ "$mode" = bench-icount-base ] || [ "$mode" = bench-icount-off ]; then
	./perfctr_bench --insns-per-switch-icount --no-perfctr; echo "PERFCTR-EXIT bench \$?"
elif [ "$mode" = bench-base ] || [ "$mode" = bench-switch ] || [ "$mode" = bench-off ]; then
	./perfctr_bench --switch-only; echo "PERFCTR-EXIT bench \$?"
elif [ "$mode" = icount ]; then
	./pmu_exact --icount 2>&1 | sed 's/^/PMU: /'
else
	./pmu_exact $(x86_pmu_arg "$cpu") 2>&1 | sed 's/^/PMU: /'
	if [ -n "$(x86_pmu_model "$cpu")" ]; then
		./perf_differential 2>&1 | sed 's/^/DIF: /'
	fi
	(cd ksft && ./run_kselftest.sh -c perfctr) 2>&1 | sed 's/^/T64: /'
	echo "PERFCTR-EXIT 64"
	./perfctr_test_ia32 2>&1 | sed 's/^/T32: /'; echo "PERFCTR-EXIT 32"
	./libperfctr_test --perfex ./perfex --examples . 2>&1 | sed 's/^/LIB: /'
	echo "PERFCTR-EXIT lib"
	./marker_test 2>&1 | sed 's/^/MRK: /'
	echo "PERFCTR-EXIT marker"
	./libperfctr_test_ia32 --perfex ./perfex_ia32 2>&1 | sed 's/^/L32: /'
	echo "PERFCTR-EXIT lib32"
	./perfctr-selftest > /tmp/selftest.out 2>&1; st=\$?
	sed 's/^/SEL: /' /tmp/selftest.out; echo "PERFCTR-EXIT SEL \$st"
	for p in self signal; do
		./perfctr27_\$p > /tmp/p27.out 2>&1; st=\$?
		sed "s/^/P27\$p: /" /tmp/p27.out; echo "PERFCTR-EXIT P27\$p \$st"
	done
fi
echo PERFCTR-DONE
reboot -f
EOT
chmod +x "$work/root/init"
fi
(cd "$work/root" && find . | cpio -o -H newc --quiet) > "$work/initramfs.cpio"

# The debug kernel's tests under -cpu max run on four CPUs: races between
# an exiting thread and the threads reading its state show there (more
# vCPU threads than host cores: one is often preempted mid-exit).  The
# benchmarks keep two.  PERFCTR_SMP overrides.
x86_smp=2
[[ $label == x86_64 && $cpu == max && $mode == kselftest ]] && x86_smp=4
x86_smp=${PERFCTR_SMP:-$x86_smp}
case $arch in
# no5lvl: with 5-level paging (-cpu max has LA57), 7.3's identify_cpu()
# clears the boot CPU's capabilities with interrupts on; an interrupt in
# that window finds LA57 off and KASAN reports its irq_desc lock as a
# wild access (seen in 1 of 10 boots, in start_kernel, before any
# initcall; none in 8 boots with no5lvl).  Not perfctr's to fix here.
x86_64) qemu=("$x86_qemu" -L /usr/share/qemu -L /usr/share/seabios -nic none -accel tcg -cpu "$cpu,pmu=$x86_pmu" -smp "$x86_smp",maxcpus=40 -m 1024
	      -kernel "$kout/arch/x86/boot/bzImage" -append "console=ttyS0 panic=-1 no5lvl") ;;
# 512 MiB: all of it low memory for a kernel without HIGHMEM.  QEMU's
# pentium (a Pentium MMX) gets CMOV: Debian's i686 C library, and so every
# test binary, uses it; the driver sees the same family and model.  athlon
# (K7 model 2) boots one CPU: the kernel warns that such an Athlon is not
# fit for SMP (amd_k7_smp_check()); so does max (the PAPI guest), an AMD
# family 6 to a 32-bit kernel.
i386) qcpu=$cpu smp=2
      if [[ $cpu == pentium* ]]; then qcpu+=,+cmov; fi
      if [[ $cpu == athlon* || $cpu == max ]]; then smp=1; fi
      qemu=("$x86_qemu" -L /usr/share/qemu -L /usr/share/seabios -nic none -accel tcg -cpu "$qcpu,pmu=$x86_pmu"
	    -smp $smp -m 512
	    -kernel "$kout/arch/x86/boot/bzImage" -append "console=ttyS0 panic=-1") ;;
# powernv8/9/10: bare metal under skiboot (QEMU's firmware), the kernel in
# hypervisor state; its console is OPAL's, hvc0 too.
ppc64) case $cpu in
       powernv*) qemu=(qemu-system-ppc64 -M "$cpu" -accel tcg -smp 2 -m 2048
		       -kernel "$kout/vmlinux" -append "console=hvc0 panic=-1") ;;
       *) qemu=(qemu-system-ppc64 -M pseries -accel tcg -cpu "$cpu" -smp 2 -m 1024
		-kernel "$kout/vmlinux" -append "console=hvc0 panic=-1") ;;
       esac ;;
ppc32) qemu=(qemu-system-ppc -M mac99 -accel tcg -cpu "$cpu" -smp 1 -m 512
	     -kernel "$kout/vmlinux" -append "console=ttyPZ0 panic=-1") ;;
esac
if [[ $label == ppc64be ]]; then
	qemu=(qemu-system-ppc64 -M pseries -accel tcg -cpu "$cpu" -smp 2 -m 1024
	      -kernel "$kout/vmlinux" -append "console=hvc0 panic=-1")
fi
# Instructions by the clock: QEMU's virtual clock advances a nanosecond
# per instruction executed (of every CPU: one CPU), and the guest's TSC
# and timebase follow it; sleep=off keeps idle time out of it.
if [[ $mode == bench-icount* || $mode == icount ]]; then
	for ((i = 0; i < ${#qemu[@]}; i++)); do
		if [[ ${qemu[i]} == -smp ]]; then qemu[i + 1]=1; fi
	done
	qemu+=(-icount shift=0,sleep=off)
fi
log "booting $label/$cpu ($mode)"
timeout "${PERFCTR_BOOT_TIMEOUT:-900}" "${qemu[@]}" -nographic -no-reboot \
	-initrd "$work/initramfs.cpio" > "$work/console.log" 2>&1 || true
console=$work/console.log
tr -d '\r' < "$console" > "$console.txt"; console=$console.txt

# The kernel's own checkers.  Most reports start with "BUG:" or "WARNING:"
# (DEBUG_ATOMIC_SLEEP's "sleeping function called from invalid context",
# DEBUG_PREEMPT's "using smp_processor_id() in preemptible", lockdep's
# "Invalid wait context"); the ones named as well are those of the RT
# kernel, matched however they are prefixed, and RCU stalls.
kernel_log() {	# suite
	if grep -nE 'BUG:|WARNING:|Oops|KASAN:|UBSAN:|possible (recursive|circular) locking|Kernel panic|general protection|Call Trace:|INFO: (task|trying|possible)|sleeping function called from invalid context|scheduling while atomic|Invalid wait context|in preemptible \[|detected stalls? on' "$console" > "$work/splats"; then
		echo "$label/$cpu $1: not ok - the kernel complained:"
		head -60 "$work/splats"
		echo "$label/$cpu $1: 0 passed, 1 failed"
		record "$label/$cpu" "$1" 0 1
	else
		echo "$label/$cpu $1: ok - no BUG/WARNING/Oops/KASAN/lockdep/UBSAN/RCU stall report"
		echo "$label/$cpu $1: 1 passed, 0 failed"
		record "$label/$cpu" "$1" 1 0
	fi
}

if ! grep -q PERFCTR-DONE "$console"; then
	echo "---- console tail ($label/$cpu) ----"; tail -40 "$console"
	echo "$label/$cpu $mode: setup failure: the guest did not finish (boot or hang)"
	record "$label/$cpu" "$mode" 0 1
	exit 1
fi
if [[ $mode == demo ]]; then
	sed -n '/^dmesg: /p; /^perfctr /,/^PERFCTR-EXIT/p' "$console"
	grep -q 'PERFCTR-EXIT demo 0' "$console"
	exit
fi
if [[ $mode == bench* || $mode == papi-bench ]]; then
	grep -E '^\||^BENCH-(JSON|NOTE)' "$console"
	grep -q 'PERFCTR-EXIT bench 0' "$console"
	exit
fi
if [[ $mode == papi ]]; then
	papi_report "$console"
	kernel_log papi-kernel-log
	exit $failed
fi
if [[ $mode == icount ]]; then
	ktap_report "$console" "$label/$cpu" 'PMU: ' qemu-icount
	grep '^PMU: #' "$console" | head -40
	kernel_log icount-kernel-log
	exit $failed
fi

# KTAP results of lines starting with the prefix (report-lib.sh): passed,
# failed and skipped; a run that died before its plan completed fails.
report() {	# line-prefix suite
	ktap_report "$console" "$label/$cpu" "$1" "$2"
}
# Show the failures' diagnostics.
grep -E '^T(64|32): #' "$console" | grep -B2 -A6 -E 'Expected|FAIL' | head -60 || true
grep -E '^(L(IB|32)|MRK): (not ok|#)' "$console" | head -40 || true
if [[ $arch == x86_64 ]]; then
	# run_kselftest.sh: the programs' results, and the tests nested in them.
	report 'T64: ' kselftest-runner
	report 'T64: # ' kselftest
else
	report 'T64: ' kselftest
fi
[[ $arch == x86_64 ]] && report 'T32: ' kselftest-ia32
report 'LIB: ' libperfctr
[[ $arch == x86_64 ]] && report 'L32: ' libperfctr-ia32
report 'MRK: ' marker
[[ $arch == x86_64 || $arch == i386 ]] && report 'PMU: ' qemu-pmu
# perf and perfctr on the same loops, where QEMU emulates a PMU.
if [[ ($arch == x86_64 || $arch == i386) && -n $(x86_pmu_model "$cpu") ]]; then
	report 'DIF: ' perf-differential
fi
# perfctr-selftest: the checks that must pass here, not skip, are
# report-lib.sh's MUST_RUN (ppc64's instructions: QEMU counts them
# exactly there); x86 under TCG skips the PMC checks.
selftest_report "$console" "$label/$cpu" selftest
# perfctr 2.7's self and signal (scripts/perfctr27.sh): they must count
# where perfctr-selftest's instructions check must pass (ppc64's QEMU).
counts=
if must_run "$label/$cpu" selftest | grep -x instructions >/dev/null; then counts=counts; fi
# Except 2.7's signal on the P6, whose events (0xc1 FLOPS, 0xc9) QEMU's
# PMU does not count.
[[ $cpu == pentium2 || $cpu == pentium3 ]] && counts=
p27_report "$console" "$arch" $counts
# KUnit suites built in ran at boot; the kernel's own parser reads their
# KTAP from the console (tools/testing/kunit/kunit.py parse; report-lib.sh).
if [[ $arch == x86_64 || $arch == i386 ]]; then
	kunit_report "$console" "$label/$cpu" "$src"
fi

detected=
if [[ $arch == x86_64 || $arch == i386 ]]; then
	# Without an emulated PMU the driver must have fallen back to the
	# generic model, saying so once.  On i386,
	# the line must also name the model detected from the CPUID identity.
	fallback='^perfctr: PMU not available (absent or not responding'
	if [[ $arch == i386 ]]; then
		case $cpu in
		pentium) detected='Intel P5MMX' ;;	# family 5 model 4: the P55C
		pentium,-mmx) detected='Intel P5' ;;
		pentium2|pentium3) detected='Intel P6' ;;
		athlon) detected='AMD K7/K8' ;;
		# QEMU has no Cyrix or VIA model: P6 ones with their vendor.
		pentium2,vendor=CyrixInstead) detected='Cyrix 6x86MX/MII/III' ;;
		pentium3,vendor=CentaurHauls) detected='VIA C3' ;;	# model 7
		*) detected= ;;				# not encoded: any model
		esac
		if [[ -n $detected ]]; then fallback+=".* instead of $detected\$"; fi
	fi
	n=$(grep -c "$fallback" "$console" || true)
	expect='cpu type 0 (generic x86 with TSC)'
	# On an emulated PMU the driver uses its model, with no fallback.
	if [[ -n $(x86_pmu_model "$cpu") ]]; then
		n=$((1 - $(grep -c '^perfctr: PMU not available' "$console" || true)))
		expect=$(x86_pmu_model "$cpu")
	fi
else
	# QEMU's pseries POWER8/9/10 PMUs count: the model is used, no fallback.
	n=$((1 - $(grep -c '^perfctr: .*not responding\|^perfctr: no perfctr model' "$console" || true)))
	case $cpu in
	POWER8|powernv8) expect='cpu type 6 (POWER8)' ;;
	POWER9|powernv9) expect='cpu type 7 (POWER9)' ;;
	POWER10|powernv10) expect='cpu type 8 (POWER10)' ;;
	# ppc32 (mac99): QEMU's PMU registers hold what is written, so the
	# model is used (they do not count: see perfctr_ppc32_test.c).
	604) expect='cpu type 1 (PowerPC 604)' ;;
	604e|604r) expect='cpu type 2 (PowerPC 604e)' ;;
	740|750*) expect='cpu type 3 (PowerPC 750)' ;;
	G4|7400|7410) expect='cpu type 4 (PowerPC 7400)' ;;
	74[45][0-9]*) expect='cpu type 5 (PowerPC 7450)' ;;
	esac
fi
# On bare metal the driver must have seen the hypervisor state.
hv=1
if [[ $cpu == powernv* ]]; then
	grep -q '^perfctr: hypervisor state (bare metal)' "$console" || hv=0
fi
if [[ $n -eq 1 && $hv -eq 1 ]] && grep -q "^perfctr: driver .*, $expect" "$console"; then
	echo "$label/$cpu boot: ok - $expect, fallback said as expected${detected:+ (instead of $detected)}"
	bp=1 bf=0
else
	echo "$label/$cpu boot: not ok - expected $expect, got:"
	grep '^perfctr' "$console" | head -5; bp=0 bf=1
fi
# Skylake-Client's emulated PMU has full-width counter writes
# (IA32_PERF_CAPABILITIES.FW_WRITE): perf must have found them.
if [[ ($arch == x86_64 || $arch == i386) && $cpu == Skylake-Client* ]]; then
	if grep -q '^Performance Events: .*full-width counters' "$console"; then
		echo "$label/$cpu boot: ok - perf found full-width counter writes"
		bp=$((bp + 1))
	else
		echo "$label/$cpu boot: not ok - perf found no full-width counter writes"
		bf=$((bf + 1))
	fi
fi
echo "$label/$cpu boot: $bp passed, $bf failed"
record "$label/$cpu" boot "$bp" "$bf"

kernel_log kernel-log
exit $failed
