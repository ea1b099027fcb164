#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Group "standalone": the series' leading fixes to code outside perfctr
# (scripts/patches.conf's first group) each stand alone on plain Linux
# 7.3.4.  For each: it applies alone with patch --fuzz=0; every C file it
# changes, and for a header the files named below that use it, compiles
# with W=1 in a configuration that builds them (x86_64, ppc64, and a
# 32-bit Freescale e500 for powerpc's embedded PMU), with no warning the
# plain tree's build of the same objects lacks; and a Fixes: tag, where
# there is one, names a 12-digit commit and its subject.
#
# One source tree (hard links to the pristine tree) and one build
# directory per configuration, reused: a patch is applied, its objects
# built, and the patch reverted.  Cheap when warm (ccache); cold, about
# three configurations' "make prepare".
set -uo pipefail
. "$(dirname "$0")/lib.sh"

group=standalone
b=$CACHE/standalone
src=$b/src
mkdir -p "$b"
[[ -d $CACHE/pristine ]] || die "no pristine tree: run scripts/setup.sh"
if [[ ! -d $src || $(cat "$b/src.base" 2>/dev/null) != "$(cat "$CACHE/base-version")" ]]; then
	rm -rf "$src"
	cp -al "$CACHE/pristine" "$src"
	cat "$CACHE/base-version" > "$b/src.base"
fi

p=0 f=0
ok() { p=$((p + 1)); echo "$group: ok - $1"; }
nok() { f=$((f + 1)); echo "$group: not ok - $1"; shift; local l; for l in "$@"; do echo "# $l"; done; }
finish() {
	echo "$group: $p passed, $f failed"
	[[ -n ${RESULTS:-} ]] && echo "$group host $p $f" >> "$RESULTS"
	((f == 0))
	exit
}

