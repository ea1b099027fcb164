# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# perfctr 2.7's own example programs, self and signal (2.7.21.x, from
# Debian's papi 7.0.0 source: scripts/fetch-perfctr27.sh), built
# unmodified against this project's library as make install installs it,
# run in the guests (run-tests.sh, kselftest mode) and their output
# checked (group perfctr27).  Sourced by run-tests.sh after lib.sh and
# guest-lib.sh; uses its $src, $hdr, $label and record().
#
# Built as 2.7's examples/*/Makefile builds them (-O2
# -fomit-frame-pointer -Wall, NAME.c and the architecture's file), with
# libperfctr.pc's flags for 2.7's -I../../linux/include -I../../usr.lib,
# statically, and -Ducontext=ucontext_t: 2.7's signal names struct
# ucontext, which glibc 2.26 renamed struct ucontext_t.  The
# architecture's file: x86.c on x86_64 and i386, ppc.c on ppc32 and on
# ppc64, where 2.7's own ppc64.c does not compile against this library
# (the library README's list, which p27_ppc64_names checks); ppc.c's
# PMC1SEL 2 is instructions completed on POWER8-10 as on the 74xx.
# 2.7's signal on powerpc sets MMCR0's PMXE and PMC1CE, which this
# driver keeps for itself (and ppc32 has no overflow interrupt): its
# control is refused, as the library README says, and checked so.

P27_DIR=$CACHE/perfctr-2.7/perfctr-2.7.x

# The library installed into DIR/stage (prefix /usr), and 2.7's self and
# signal built against it into DEST as perfctr27_self, perfctr27_signal.
p27_build() {	# lib-out-dir cc arch dest
	local lib=$1 cc=$2 arch=$3 dest=$4 stage=$1/stage flags afile ex pfm=0
	[[ -f $P27_DIR/.done ]] || bash "$TOP/scripts/fetch-perfctr27.sh" >/dev/null || return 1
	[[ $cc == gcc ]] && pfm=1	# as build_lib: the same build, installed
	rm -rf "$stage"
	make -s -C "${PERFCTR_LIB_SRC:-$src/tools/lib/perfctr}" OUTPUT="$lib/" CC="$cc" LIBPFM=$pfm \
		KHDR_INCLUDES="-I$hdr/include" LDFLAGS=-static DESTDIR="$stage" PREFIX=/usr \
		install >"$lib.install.log" 2>&1 || { cat "$lib.install.log" >&2; die "make install fails with $cc"; }
	flags=$(PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_LIBDIR=$stage/usr/lib/pkgconfig \
		pkg-config --cflags --libs --static libperfctr) || die "pkg-config finds no staged libperfctr"
	case $arch in
	x86_64 | i386) afile=x86 ;;
	ppc32 | ppc64) afile=ppc ;;
	esac
	for ex in self signal; do
		# shellcheck disable=SC2086 # flags: pkg-config's words
		"$cc" -O2 -fomit-frame-pointer -Wall -Ducontext=ucontext_t -static \
			-o "$dest/perfctr27_$ex" "$P27_DIR/examples/$ex/$ex.c" \
			"$P27_DIR/examples/$ex/$afile.c" $flags >"$lib.p27-$ex.log" 2>&1 ||
			{ cat "$lib.p27-$ex.log" >&2; die "perfctr 2.7's $ex does not build with $cc"; }
	done
}

