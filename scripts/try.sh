#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make try: the series on this machine's own CPU, without a reboot.  Builds
# the test kernel of the host's architecture as make check does (make
# apply, build-kernel.sh x86_64; ppc64 on a ppc64le host), libperfctr,
# perfex and perfctr-selftest (static), packs them with busybox (and
# PROG) into an initramfs and boots it under QEMU with KVM (-cpu host:
# the guest's PMU is the CPU's, virtualised) where /dev/kvm is usable,
# else, or when the KVM guest prints nothing within TRY_KVM_TIMEOUT
# seconds, under QEMU TCG.  The guest runs perfctr-selftest, perfex -i,
# then perfex -e instructions,cycles PROG (the TSC alone without a PMU).
#
#   try.sh [--check]
#
# PROG="/path/to/binary args": the program to count (default /bin/true);
# its libraries (ldd) and the dynamic loader are copied in.  TRY_SHELL=1:
# a busybox shell on the console afterwards (Ctrl-A X quits QEMU).
# TRY_KVM_TIMEOUT (60 s): how long a KVM guest may stay silent;
# TRY_KVM_ARGS: QEMU's arguments for that attempt (-accel kvm -cpu host).
# TRY_NO_BUILD=1: use the kernel already built in the cache.
# --check: make check's group: no build (make check has built the
# x86_64 kernel), no PROG, a KVM bound of 30 s; checks that KVM was
# tried (or why not), that a silent KVM guest fell back to TCG saying
# so, and the guest's perfctr-selftest and perfex lines; results to
# $RESULTS as run-tests.sh's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/guest-lib.sh"
. "$(dirname "$0")/report-lib.sh"

check=0
if [[ ${1:-} == --check ]]; then
	check=1 TRY_NO_BUILD=1 TRY_SHELL=0 PROG=
	TRY_KVM_TIMEOUT=${TRY_KVM_TIMEOUT:-30}
elif [[ $# -gt 0 ]]; then
	die "usage: try.sh [--check]"
fi
kvm_timeout=${TRY_KVM_TIMEOUT:-60}
failed=0
record() {	# label suite passed failed [skipped]
	if [[ -n ${RESULTS:-} ]]; then echo "$1 $2 $3 $4 ${5:-0}" >> "$RESULTS"; fi
	if (($4 != 0)); then failed=1; fi
}

case $(uname -m) in
x86_64) arch=x86_64 karch=x86 image=arch/x86/boot/bzImage tcg_cpu=max
	qemu=(qemu-system-x86_64 -smp 2 -m 1024 -append "console=ttyS0 panic=-1 no5lvl")
	tcg_means="the TSC counts, the programmable counters do not (no x86 PMU under TCG)" ;;
ppc64le) arch=ppc64 karch=powerpc image=vmlinux tcg_cpu=POWER9
	qemu=(qemu-system-ppc64 -M pseries -smp 2 -m 1024 -append "console=hvc0 panic=-1")
	tcg_means="QEMU's POWER9 PMU counts instructions exactly, not this CPU's events" ;;
*) die "make try runs on an x86_64 or a ppc64le host, not $(uname -m)" ;;
esac
# QEMU TCG with tools/qemu's emulated x86 PMU, when make check has built
# it into the cache: there the counters count.
tcg_qemu=
if [[ $arch == x86_64 && -x $CACHE/qemu/bin/qemu-system-x86_64 ]]; then
	tcg_qemu=$CACHE/qemu/bin/qemu-system-x86_64
	tcg_means="QEMU TCG's emulated PMU from the cache (tools/qemu): instructions count exactly, cycles one per instruction; not this CPU's events"
fi
src=$CACHE/src out=$CACHE/build/$arch hdr=$CACHE/build/$arch/hdr
if [[ -z ${TRY_NO_BUILD:-} ]]; then
	# Only what this host's try needs (setup.sh --try), then the series.
	bash "$TOP/scripts/setup.sh" --try
	python3 "$TOP/scripts/mkpatches.py" --check >/dev/null ||
		die "patches/ is not what the tree folders make: run make patches"
	bash "$TOP/scripts/apply.sh"
	bash "$TOP/scripts/build-kernel.sh" "$arch"
