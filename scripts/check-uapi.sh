#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Group "uapi headers": headers_install and the kernel's own compile test of
# the exported headers (CONFIG_UAPI_HEADER_TEST: each header compiled alone,
# twice, with -std=c90 -Werror, and checked by usr/include/headers_check.pl)
# on x86_64 and ppc64, in a tinyconfig that builds only usr/include; the
# perfctr headers, linux/perfctr.h and asm/perfctr.h, must be among them.
#
#   check-uapi.sh [ARCH...]   default: x86_64 ppc64
set -uo pipefail
. "$(dirname "$0")/lib.sh"

src=$CACHE/src
[[ -d $src ]] || die "no patched tree: run scripts/apply.sh"
group="uapi headers"
p=0 f=0
ok() { echo "$group: ok - $*"; p=$((p + 1)); }
notok() { echo "$group: not ok - $*"; f=$((f + 1)); }

if (($#)); then archs=("$@"); else archs=(x86_64 ppc64); fi
for arch in "${archs[@]}"; do
	case $arch in
	x86_64) karch=x86; cross= ;;
	ppc64)	karch=powerpc; cross=powerpc64le-linux-gnu- ;;
	*)	die "unknown arch $arch" ;;
	esac
	out=$CACHE/build/uapi-$arch
	mkdir -p "$out"
	log=$out/check.log
	: > "$log"
	kmake() { nice -n 5 make -C "$src" O="$out" ARCH=$karch ${cross:+CROSS_COMPILE=$cross} "$@" >>"$log" 2>&1; }
	frag=$out/uapi.config
	printf '%s\n' CONFIG_HEADERS_INSTALL=y CONFIG_UAPI_HEADER_TEST=y > "$frag"
	[[ $arch == ppc64 ]] && cat "$TOP/scripts/config/ppc64.config" >> "$frag"
	if [[ ! -f $out/.config ]] || ! cmp -s "$frag" "$out/uapi.config.done"; then
		if ! kmake -s tinyconfig ||
		   ! KCONFIG_CONFIG=$out/.config "$src/scripts/kconfig/merge_config.sh" -m -O "$out" \
			"$out/.config" "$frag" >>"$log" 2>&1 || ! kmake -s olddefconfig ||
		   ! grep -q '^CONFIG_UAPI_HEADER_TEST=y' "$out/.config"; then
			tail -20 "$log"; notok "$arch configuration (UAPI_HEADER_TEST)"; continue
		fi
		cp "$frag" "$out/uapi.config.done"
	fi
	if kmake -j"$(nproc)" usr/include/; then
		ok "$arch headers_install and every uapi header compile-tested"
	else
		grep -E 'error|Error' "$log" | head -20
		notok "$arch headers_install and every uapi header compile-tested"
	fi
	for h in linux/perfctr.h asm/perfctr.h; do
		# A .hdrtest is made only when its header compiled and passed
		# headers_check.pl, after the header was last installed.
		hdr=$out/usr/include/$h test=$out/usr/include/${h%.h}.hdrtest
		if [[ -f $hdr && -f $test && ! $hdr -nt $test ]]; then
			ok "$arch $h exported, compiled alone (c90) and headers_check.pl clean"
		else
			notok "$arch $h exported, compiled alone (c90) and headers_check.pl clean"
		fi
	done
done

echo "$group: $p passed, $f failed"
[[ -n ${RESULTS:-} ]] && echo "$group $p $f" >> "$RESULTS"
((f == 0))
