#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Group "bisect": the kernel builds and links at every patch of the series,
# on x86_64 and ppc64.  For k = 1..N, patches 1..k are applied (quilt, no
# fuzz) and the kernel is built out of tree: make vmlinux, whose prepare
# step makes asm-offsets and the syscall headers from the tables and runs
# scripts/checksyscalls.sh, which must stay quiet.  Configuration:
# tinyconfig + the architecture's fragments with PERFCTR=y, made once and
# brought to each step with olddefconfig: PERFCTR is set from the step
# whose driver selects HAVE_PERFCTR (the x86 driver core, the powerpc
# low-level driver), and the series is ordered so that every C file of
# kernel/perfctr/ and arch/*/perfctr/ is compiled and linked at the step
# that adds or changes it by at least one of the two builds: a step that
# changes one which neither compiles fails ("compiled by no build").
#
# Cheap when warm: one source tree and one build directory per architecture
# are reused, and only files whose content changes between steps are
# rewritten, so each step's build is incremental; a step whose inputs
# (patches 1..k, configuration, compiler, this script) built before is not
# built again, nor, for one architecture, a step whose patch changes only
# other architectures' files, tools/, Documentation/ or MAINTAINERS (its
# build would be the step before's).
#
#   check-bisect.sh [ARCH...]   default: x86_64 ppc64
set -uo pipefail
. "$(dirname "$0")/lib.sh"

group=bisect
b=$CACHE/bisect
src=$b/src
mkdir -p "$b"
[[ -d $CACHE/pristine ]] || die "no pristine tree: run scripts/setup.sh"
[[ -d $src ]] || { cp -al "$CACHE/pristine" "$src"; : > "$b/src.touched"; }

mapfile -t patches < <(grep -v '^#' "$TOP/series" | grep -v '^$')
n=${#patches[@]}
# Every file the series touches: the source tree is synchronised over these
# (and over those of the previous run) at each step.
all=$(grep -h '^+++ b/' "${patches[@]/#/$TOP/patches/}" | cut -c7- | sort -u)

cfg=$TOP/scripts/config
if (($#)); then archs=("$@"); else archs=(x86_64 ppc64); fi
declare -A P F
for arch in "${archs[@]}"; do
	P[$arch]=0 F[$arch]=0
	case $arch in
	x86_64) karch=x86; cross=
		frags=("$cfg/x86_64.config" "$TOP/tools/testing/selftests/perfctr/config"
		       "$cfg/perfctr-kunit.config") ;;
	ppc64)	karch=powerpc; cross=powerpc64le-linux-gnu-
		frags=("$cfg/ppc64.config" "$cfg/ppc64-perfctr.config") ;;
	*)	die "unknown arch $arch" ;;
	esac
	out=$b/build-$arch
	mkdir -p "$out"
	# The seed configuration, made once from the pristine tree; x86_64 also
	# builds FRED, whose entry_fred.c the series changes.
	extra=$out/bisect-extra.config
	if [[ $arch == x86_64 ]]; then echo CONFIG_X86_FRED=y; else :; fi > "$extra"
	sum=$( (cat "${frags[@]}" "$extra" "$CACHE/base-version"; "${cross:-}gcc" --version) | sha1sum | cut -c1-40)
	if [[ $(cat "$out/seed.sum" 2>/dev/null) != "$sum" ]]; then
		log "bisect: configuring $arch"
		make -s -C "$CACHE/pristine" O="$out/seed" ARCH=$karch ${cross:+CROSS_COMPILE=$cross} \
			tinyconfig >/dev/null 2>&1 || die "tinyconfig failed for $arch"
		KCONFIG_CONFIG=$out/seed/.config "$CACHE/pristine/scripts/kconfig/merge_config.sh" \
			-m -O "$out/seed" "$out/seed/.config" "${frags[@]}" "$extra" >/dev/null ||
			die "merge_config failed for $arch"
		cp "$out/seed/.config" "$out/seed.config"
		rm -rf "$out/seed"
		echo "$sum" > "$out/seed.sum"
	fi
done

