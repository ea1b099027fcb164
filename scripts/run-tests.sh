#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the perfctr selftests (64-bit and i386, static) against the
# patched kernel's headers, pack them with busybox into an initramfs, boot
# the kernel under QEMU TCG and report.
#
#   run-tests.sh ARCH CPU MODE    MODE: kselftest | demo | bench | bench-base
#
# Prints every result line, then one line per group:
#   <arch>/<cpu> <suite>: N passed, N failed
# and appends the group counts to $RESULTS (if set).  Any BUG, WARNING,
# Oops, KASAN, lockdep or UBSAN report on the console is a failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

arch=${1:-x86_64} cpu=${2:-max} mode=${3:-kselftest}
src=$CACHE/src out=$CACHE/build/$arch kout=$out
[[ $mode == bench || $mode == bench-switch ]] && kout=$CACHE/build/$arch-bench
[[ $mode == bench-base ]] && kout=$CACHE/build/$arch-bench-base
[[ $mode == bench-off ]] && kout=$CACHE/build/$arch-bench-off
work=$CACHE/run/$arch-$cpu-$mode
rm -rf "$work"; mkdir -p "$work/root"/{bin,sbin,proc,sys,dev,tmp,tests}

# Headers and tests.
hdr=$out/hdr
make -s -C "$src" O="$out" ARCH=x86 INSTALL_HDR_PATH="$hdr" headers_install
build_tests() {	# out-dir cc
	mkdir -p "$1"
	make -s -C "$src/tools/testing/selftests/perfctr" OUTPUT="$1" CC="$2" \
		KHDR_INCLUDES="-I$hdr/include" LDFLAGS=-static all >"$1.log" 2>&1 ||
		{ cat "$1.log" >&2; die "selftests do not build with $2"; }
}
build_tests "$CACHE/tests/$arch" gcc
build_tests "$CACHE/tests/$arch-ia32" i686-linux-gnu-gcc
cp "$CACHE/tests/$arch"/perfctr_{test,demo,bench} "$work/root/tests/"
cp "$CACHE/tests/$arch-ia32/perfctr_test" "$work/root/tests/perfctr_test_ia32"
file "$work/root/tests/perfctr_test_ia32" 2>/dev/null | grep -q '32-bit' ||
	[[ ! -x /usr/bin/file ]] || die "i386 test binary is not 32-bit"

# The user ABI has one layout in every x86 user ABI: abi_layout.h's
# static_asserts, compiled freestanding for each (x32 needs no x32 libc).
if [[ $mode == kselftest && $cpu == "${ABI_CHECK_CPU:-max}" ]]; then
	ap=0 af=0
	for m in -m64 -m32 -mx32; do
		if echo '#include "abi_layout.h"' | gcc "$m" -ffreestanding -nostdinc \
			-isystem "$(gcc -print-file-name=include)" -I"$hdr/include" \
			-I"$src/tools/testing/selftests/perfctr" -Dstatic_assert=_Static_assert \
			-fsyntax-only -x c - ; then
			echo "$arch abi-layout: ok - gcc $m"; ap=$((ap + 1))
		else
			echo "$arch abi-layout: not ok - gcc $m"; af=$((af + 1))
		fi
	done
	echo "$arch abi-layout: $ap passed, $af failed"
	[[ -n ${RESULTS:-} ]] && echo "$arch abi-layout $ap $af" >> "$RESULTS"
fi

cp /bin/busybox "$work/root/bin/busybox"
cat > "$work/root/init" <<EOT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev 2>/dev/null
echo "PERFCTR-BOOTED \$(uname -r)"
dmesg | grep perfctr | sed 's/^/dmesg: /'
cd /tests
if [ "$mode" = demo ]; then
	./perfctr_demo; echo "PERFCTR-EXIT demo \$?"
elif [ "$mode" = bench ]; then
	./perfctr_bench; echo "PERFCTR-EXIT bench \$?"
elif [ "$mode" = bench-base ] || [ "$mode" = bench-switch ] || [ "$mode" = bench-off ]; then
	./perfctr_bench --switch-only; echo "PERFCTR-EXIT bench \$?"
else
	./perfctr_test 2>&1 | sed 's/^/T64: /'; echo "PERFCTR-EXIT 64"
	./perfctr_test_ia32 2>&1 | sed 's/^/T32: /'; echo "PERFCTR-EXIT 32"
fi
echo PERFCTR-DONE
reboot -f
EOT
chmod +x "$work/root/init"
(cd "$work/root" && find . | cpio -o -H newc --quiet) > "$work/initramfs.cpio"

