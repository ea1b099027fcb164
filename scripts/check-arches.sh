#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Group "other-arches build": the series on architectures without a perfctr
# driver (arm64, sparc64, riscv64), cross-compiled from tinyconfig, object
# by object: make prepare (the syscall headers generated from the tables,
# and scripts/checksyscalls.sh, which must not miss any syscall), the
# generic files the series hooks or touches, the syscall table against the
# COND_SYSCALL() entries of kernel/sys_ni.o, and the installed uapi headers
# (no linux/perfctr.h there; the reserved numbers in asm/unistd.h).
#
#   check-arches.sh [ARCH...]   default: arm64 sparc64 riscv64
set -uo pipefail
. "$(dirname "$0")/lib.sh"

src=$CACHE/src
[[ -d $src ]] || die "no patched tree: run scripts/apply.sh"
group="other-arches build"
p=0 f=0
ok() { echo "$group: ok - $*"; p=$((p + 1)); }
notok() { echo "$group: not ok - $*"; f=$((f + 1)); }

# Generic objects of files the series changes or whose included headers it
# changes (fs/exec.c, kernel/fork.c and kernel/time/timer.c include
# <linux/perfctr.h>).
objs=(fs/exec.o kernel/fork.o kernel/time/timer.o kernel/sys_ni.o kernel/ptrace.o)

if (($#)); then archs=("$@"); else archs=(arm64 sparc64 riscv64); fi
for arch in "${archs[@]}"; do
	case $arch in
	arm64)	 karch=arm64; cross=aarch64-linux-gnu-; pfx=__arm64_sys_
		 table=arch/arm64/kernel/sys.o ;;
	sparc64) karch=sparc64; cross=sparc64-linux-gnu-; pfx=sys_
		 table=arch/sparc/kernel/systbls_64.o ;;
	riscv64) karch=riscv; cross=riscv64-linux-gnu-; pfx=__riscv_sys_
		 table=arch/riscv/kernel/syscall_table.o ;;
	*) die "unknown arch $arch" ;;
	esac
	command -v "${cross}gcc" >/dev/null || die "${cross}gcc missing: run scripts/setup.sh"
	out=$CACHE/build/xarch-$arch
	mkdir -p "$out"
	log=$out/check.log
	: > "$log"
	kmake() { nice -n 5 make -C "$src" O="$out" ARCH=$karch CROSS_COMPILE=$cross "$@" >>"$log" 2>&1; }
	if [[ ! -f $out/.config ]]; then
		kmake -s tinyconfig || { notok "$arch tinyconfig"; continue; }
	fi
	# checksyscalls.sh's warnings come out of "make prepare" as
	# "#warning syscall X not implemented".
	if kmake -j"$(nproc)" prepare && ! grep -q 'not implemented' "$log"; then
		ok "$arch make prepare"
	else
		grep -E 'error|not implemented' "$log" | head -20; notok "$arch make prepare"
		continue
	fi
	for o in "${objs[@]}" "$table"; do
		at=$(stat -c %s "$log")
		if kmake -j"$(nproc)" "$o"; then
			ok "$arch $o"
		else
			tail -c +$((at + 1)) "$log" | grep -E ': (fatal )?error:' | head -20; notok "$arch $o"
		fi
	done
	# Every perfctr entry of the table resolves to a COND_SYSCALL() symbol.
	miss=
	tsyms=$("${cross}nm" "$out/$table" 2>/dev/null)
	nsyms=$("${cross}nm" "$out/kernel/sys_ni.o" 2>/dev/null)
	for s in perfctr_info vperfctr_open vperfctr_control vperfctr_unlink \
		 vperfctr_iresume vperfctr_read vperfctr_suspend vperfctr_resume; do
		grep -qE "^ +U $pfx$s\$" <<<"$tsyms" || miss+=" $pfx$s(table)"
		grep -qE "^[0-9a-f]+ [WT] $pfx$s\$" <<<"$nsyms" || miss+=" $pfx$s(sys_ni)"
	done
	if [[ -z $miss ]]; then
		ok "$arch syscall table -> sys_ni_syscall"
	else
		notok "$arch syscall table -> sys_ni_syscall: missing$miss"
	fi
	if kmake headers_install; then
		ok "$arch headers_install"
	else
		grep -E 'error' "$log" | head -20; notok "$arch headers_install"
		continue
	fi
	inc=$out/usr/include
	if [[ ! -e $inc/linux/perfctr.h ]]; then
		ok "$arch no linux/perfctr.h exported"
	else
		notok "$arch no linux/perfctr.h exported"
	fi
	# sparc's own, older asm/perfctr.h (its sys_perfctr()) stays as it was.
	if [[ $arch == sparc64 ]]; then
		if grep -q 'enum perfctr_opcode' "$inc/asm/perfctr.h" 2>/dev/null; then
			ok "$arch its own asm/perfctr.h exported unchanged"
		else
			notok "$arch its own asm/perfctr.h exported unchanged"
		fi
	fi
	# The numbers are reserved, and the installed headers compile.
	cat > "$out/uapi-test.c" <<'EOT'
#include <linux/types.h>
#include <asm/unistd.h>
#include <linux/unistd.h>
_Static_assert(__NR_perfctr_info == 473, "perfctr_info");
_Static_assert(__NR_vperfctr_open == 474, "vperfctr_open");
_Static_assert(__NR_vperfctr_control == 475, "vperfctr_control");
_Static_assert(__NR_vperfctr_unlink == 476, "vperfctr_unlink");
_Static_assert(__NR_vperfctr_iresume == 477, "vperfctr_iresume");
_Static_assert(__NR_vperfctr_read == 478, "vperfctr_read");
_Static_assert(__NR_vperfctr_suspend == 479, "vperfctr_suspend");
_Static_assert(__NR_vperfctr_resume == 480, "vperfctr_resume");
EOT
	if "${cross}gcc" -std=c11 -Wall -Werror -fsyntax-only -nostdinc -isystem "$inc" \
			"$out/uapi-test.c" >>"$log" 2>&1; then
		ok "$arch uapi asm/unistd.h: 473-480 reserved"
	else
		tail -20 "$log"; notok "$arch uapi asm/unistd.h: 473-480 reserved"
	fi
done

echo "$group: $p passed, $f failed"
[[ -n ${RESULTS:-} ]] && echo "$group $p $f" >> "$RESULTS"
((f == 0))