# Bring $src to the state of $stage (patches 1..k), rewriting only what differs.
sync_src() {
	local f
	for f in $(sort -u <(echo "$all") "$b/src.touched"); do
		if [[ -f $stage/$f ]]; then
			cmp -s "$stage/$f" "$src/$f" 2>/dev/null && continue
			mkdir -p "$(dirname "$src/$f")"
			cp --remove-destination "$stage/$f" "$src/$f"
		elif [[ -e $src/$f ]]; then
			rm -f "$src/$f"
		fi
	done
	echo "$all" > "$b/src.touched"
}

# Is OBJ (dir/name.o) built under the configuration in $out?  It is unless
# its directory's Makefile adds it under a CONFIG_ option that is not set.
built() {
	local obj=$1 dir name sym
	dir=$(dirname "$obj"); name=$(basename "$obj")
	sym=$(grep -hoE "^obj-\\\$\((CONFIG_[A-Za-z0-9_]+)\)[[:space:]]*[:+]?=.*[[:space:]]${name//./\\.}([[:space:]]|\$)" \
		"$src/$dir/Makefile" "$src/$dir/Kbuild" 2>/dev/null | head -n1 |
		sed -E 's/^obj-\$\((CONFIG_[A-Za-z0-9_]+)\).*/\1/')
	[[ -z $sym ]] || grep -qE "^$sym=[ym]" "$out/.config"
}

