#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Group "bisect": the kernel builds at every patch of the series, on x86_64
# and ppc64.  For k = 1..N, patches 1..k are applied (quilt, no fuzz) and,
# out of tree and object by object, built: make prepare (asm-offsets, the
# syscall headers from the tables, scripts/checksyscalls.sh, which must stay
# quiet) and the objects of every file the first k patches add or change:
# the perfctr folders as directory targets (so what the configuration does
# not build is left out), the hooked kernel files, and the syscall table
# objects when a table changed.  Configuration: tinyconfig + the
# architecture's fragments with PERFCTR=y, made once and brought to each
# step with olddefconfig (PERFCTR stays off until the step whose driver
# selects HAVE_PERFCTR: 14 on x86, 25 on powerpc).  The kernel/perfctr/
# files of the steps before that are built by no step; each version of
# them is compiled after the last step instead, in its x86_64 tree.
#
# Cheap when warm: one source tree and one build directory per architecture
# are reused, and only files whose content changes between steps are
# rewritten; a step whose inputs (patches 1..k, configuration, compiler,
# this script) built before is not built again, nor, for one architecture,
# a step whose patch changes only other architectures' files, tools/,
# Documentation/ or MAINTAINERS (its build would be the step before's).
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
unbuilt=()
# make in $src for the build in $out, appending to $log.
kmake() { nice -n 5 make -C "$src" O="$out" ARCH=$karch ${cross:+CROSS_COMPILE=$cross} "$@" >>"$log" 2>&1; }
for ((k = 1; k <= n; k++)); do
	name=${patches[k - 1]}
	if ! pout=$(cd "$stage" && quilt push 2>&1) || grep -Eqi 'fuzz|offset|hunk.*(fail|ignored)' <<<"$pout"; then
		echo "$pout" | tail -5
		for arch in "${archs[@]}"; do
			echo "$group: not ok - $arch $name (does not apply cleanly)"; F[$arch]=$((F[$arch] + 1))
		done
		break
	fi
	key=$( (echo "$key"; cat "$TOP/patches/$name") | sha1sum | cut -c1-40)
	# kernel/perfctr/ as this step leaves it, while no architecture
	# selects HAVE_PERFCTR yet (so no step builds it): each version not
	# seen before is kept, to be compiled after the last step.
	if ! grep -qs 'select HAVE_PERFCTR' "$stage"/arch/*/Kconfig; then
		for f in "$stage"/kernel/perfctr/*.c; do
			[[ -f $f ]] || continue
			sum=$(sha1sum < "$f" | cut -c1-40)
			[[ " ${unbuilt_sums:-} " == *" $sum "* ]] && continue
			unbuilt_sums="${unbuilt_sums:-} $sum"
			mkdir -p "$b/unbuilt"
			cp "$f" "$b/unbuilt/$k-$(basename "$f")"
			unbuilt+=("$k:kernel/perfctr/$(basename "$f"):$name")
		done
	fi
	synced=
	mine=$(cd "$stage" && quilt files)
	touched=$(sort -u <(echo "$touched") <(echo "$mine") | grep .)
	for arch in "${archs[@]}"; do
		case $arch in
		x86_64) karch=x86; cross=
			tables="arch/x86/entry/syscalls/syscall_64.tbl:arch/x86/entry/syscall_64.o
				arch/x86/entry/syscalls/syscall_32.tbl:arch/x86/entry/syscall_32.o" ;;
		ppc64)	karch=powerpc; cross=powerpc64le-linux-gnu-
			tables="arch/powerpc/kernel/syscalls/syscall.tbl:arch/powerpc/kernel/systbl.o" ;;
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
		if [[ $(cat "$out/ok-$k" 2>/dev/null) == "$stamp" ]]; then
			echo "$group: ok - $arch $name (built before)"; P[$arch]=$((P[$arch] + 1))
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
		targets=() skipped=()
		for f in $touched; do
			case $f in
			tools/*|Documentation/*|scripts/*) continue ;;
			arch/$karch/*) ;;
			arch/*) continue ;;
			esac
			case $f in
			*/perfctr/*.c)	targets+=("$(dirname "$f")/") ;;
			*.c)		if built "${f%.c}.o"; then targets+=("${f%.c}.o")
					else skipped+=("${f%.c}.o"); fi ;;
			*.tbl)		for t in $tables; do
						[[ ${t%%:*} == "$f" ]] || continue
						if built "${t#*:}"; then targets+=("${t#*:}")
						else skipped+=("${t#*:}"); fi
					done ;;
			esac
		done
		mapfile -t targets < <(printf '%s\n' "${targets[@]}" | sort -u | grep .)
		if kmake -j"$(nproc)" prepare && ! grep -q 'not implemented' "$log" &&
		   { ((${#targets[@]} == 0)) || kmake -j"$(nproc)" "${targets[@]}"; }; then
			perfctr=$(grep -q '^CONFIG_PERFCTR=y' "$out/.config" && echo "PERFCTR=y" || echo "PERFCTR=n")
			echo "$group: ok - $arch $name ($perfctr; prepare + ${#targets[@]} objects/folders${skipped:+; not configured: ${skipped[*]}})"
			P[$arch]=$((P[$arch] + 1))
			echo "$stamp" > "$out/ok-$k"
		else
			grep -E ': (fatal )?error:|not implemented' "$log" | head -20
			echo "$group: not ok - $arch $name (see $log)"
			F[$arch]=$((F[$arch] + 1))
		fi
	done
done
# The versions kept above that the final tree does not have, compiled in
# the last step's x86_64 build (PERFCTR=y) in place of the final file,
# which is put back after: a file's early version is checked against the
# final headers, as close to its own step as a build can get.
if [[ $k -gt $n && " ${archs[*]} " == *" x86_64 "* ]] && ((${#unbuilt[@]})); then
	out=$b/build-x86_64 log=$b/build-x86_64/unbuilt.log karch=x86 cross=
	stamp=$(cat "$out/seed.sum")-$key
	cached=
	[[ $(cat "$out/ok-unbuilt" 2>/dev/null) == "$stamp" ]] && cached=1
	[[ -n $cached ]] || { sync_src; rm -f "$out/ok-unbuilt"; }
	fails=${F[x86_64]}
	for u in "${unbuilt[@]}"; do
		IFS=: read -r uk file uname <<<"$u"
		cmp -s "$b/unbuilt/$uk-$(basename "$file")" "$stage/$file" && continue
		if [[ -n $cached ]]; then
			echo "$group: ok - x86_64 $file as of $uname (built before)"
			P[x86_64]=$((P[x86_64] + 1))
			continue
		fi
		cp "$src/$file" "$b/unbuilt/final"
		: > "$log"
		cp --remove-destination "$b/unbuilt/$uk-$(basename "$file")" "$src/$file"
		if kmake -j"$(nproc)" prepare && kmake "${file%.c}.o"; then
			echo "$group: ok - x86_64 $file as of $uname (not built at its step: compiled in the last step's tree)"
			P[x86_64]=$((P[x86_64] + 1))
		else
			grep -E ': (fatal )?error:' "$log" | head -20
			echo "$group: not ok - x86_64 $file as of $uname (see $log)"
			F[x86_64]=$((F[x86_64] + 1))
		fi
		cp --remove-destination "$b/unbuilt/final" "$src/$file"
	done
	if [[ -z $cached ]]; then
		# The final files' objects again, so the next run starts from them.
		kmake -j"$(nproc)" kernel/perfctr/ || true
		((F[x86_64] > fails)) || echo "$stamp" > "$out/ok-unbuilt"
	fi
fi
rm -rf "$stage" "$b/unbuilt"

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
