#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the patched kernel for ARCH (x86_64, i386, ppc64, ppc32, ppc64be) out of tree,
# incrementally: tinyconfig + scripts/config/ARCH.config + the debug and
# test fragments, each option checked to have survived olddefconfig.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

arch=${1:-x86_64}
variant=${2:-}	# "": test kernel; "rt": the PREEMPT_RT test kernel (x86_64);
		# "base": unpatched; "bench", "bench-base": the same
		# without the debug checkers, for benchmarks;
		# "bench-off": the series with PERFCTR=n
case $arch in
x86_64) karch=x86; image=arch/x86/boot/bzImage; cross= ;;
i386) karch=x86; image=arch/x86/boot/bzImage; cross= ;;	# the host gcc, -m32
ppc64) karch=powerpc; image=vmlinux; cross=powerpc64le-linux-gnu- ;;
ppc32) karch=powerpc; image=vmlinux; cross=powerpc-linux-gnu- ;;
# Big-endian ppc64 with COMPAT: the ppc64le compiler with -mbig-endian
# (the kernel's Makefile adds it), the 32-bit one for the 32-bit vDSO.
ppc64be) karch=powerpc; image=vmlinux; cross=powerpc64le-linux-gnu-
	 export CROSS32_COMPILE=powerpc-linux-gnu- ;;
*) die "unknown arch $arch" ;;
esac
# ARCH=i386 (not x86) makes 64BIT default to n; the sources are arch/x86.
kbarch=$karch; [[ $arch == i386 ]] && kbarch=i386
kmake() { make -C "$src" O="$out" ARCH=$kbarch ${cross:+CROSS_COMPILE=$cross} "$@"; }

cfg=$TOP/scripts/config
case $arch/$variant in
ppc64/)	src=$CACHE/src; out=$CACHE/build/$arch
	frags=("$cfg/$arch.config" "$cfg/$arch-debug.config" "$cfg/$arch-perfctr.config"
	       "$cfg/perfctr-test.config" "$cfg/ppc64-perfctr-test.config"
	       "$cfg/jump-label.config") ;;
ppc32/)	src=$CACHE/src; out=$CACHE/build/$arch
	frags=("$cfg/$arch.config" "$cfg/$arch-debug.config" "$cfg/$arch-perfctr.config"
	       "$cfg/perfctr-test.config") ;;
ppc64be/) src=$CACHE/src; out=$CACHE/build/$arch
	mkdir -p "$out"
	grep -v '^CONFIG_CPU_LITTLE_ENDIAN=' "$cfg/ppc64.config" > "$out/ppc64.config"
	frags=("$out/ppc64.config" "$cfg/$arch.config" "$cfg/ppc64-debug.config"
	       "$cfg/ppc64-perfctr.config" "$cfg/perfctr-test.config"
	       "$cfg/ppc64-perfctr-test.config") ;;
i386/)	src=$CACHE/src; out=$CACHE/build/$arch
	# The selftests' fragment asks for IA32_EMULATION, the way a 64-bit
	# kernel runs their i386 build; this kernel runs it natively.
	mkdir -p "$out"
	grep -v '^CONFIG_IA32_EMULATION=' "$TOP/tools/testing/selftests/perfctr/config" \
		> "$out/selftests.config"
	frags=("$cfg/$arch.config" "$cfg/$arch-debug.config"
	       "$out/selftests.config" "$cfg/perfctr-kunit.config"
	       "$cfg/perfctr-test.config") ;;
*/)	src=$CACHE/src; out=$CACHE/build/$arch
	frags=("$cfg/$arch.config" "$cfg/$arch-debug.config"
	       "$TOP/tools/testing/selftests/perfctr/config" "$cfg/perfctr-kunit.config"
	       "$cfg/perfctr-test.config") ;;
x86_64/rt) src=$CACHE/src; out=$CACHE/build/$arch-rt
	frags=("$cfg/$arch.config" "$cfg/$arch-rt.config"
	       "$TOP/tools/testing/selftests/perfctr/config" "$cfg/perfctr-kunit.config"
	       "$cfg/perfctr-test.config") ;;