# The first group of scripts/patches.conf: the patches before its second
# comment block.
mapfile -t fixes < <(awk '/^#/ { if (seen) exit; next } /^$/ { next }
	{ sub(/:.*/, ""); print; seen = 1 }' "$TOP/scripts/patches.conf")
((${#fixes[@]})) || { nok "patches.conf's first group" "no patches found"; finish; }

# Users of a header a fix changes: the objects that exercise it.
declare -A users=(
	[arch/x86/include/asm/mmu_context.h]="kernel/fork.o arch/x86/mm/tlb.o arch/x86/events/core.o"
)
# The configuration that builds a file, by path.
config_of() {
	case $1 in
	arch/x86/*) echo x86_64 ;;
	arch/powerpc/perf/core-fsl-emb.*) echo ppc32e500 ;;
	arch/powerpc/*) echo ppc64 ;;
	*) echo unknown ;;
	esac
}

ccache=
command -v ccache >/dev/null && ccache=ccache
export CCACHE_DIR=$CACHE/ccache CCACHE_MAXSIZE=8G CCACHE_NOHASHDIR=1
kmake() {	# CONFIG make-arguments...
	local c=$1 karch cross
	shift
	case $c in
	x86_64)	karch=x86; cross= ;;
	ppc64)	karch=powerpc; cross=powerpc64le-linux-gnu- ;;
	ppc32e500) karch=powerpc; cross=powerpc-linux-gnu- ;;
	esac
	nice -n 5 make -C "$src" O="$b/build-$c" ARCH=$karch ${cross:+CROSS_COMPILE=$cross} \
		${ccache:+CC="ccache ${cross}gcc"} "$@"
}

# Configure once: tinyconfig and a fragment.
configure() {
	local c=$1 out=$b/build-$c frag sum
	frag=$out.fragment
	mkdir -p "$out"
	case $c in
	x86_64)	{ cat "$TOP/scripts/config/x86_64.config"; echo CONFIG_PERF_EVENTS=y; } > "$frag" ;;
	ppc64)	{ cat "$TOP/scripts/config/ppc64.config"; echo CONFIG_PERF_EVENTS=y; } > "$frag" ;;
	ppc32e500) printf '%s\n' CONFIG_PPC_85xx=y CONFIG_PERF_EVENTS=y CONFIG_FSL_EMB_PERFMON=y \
			CONFIG_PRINTK=y > "$frag" ;;
	esac
	sum=$( (cat "$frag" "$CACHE/base-version") | sha1sum | cut -c1-40)
	[[ $(cat "$out/standalone.sum" 2>/dev/null) == "$sum" && -f $out/.config ]] && return 0
	log "standalone: configuring $c"
	kmake "$c" -s tinyconfig > "$out.log" 2>&1 &&
	KCONFIG_CONFIG=$out/.config "$src/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" "$frag" >> "$out.log" 2>&1 &&
	kmake "$c" -s olddefconfig >> "$out.log" 2>&1 || return 1
	echo "$sum" > "$out/standalone.sum"
}

# Build OBJECTS in configuration C with W=1; the compiler's warnings, one
# per line without line numbers, into FILE.  Fails if an object is not
# made (the configuration does not compile it) or the build fails.
build_objs() {	# C FILE OBJECTS...
	local c=$1 file=$2 o
	shift 2
	for o in "$@"; do rm -f "$b/build-$c/$o"; done
	kmake "$c" -j"$(nproc)" W=1 "$@" > "$file.log" 2>&1 || return 1
	for o in "$@"; do [[ -f $b/build-$c/$o ]] || { echo "$o: not built by $c" >> "$file.log"; return 1; }; done
	{ grep -E ': warning: ' "$file.log" || true; } | sed -E 's/:[0-9]+:[0-9]+:/:/' | sort -u > "$file"
}

for name in "${fixes[@]}"; do
	patch=$TOP/patches/$name
	short=${name:0:4}
	[[ -f $patch ]] || { nok "$short: $name is not in patches/"; continue; }
	files=$(grep '^+++ b/' "$patch" | cut -c7-)
	# Fixes: 12+ hex digits and ("subject").
	bad=$(grep '^Fixes:' "$patch" | grep -Ev '^Fixes: [0-9a-f]{12,40} \(".+"\)$' || true)
	if [[ -z $bad ]]; then
		ok "$short: Fixes: tags well formed ($(grep -c '^Fixes:' "$patch"))"
	else
		nok "$short: Fixes: tags well formed" "$bad"
	fi
	# Applies alone to plain 7.3.4, without fuzz or offset.
	if ! out=$(patch -p1 --fuzz=0 --forward --no-backup-if-mismatch -r - -d "$src" -i "$patch" 2>&1) ||
	   grep -Eqi 'fuzz|offset|hunk.*(fail|ignored)' <<<"$out"; then
		nok "$short: applies alone to plain 7.3.4 with no fuzz" "$out"
		patch -R -p1 --no-backup-if-mismatch -d "$src" -i "$patch" >/dev/null 2>&1
		continue
	fi
	ok "$short: applies alone to plain 7.3.4 with no fuzz"
	# The objects, by configuration.
	declare -A objs=()
	for file in $files; do
		case $file in
		*.c) o=${file%.c}.o ;;
		*.h) o=${users[$file]:-} ;;
		*) continue ;;
		esac
		[[ -n $o ]] || { nok "$short: $file has no object to build (users[] in this script)"; continue; }
		c=$(config_of "$file")
		objs[$c]+=" $o"
	done
	for c in "${!objs[@]}"; do
		if [[ $c == unknown ]] || ! configure "$c"; then
			nok "$short: a configuration for${objs[$c]}" "$(tail -5 "$b/build-$c.log" 2>/dev/null)"
			continue
		fi
		# shellcheck disable=SC2086
		if build_objs "$c" "$b/$short-$c.patched" ${objs[$c]}; then
			# The same objects on the plain tree.
			patch -R -p1 --no-backup-if-mismatch -d "$src" -i "$patch" >/dev/null
			# shellcheck disable=SC2086
			build_objs "$c" "$b/$short-$c.plain" ${objs[$c]}
			patch -p1 --fuzz=0 --no-backup-if-mismatch -d "$src" -i "$patch" >/dev/null
			new=$(comm -13 "$b/$short-$c.plain" "$b/$short-$c.patched")
			if [[ -z $new ]]; then
				ok "$short: $c W=1 builds${objs[$c]} with no new warning"
			else
				nok "$short: $c W=1 builds${objs[$c]} with no new warning" "$new"
			fi
		else
			nok "$short: $c W=1 builds${objs[$c]}" "$(grep -E ': (fatal )?error:|Error [0-9]|not built' "$b/$short-$c.patched.log" | head -5)"
		fi
	done
	unset objs
	patch -R -p1 --no-backup-if-mismatch -d "$src" -i "$patch" >/dev/null 2>&1 ||
		{ nok "$short: reverts"; rm -rf "$src"; }
done
finish