fi
[[ -f $out/$image ]] || die "no $arch kernel in $out: run make try without TRY_NO_BUILD"
make -s -C "$src" O="$out" ARCH="$karch" INSTALL_HDR_PATH="$hdr" headers_install

work=$CACHE/run/try
rm -rf "$work"; mkdir -p "$work/root"/{bin,proc,sys,dev,tmp,tests,try}
lib=$CACHE/tests/$arch-lib
# make check has just built the library for the x86_64 guests: reused.
if ((!check)) || [[ ! -x $lib/perfctr-selftest || ! -x $lib/perfex ]]; then
	lib=$CACHE/tests/try-lib
	log "building libperfctr, perfex and perfctr-selftest (static)"
	build_lib "$lib" gcc
fi
cp "$lib"/{perfex,perfctr-selftest} "$work/root/tests/"
cp /bin/busybox "$work/root/bin/busybox"

# PROG and what it needs at run time: the libraries ldd lists, the loader.
read -r -a prog <<<"${PROG:-}"
if ((${#prog[@]})); then
	bin=$(command -v "${prog[0]}") || die "PROG: no such program: ${prog[0]}"
	cp "$bin" "$work/root/try/"
	prog[0]=/try/${bin##*/}
	for f in $(ldd "$bin" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
						   $1 ~ /^\// { print $1 }'); do
		mkdir -p "$work/root${f%/*}"
		cp -L "$f" "$work/root$f"
	done
else
	prog=(/bin/true)
fi
printf -v prog_words '%q ' "${prog[@]}"

cat > "$work/root/init" <<EOT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev 2>/dev/null
echo "PERFCTR-BOOTED \$(uname -r)"
dmesg | grep perfctr | sed 's/^/dmesg: /'
cd /tests
./perfctr-selftest > /tmp/selftest.out 2>&1; st=\$?
sed 's/^/SEL: /' /tmp/selftest.out; echo "PERFCTR-EXIT SEL \$st"
./perfex -i 2>&1 | sed 's/^/PERFEX-I: /'
events="-e instructions,cycles"
grep -q '^SKIP instructions: ' /tmp/selftest.out && events=
cd /try
/tests/perfex \$events -- $prog_words > /tmp/perfex.out 2>&1; st=\$?
sed 's/^/PERFEX: /' /tmp/perfex.out; echo "PERFCTR-EXIT PERFEX \$st"
if [ "${TRY_SHELL:-0}" = 1 ]; then
	echo "try: a shell; /tests has perfex and perfctr-selftest; exit to power off"
	setsid cttyhack sh
fi
echo PERFCTR-DONE
reboot -f
EOT
chmod +x "$work/root/init"
(cd "$work/root" && find . | cpio -o -H newc --quiet) > "$work/initramfs.cpio"

# Boot with the given accelerator; a silent guest (no PERFCTR-BOOTED in
# @bound seconds) is killed.  0: it ran; 1: QEMU ended without booting
# it; 2: it stayed silent.
boot() {	# log bound qemu-args...
	local log=$1 bound=$2 pid
	shift 2
	: > "$log"
	rm -f "$work/qemu.pid" "$work/silent"
	(
		for ((i = 0; i < bound; i++)); do
			sleep 1
			grep -q PERFCTR-BOOTED "$log" 2>/dev/null && exit 0
		done
		if [[ -s $work/qemu.pid ]]; then
			pid=$(cat "$work/qemu.pid")
			touch "$work/silent"
			kill "$pid" 2>/dev/null || true
		fi
	) &
	local watch=$!
	set -- "${qemu[@]}" "$@" -kernel "$out/$image" -initrd "$work/initramfs.cpio" \
		-nographic -no-reboot -pidfile "$work/qemu.pid"
	# make check's run: the log only, and a bound on the whole run.
	# Subshells: bash's report of a QEMU that aborts goes nowhere.
	if ((check)); then
		(timeout 900 "$@" > "$log" 2>&1 < /dev/null; exit $?) 2>/dev/null || true
	else
		("$@" 2>&1 | tee "$log") 2>/dev/null || true
	fi
	kill "$watch" 2>/dev/null || true
	wait "$watch" 2>/dev/null || true
	[[ -e $work/silent ]] && return 2
	grep -q PERFCTR-BOOTED "$log" || return 1
	return 0
}

accel=tcg kvm_tried=0 kvm_why='' fallback=''
if [[ ! -e /dev/kvm ]]; then
	kvm_why="no /dev/kvm"
elif [[ ! -r /dev/kvm || ! -w /dev/kvm ]]; then
	kvm_why="/dev/kvm is not readable and writable by $(id -un) (the kvm group?)"
fi
if [[ -z $kvm_why ]]; then
	read -r -a kvm_args <<<"${TRY_KVM_ARGS:--accel kvm -cpu host}"
	log "booting with ${kvm_args[*]}, at most $kvm_timeout s of silence"
	kvm_tried=1 st=0
	boot "$work/console-kvm.log" "$kvm_timeout" "${kvm_args[@]}" || st=$?
	case $st in
	0) accel=kvm ;;
	1) fallback="QEMU with KVM ended without booting ($(tr -d '\r' < "$work/console-kvm.log" |
		grep . | tail -1)); falling back to QEMU TCG: $tcg_means" ;;
	*) fallback="KVM guest printed nothing in $kvm_timeout s; falling back to QEMU TCG: $tcg_means" ;;
	esac
	if [[ $accel == tcg ]]; then echo "$fallback"; fi