*/base)	src=$CACHE/pristine; out=$CACHE/build/$arch-base
	frags=("$cfg/$arch.config" "$cfg/$arch-debug.config") ;;
ppc64/bench) src=$CACHE/src; out=$CACHE/build/$arch-bench
	frags=("$cfg/$arch.config" "$cfg/bench.config" "$cfg/$arch-perfctr.config") ;;
*/bench)	src=$CACHE/src; out=$CACHE/build/$arch-bench
	frags=("$cfg/$arch.config" "$cfg/bench.config"
	       "$TOP/tools/testing/selftests/perfctr/config") ;;
*/bench-base) src=$CACHE/pristine; out=$CACHE/build/$arch-bench-base
	frags=("$cfg/$arch.config" "$cfg/bench.config") ;;
*/bench-off) src=$CACHE/src; out=$CACHE/build/$arch-bench-off	# series, PERFCTR=n
	# (x86_64, ppc64): the bench kernel's configuration without perfctr,
	# which the check below then holds to PERFCTR=n.
	mkdir -p "$out"
	echo '# CONFIG_PERFCTR is not set' > "$out/perfctr-off.config"
	frags=("$cfg/$arch.config" "$cfg/bench.config" "$out/perfctr-off.config") ;;
*)	die "unknown variant $variant" ;;
esac
mkdir -p "$out"
sum=$(cat "${frags[@]}" | sha1sum | cut -c1-40)
if [[ ! -f $out/.config || $(cat "$out/.fragsum" 2>/dev/null) != "$sum" ]]; then
	log "configuring $arch${variant:+ ($variant)}"
	kmake -s tinyconfig >/dev/null
	KCONFIG_CONFIG=$out/.config "$src/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" "${frags[@]}" >/dev/null
	kmake -s olddefconfig >/dev/null
	bad=0
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			grep -qx "$line" "$out/.config" || { log "config: $line did not survive olddefconfig"; bad=1; }
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			! grep -q "^${BASH_REMATCH[1]}=" "$out/.config" || { log "config: $line did not survive"; bad=1; }
		fi
	done < <(cat "${frags[@]}")
	((bad == 0)) || die "kernel configuration for $arch is incomplete"
	echo "$sum" > "$out/.fragsum"
fi
log "building $arch${variant:+ ($variant)} kernel (incremental)"
if ! kmake -j"$(nproc)" ${KBUILD_EXTRA:-} >"$out/build.log" 2>&1; then
	grep -E 'error|Error' "$out/build.log" | head -40 >&2
	die "kernel build failed: $out/build.log"
fi
if grep -E '^[^ ]+:[0-9]+:[0-9]+: warning' "$out/build.log" | grep -E "^$src/(kernel/perfctr/|arch/(x86|powerpc)/perfctr/|(arch/[a-z0-9]+/)?include/(uapi/)?(linux|asm)/perfctr|kernel/ptrace\.c|arch/(x86|powerpc)/kernel/process\.c|kernel/time/timer\.c|fs/exec\.c)" >&2; then
	die "the build warns in perfctr code"
fi
if [[ -z $variant || $variant == rt ]]; then
	# perfctr's own objects again with W=1 and sparse: both must be silent.
	if ! kmake W=1 C=2 kernel/perfctr/ arch/$karch/perfctr/ \
			>"$out/w1-sparse.log" 2>&1; then
		cat "$out/w1-sparse.log" >&2; die "W=1/sparse build of perfctr failed"
	fi
	if grep -q 'not available or not up to date' "$out/w1-sparse.log"; then
		log "sparse $(sparse --version 2>/dev/null) is too old for this kernel: W=1 only"
	fi
	if grep -E '(warning|error):' "$out/w1-sparse.log" >&2; then
		die "perfctr is not W=1 and sparse clean"
	fi
fi
ln -sf "$out/$image" "$out/kernel-image"
log "kernel: $out/$image ($(cat "$out/include/config/kernel.release"))"