# 2.7's ppc64.c of self and signal against the staged ppc64 install: the
# identifiers the compiler misses must be the ones the library README
# lists (its line "2.7's ppc64 names missing here: ..."), no more, no
# fewer.  2.7's usr.lib comes last on the path for signal's ppc64.h, an
# internal header of 2.7's library.
p27_ppc64_names() {	# lib-out-dir cc
	local stage=$1/stage missing listed readme
	readme=${PERFCTR_LIB_SRC:-$src/tools/lib/perfctr}/README
	missing=$(for ex in self signal; do
			"$2" -O2 -Wall -DPPC64 -fsyntax-only -I"$stage/usr/include" \
				-I"$stage/usr/include/perfctr" -idirafter "$P27_DIR/usr.lib" \
				"$P27_DIR/examples/$ex/ppc64.c" 2>&1
		done | sed -n "s/.*error: ‘\([A-Za-z0-9_]*\)’ undeclared.*/\1/p;
			s/.*error: .* has no member named ‘\([A-Za-z0-9_]*\)’.*/\1/p" | sort -u)
	listed=$(sed -n "s/^.*2\.7's ppc64 names missing here: *//p" "$readme" | tr -d '.' | tr ', ' '\n\n' |
		 sed '/^$/d' | sort -u)
	if [[ -n $missing && $missing == "$listed" ]]; then
		echo "ok - 2.7's ppc64.c misses exactly the README's names:" $missing
		return 0
	fi
	echo "not ok - 2.7's ppc64.c misses:" $missing "; the README lists:" $listed
	return 1
}

# The checks of 2.7's programs' output in the console (lines "P27self: ",
# "P27signal: " and "PERFCTR-EXIT P27self N").  2.7's x86.c knows the
# cpu_type values 0-16 (its perfctr's), of which an x86_64 build keeps
# GENERIC, K8, K8C and P4M3; for the others self says "cpu type N (NAME)
# not supported" and exits 1, as 2.7's did for a CPU it did not know.
p27_report() {	# console arch [ppc64-counts]
	local console=$1 arch=$2 counts=${3:-} p=0 f=0 ct st out known_self known_sig v
	p27_ok() { echo "$label/$cpu perfctr27: ok - $*"; p=$((p + 1)); }
	p27_nok() { echo "$label/$cpu perfctr27: not ok - $*"; f=$((f + 1)); }
	# p27_ppc64_names' line, from the build.
	case ${P27_NAMES:-} in
	ok\ -\ *) p27_ok "${P27_NAMES#ok - }" ;;
	not\ ok\ -\ *) p27_nok "${P27_NAMES#not ok - }" ;;
	esac
	sed -n 's/^\(P27[a-z]*: \)/\1/p' "$console" | sed "s/^/$label\/$cpu perfctr27: # /"
	out=$(sed -n 's/^P27self: //p' "$console")
	st=$(sed -n 's/^PERFCTR-EXIT P27self \([0-9]*\)$/\1/p' "$console" | tail -1)
	ct=$(sed -n 's/^cpu_type[[:space:]]*\([0-9]*\) .*/\1/p' <<<"$out")
	if [[ -z $ct ]]; then
		p27_nok "self printed no cpu_type (perfctr_info_print), exit ${st:-none}"
	else
		p27_ok "self: PerfCtr Info with cpu_type $ct"
	fi
	case $arch in
	x86_64) known_self=" 0 13 15 16 " known_sig=" 13 15 16 " ;;
	i386) known_self=" $(seq -s ' ' 0 16) " known_sig=" 3 4 5 9 11 12 13 14 15 16 " ;;
	*) known_self=all known_sig= ;;
	esac
	if [[ -n $ct && $known_self != all && $known_self != *" $ct "* ]]; then
		if [[ $st == 1 ]] && grep -q "^cpu type $ct (.*) not supported$" <<<"$out"; then
			p27_ok "self: cpu type $ct, which 2.7 does not know: \"not supported\", exit 1"
		else
			p27_nok "self: cpu type $ct is not 2.7's: expected \"cpu type $ct (...) not supported\" and exit 1, got exit ${st:-none}"
		fi
	elif [[ -n $ct ]]; then
		v=$(sed -n 's/^tsc[[:space:]]*\([0-9]*\)$/\1/p' <<<"$out")
		if [[ $st == 0 ]] && grep -q '^fac(15) == 2004310016$' <<<"$out" && [[ ${v:-0} -gt 0 ]]; then
			p27_ok "self: exit 0, fac(15) right, the TSC counted $v"
		else
			p27_nok "self: expected exit 0, fac(15) == 2004310016 and a TSC count; exit ${st:-none}, tsc ${v:-none}"
		fi
		v=$(sed -n 's/^pmc\[0\][[:space:]]*\([0-9]*\)$/\1/p' <<<"$out")
		if [[ $ct == 0 ]]; then
			[[ -z $v ]] && p27_ok "self: the generic CPU: no pmc[0]" || p27_nok "self: pmc[0] on the generic CPU"
		elif [[ -z $v ]]; then
			p27_nok "self: no pmc[0] line"
		elif [[ -n $counts ]] && ((v == 0)); then
			p27_nok "self: pmc[0] (instructions) counted 0 where QEMU counts"
		else
			p27_ok "self: pmc[0] $v${counts:+ (instructions, nonzero)}"
		fi
	fi
	out=$(sed -n 's/^P27signal: //p' "$console")
	st=$(sed -n 's/^PERFCTR-EXIT P27signal \([0-9]*\)$/\1/p' "$console" | tail -1)
	if [[ $arch == ppc* ]]; then
		# 2.7's ppc.c sets MMCR0's PMXE and PMC1CE itself; here they are
		# the driver's (ppc32 has no overflow interrupt at all): EINVAL.
		if [[ $st == 1 ]] && grep -q '^vperfctr_control: Invalid argument$' <<<"$out" &&
		   grep -q '^mmcr0[[:space:]]*0x44008000$' <<<"$out"; then
			p27_ok "signal: its MMCR0 0x44008000 (PMXE, PMC1CE: the driver's bits) refused, EINVAL, exit 1"
		else
			p27_nok "signal: expected MMCR0 0x44008000 refused (\"vperfctr_control: Invalid argument\", exit 1); exit ${st:-none}"
		fi
	elif [[ -n $ct && $known_sig != all && $known_sig != *" $ct "* ]]; then
		if [[ $st == 1 ]] && grep -q "^do_setup: unsupported cpu type $ct$" <<<"$out"; then
			p27_ok "signal: cpu type $ct, which 2.7's signal does not know: \"unsupported\", exit 1"
		else
			p27_nok "signal: cpu type $ct: expected \"do_setup: unsupported cpu type $ct\" and exit 1, got exit ${st:-none}"
		fi
	else
		v=$(grep -c '^on_sigio: PMC overflow set 0x[0-9a-f]* at pc 0x' <<<"$out" || true)
		if [[ $st != 0 ]] || ! grep -q '^Control used:' <<<"$out" || grep -q 'unexpected\|not supported' <<<"$out"; then
			p27_nok "signal: expected exit 0, its control and no unexpected signal; exit ${st:-none}"
		elif [[ -n $counts ]] && ((v == 0)); then
			p27_nok "signal: no overflow signal where QEMU counts"
		else
			p27_ok "signal: exit 0, $v overflow signals${counts:+ (at least one where QEMU counts)}"
		fi
	fi
	echo "$label/$cpu perfctr27: $p passed, $f failed"
	record "$label/$cpu" perfctr27 "$p" "$f"
}