else
	fallback="KVM not used: $kvm_why; QEMU TCG: $tcg_means"
	echo "$fallback"
fi
if [[ $accel == tcg ]]; then
	log "booting under QEMU TCG (-cpu $tcg_cpu)"
	if [[ -n $tcg_qemu ]]; then
		echo "try: QEMU TCG with the emulated x86 PMU: $tcg_qemu"
		qemu[0]=$tcg_qemu
		qemu+=(-L /usr/share/qemu -L /usr/share/seabios -nic none)
	fi
	boot "$work/console-tcg.log" 600 -accel tcg -cpu "$tcg_cpu" || true
fi
console=$work/console-$accel.log
tr -d '\r' < "$console" > "$console.txt"
console=$console.txt
echo "try: console log: $console"
((check)) || exit 0

# make check's group.
name=try/$arch-$accel
if [[ $accel == kvm ]]; then
	echo "$name kvm: ok - the KVM guest ran"
	record "$name" kvm 1 0
elif [[ -z $fallback ]]; then
	echo "$name kvm: not ok - TCG, and no line said why"
	record "$name" kvm 0 1
else
	((kvm_tried)) && kvm_why="KVM tried (at most $kvm_timeout s)"
	echo "$name kvm: ok - $kvm_why; the fallback to TCG said: $fallback"
	record "$name" kvm 1 0
fi
if grep -q '^PERFCTR-DONE' "$console"; then
	selftest_report "$console" "$name" selftest
	if grep -qE '^PERFEX: tsc[[:space:]]+[0-9]' "$console" && grep -q '^PERFCTR-EXIT PERFEX 0$' "$console"; then
		echo "$name perfex: ok - perfex counted ${prog[*]}:"
		sed -n 's/^PERFEX: /  /p' "$console"
		record "$name" perfex 1 0
	else
		echo "$name perfex: not ok - no counts from perfex:"
		grep '^PERFEX' "$console" | head -20
		record "$name" perfex 0 1
	fi
else
	echo "---- console tail ----"; tail -30 "$console"
	echo "$name: not ok - the guest did not finish"
	record "$name" boot 0 1
fi
exit $failed
