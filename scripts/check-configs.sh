#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Group "configs": configurations the test kernels do not cover, each
# from tinyconfig with perfctr asked for (PERFCTR, PERFCTR_VIRTUAL and
# what they need), built to a linked vmlinux out of tree through ccache
# (kept in the cache: warm, a few seconds each; cold, a few minutes):
#   i386-up-noapic  32-bit UP without a local APIC: PERFCTR is not
#                   offered (the x86 driver reserves the counters through
#                   the NMI watchdog's reservation), and the kernel links
#   i386-up-apic    the same with X86_UP_APIC: PERFCTR=y, linked
#   ppc32-up        32-bit Book3S UP: PERFCTR=y, linked
# Records "configs build <passed> <failed>".
set -uo pipefail
. "$(dirname "$0")/lib.sh"

src=$CACHE/src
[[ -d $src ]] || die "no patched tree: run scripts/apply.sh"
group=configs
p=0 f=0
ok() { echo "$group: ok - $*"; p=$((p + 1)); }
notok() { echo "$group: not ok - $*"; f=$((f + 1)); }
ccache=
command -v ccache >/dev/null && ccache=ccache
export CCACHE_DIR=$CACHE/ccache CCACHE_MAXSIZE=8G CCACHE_NOHASHDIR=1

want="CONFIG_PERF_EVENTS=y
CONFIG_MULTIUSER=y
CONFIG_PROC_FS=y
CONFIG_SYSCTL=y
CONFIG_PERFCTR=y
CONFIG_PERFCTR_VIRTUAL=y"

# name karch cross expect(y|n) extra-options...
build() {
	local name=$1 karch=$2 cross=$3 expect=$4 out=$CACHE/build/config-$1 have
	shift 4
	mkdir -p "$out"
	local log=$out/build.log
	: > "$log"
	kmake() {
		nice -n 5 make -C "$src" O="$out" ARCH="$karch" ${cross:+CROSS_COMPILE=$cross} \
			${ccache:+CC="ccache ${cross}gcc"} "$@" >>"$log" 2>&1
	}
	# The configuration, from tinyconfig each time (olddefconfig keeps
	# .config's date when nothing changes, so the build stays incremental).
	printf '%s\n' "$want" "$@" > "$out/want.config"
	if ! kmake -s KCONFIG_CONFIG="$out/.config.new" tinyconfig ||
	   ! KCONFIG_CONFIG="$out/.config.new" "$src/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config.new" "$out/want.config" >>"$log" 2>&1 ||
	   ! kmake -s KCONFIG_CONFIG="$out/.config.new" olddefconfig; then
		tail -20 "$log"; notok "$name: configuration"; return
	fi
	cmp -s "$out/.config.new" "$out/.config" || cp "$out/.config.new" "$out/.config"
	have=$(grep -q '^CONFIG_PERFCTR=y' "$out/.config" && echo y || echo n)
	if [[ $have == "$expect" ]]; then
		ok "$name: PERFCTR=$have"
	else
		notok "$name: PERFCTR=$have, expected $expect"
	fi
	if kmake -j"$(nproc)" vmlinux; then
		ok "$name: vmlinux linked"
	else
		grep -E ': (fatal )?error:|undefined reference' "$log" | head -20
		notok "$name: vmlinux does not build (see $log)"
	fi
}

build i386-up-noapic i386 "" n "# CONFIG_SMP is not set" "# CONFIG_X86_UP_APIC is not set"
build i386-up-apic i386 "" y "# CONFIG_SMP is not set" "CONFIG_X86_UP_APIC=y"
build ppc32-up powerpc powerpc-linux-gnu- y "# CONFIG_SMP is not set" "CONFIG_PPC_BOOK3S_32=y"

echo "$group: $p passed, $f failed"
[[ -n ${RESULTS:-} ]] && echo "$group build $p $f" >> "$RESULTS"
((f == 0))