case $arch in
x86_64) qemu=(qemu-system-x86_64 -accel tcg -cpu "$cpu" -smp 2,maxcpus=40 -m 1024
	      -kernel "$kout/arch/x86/boot/bzImage" -append "console=ttyS0 panic=-1") ;;
esac
log "booting $arch/$cpu ($mode)"
timeout "${PERFCTR_BOOT_TIMEOUT:-900}" "${qemu[@]}" -nographic -no-reboot \
	-initrd "$work/initramfs.cpio" > "$work/console.log" 2>&1 || true
console=$work/console.log
tr -d '\r' < "$console" > "$console.txt"; console=$console.txt

if ! grep -q PERFCTR-DONE "$console"; then
	echo "---- console tail ($arch/$cpu) ----"; tail -40 "$console"
	echo "$arch/$cpu $mode: setup failure: the guest did not finish (boot or hang)"
	[[ -n ${RESULTS:-} ]] && echo "$arch/$cpu $mode 0 1" >> "$RESULTS"
	exit 1
fi
if [[ $mode == demo ]]; then
	sed -n '/^dmesg: /p; /^perfctr /,/^PERFCTR-EXIT/p' "$console"
	grep -q 'PERFCTR-EXIT demo 0' "$console"
	exit
fi
if [[ $mode == bench* ]]; then
	grep -E '^\||^BENCH-JSON' "$console"
	grep -q 'PERFCTR-EXIT bench 0' "$console"
	exit
fi

report() {	# line-prefix suite: KTAP results of lines starting with the prefix
	local p=0 f=0 line plan
	while IFS= read -r line; do
		echo "$arch/$cpu $2: $line"
		case $line in
		ok\ *) p=$((p + 1)) ;;
		not\ ok\ *) f=$((f + 1)) ;;
		esac
	done < <(sed -n "s/^$1\(\(not \)\?ok [0-9].*\)/\1/p" "$console")
	# A run that died before its plan completed is a failure too.
	plan=$(sed -n "s/^$1""1\.\.\([0-9]*\)\$/\1/p" "$console" | awk '{ s += $1 } END { print s + 0 }')
	if ((plan == 0 || p + f != plan)); then
		echo "$arch/$cpu $2: not ok - ran $((p + f)) of $plan planned tests"
		grep "^$1" "$console" | tail -20
		f=$((f + 1))
	fi
	echo "$arch/$cpu $2: $p passed, $f failed"
	[[ -n ${RESULTS:-} ]] && echo "$arch/$cpu $2 $p $f" >> "$RESULTS"
	return 0
}
# Show the failures' diagnostics.
grep -E '^T(64|32): #' "$console" | grep -B2 -A6 -E 'Expected|FAIL' | head -60 || true
report 'T64: ' kselftest
report 'T32: ' kselftest-ia32

# KUnit suites built in ran at boot: their KTAP subtests are indented.
report '    ' kunit

# The driver must have fallen back to the generic model, saying so once:
# no QEMU TCG x86 CPU model has a PMU that counts.
n=$(grep -c '^perfctr: PMU not available (absent or not responding' "$console" || true)
if [[ $n -eq 1 ]] && grep -q '^perfctr: driver .*, cpu type 0 (generic x86 with TSC)' "$console"; then
	echo "$arch/$cpu boot: ok - generic model, fallback said once"; bp=1 bf=0
else
	echo "$arch/$cpu boot: not ok - expected one fallback line and cpu type 0, got:"
	grep '^perfctr' "$console" | head -5; bp=0 bf=1
fi
echo "$arch/$cpu boot: $bp passed, $bf failed"
[[ -n ${RESULTS:-} ]] && echo "$arch/$cpu boot $bp $bf" >> "$RESULTS"

# The kernel's own checkers.
if grep -nE 'BUG:|WARNING:|Oops|KASAN:|UBSAN:|possible (recursive|circular) locking|Kernel panic|general protection|Call Trace:|INFO: (task|trying|possible)' "$console" > "$work/splats"; then
	echo "$arch/$cpu kernel-log: not ok - the kernel complained:"
	head -60 "$work/splats"
	echo "$arch/$cpu kernel-log: 0 passed, 1 failed"
	[[ -n ${RESULTS:-} ]] && echo "$arch/$cpu kernel-log 0 1" >> "$RESULTS"
else
	echo "$arch/$cpu kernel-log: ok - no BUG/WARNING/Oops/KASAN/lockdep/UBSAN report"
	echo "$arch/$cpu kernel-log: 1 passed, 0 failed"
	[[ -n ${RESULTS:-} ]] && echo "$arch/$cpu kernel-log 1 0" >> "$RESULTS"
fi
exit 0