stage=$b/stage
rm -rf "$stage"
cp -al "$CACHE/pristine" "$stage"
export QUILT_PATCHES=$TOP/patches QUILT_SERIES=$TOP/series QUILT_PC=.pc
export QUILT_PATCH_OPTS="--fuzz=0" QUILT_NO_DIFF_TIMESTAMPS=1
key=$(sha1sum < "$0" | cut -c1-40)
touched=
declare -A want compiled
# make in $src for the build in $out, appending to $log.  Through ccache
# (scripts/setup.sh installs it): every run replays the series from the
# base, and a header most of the kernel includes (thread_info.h, ptrace.h,
# syscalls.h, the syscall tables) changes at several steps, so most of
# each run's compiles are of sources an earlier run compiled already.
ccache=
command -v ccache >/dev/null && ccache=ccache
export CCACHE_DIR=$CACHE/ccache CCACHE_MAXSIZE=8G CCACHE_NOHASHDIR=1
kmake() {
	nice -n 5 make -C "$src" O="$out" ARCH=$karch ${cross:+CROSS_COMPILE=$cross} \
		${ccache:+CC="ccache ${cross}gcc"} "$@" >>"$log" 2>&1
}
for ((k = 1; k <= n; k++)); do
	name=${patches[k - 1]}
	if ! pout=$(cd "$stage" && quilt push 2>&1) || grep -Eqi 'fuzz|offset|hunk.*(fail|ignored)' <<<"$pout"; then
		echo "$pout" | tail -5
		for arch in "${archs[@]}"; do
			echo "$group: not ok - $arch $name (does not apply cleanly)"; F[$arch]=$((F[$arch] + 1))
		done
		break
	fi
	# The patch's diff alone: its changelog and its place in the series
	# do not change what is built, so editing a changelog or appending a
	# patch rebuilds no step but the new ones.
	key=$( (echo "$key"; sed -n '/^diff --git /,$p' "$TOP/patches/$name") |
		sha1sum | cut -c1-40)
	synced=
	mine=$(cd "$stage" && quilt files)
	touched=$(sort -u <(echo "$touched") <(echo "$mine") | grep .)
	for arch in "${archs[@]}"; do
		case $arch in
		x86_64) karch=x86; cross= ;;
		ppc64)	karch=powerpc; cross=powerpc64le-linux-gnu- ;;
		esac
		# A patch that changes only another architecture's files, tools/,
		# Documentation/ or MAINTAINERS leaves this build as the step
		# before built it: not built again (the next step builds its
		# changes with the rest).  The last step is always built.
		if ((k < n)) && ! grep -qvE "^(arch/[a-z0-9]+/|tools/|Documentation/|MAINTAINERS$)" <<<"$mine" &&
		   ! grep -q "^arch/$karch/" <<<"$mine"; then
			echo "$group: ok - $arch $name (changes nothing this architecture builds)"
			P[$arch]=$((P[$arch] + 1))
			continue
		fi
		out=$b/build-$arch
		stamp=$(cat "$out/seed.sum")-$key
		if [[ $(head -n1 "$out/ok-$k" 2>/dev/null) == "$stamp" ]]; then
			echo "$group: ok - $arch $name (built before)"; P[$arch]=$((P[$arch] + 1))
			for f in $(tail -n +2 "$out/ok-$k"); do want["$k:$f"]=1 compiled["$k:$f"]=1; done
			for f in $mine; do
				case $f in
				kernel/perfctr/*.c|arch/$karch/perfctr/*.c) [[ -f $stage/$f ]] && want["$k:$f"]=1 ;;
				esac
			done
			continue
		fi
		[[ -n $synced ]] || { sync_src; synced=1; }
		rm -f "$out/ok-$k"
		log=$out/step-$k.log
		: > "$log"
		# The seed, brought to this step's Kconfig; .config is rewritten
		# only if that changes it, so the build stays incremental.
		cp "$out/seed.config" "$out/.config.step"
		if ! kmake -s KCONFIG_CONFIG="$out/.config.step" olddefconfig; then
			tail -20 "$log"; echo "$group: not ok - $arch $name (olddefconfig)"
			F[$arch]=$((F[$arch] + 1)); continue
		fi
		cmp -s "$out/.config.step" "$out/.config" || cp "$out/.config.step" "$out/.config"
		# The perfctr C files this patch adds or changes, and whether this
		# configuration compiles them.
		for f in $mine; do
			case $f in
			kernel/perfctr/*.c|arch/$karch/perfctr/*.c) ;;
			*) continue ;;
			esac
			[[ -f $stage/$f ]] || continue
			want["$k:$f"]=1
			built "${f%.c}.o" && compiled["$k:$f"]=1
		done
		if kmake -j"$(nproc)" vmlinux && ! grep -q 'not implemented' "$log"; then
			perfctr=$(grep -q '^CONFIG_PERFCTR=y' "$out/.config" && echo "PERFCTR=y" || echo "PERFCTR=n")
			echo "$group: ok - $arch $name ($perfctr; vmlinux linked)"
			P[$arch]=$((P[$arch] + 1))
			echo "$stamp" > "$out/ok-$k"
			for f in $mine; do
				[[ -n ${compiled["$k:$f"]:-} ]] && echo "$f" >> "$out/ok-$k"
			done
		else
			grep -E ': (fatal )?error:|not implemented|undefined reference' "$log" | head -20
			echo "$group: not ok - $arch $name (see $log)"
			F[$arch]=$((F[$arch] + 1))
		fi
	done
done
# Every perfctr C file a patch adds or changes: compiled at that step.
# ppc32.c is 32-bit Book3S's: the ppc32 kernels of "make check" build it
# (its final version), neither configuration here can.
for kf in "${!want[@]}"; do
	[[ -n ${compiled[$kf]:-} ]] && continue
	if [[ $kf == *:arch/powerpc/perfctr/ppc32.c ]]; then
		echo "# $group: ${kf#*:} as patch ${kf%%:*} leaves it: compiled by the ppc32 kernel build only"
		continue
	fi
	echo "$group: not ok - ${kf#*:} as patch ${kf%%:*} leaves it: compiled by no build"
	F[${archs[0]}]=$((F[${archs[0]}] + 1))
done
rm -rf "$stage"

status=0
for arch in "${archs[@]}"; do
	# The last step must have built perfctr itself.
	if [[ $k -gt $n ]] && ! grep -q '^CONFIG_PERFCTR=y' "$b/build-$arch/.config"; then
		echo "$group: not ok - $arch: PERFCTR is not set after the last patch"
		F[$arch]=$((F[$arch] + 1))
	fi
	echo "$group $arch: ${P[$arch]} passed, ${F[$arch]} failed"
	[[ -n ${RESULTS:-} ]] && echo "$group $arch ${P[$arch]} ${F[$arch]}" >> "$RESULTS"
	((F[$arch] == 0)) || status=1
done
exit $status
