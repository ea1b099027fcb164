#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every patch of the series.  With --results,
# report each patch as a test result (group "series checkpatch").
# Ignored: ARCH_INCLUDE_LINUX (asm/nmi.h, whose PMU allocator prototypes
# <linux/nmi.h> includes only on some configurations) and
# UNKNOWN_COMMIT_ID (the base is a source package without git history,
# so checkpatch can look up no commit: it would flag every Fixes: tag;
# the tag's form is still checked).  Patch 5 makes the
# PERFCTR entry in MAINTAINERS and each patch that adds files outside it
# extends it.  checkpatch warns of any patch that adds a file without a
# MAINTAINERS hunk (FILE_PATH_CHANGES), covered or not; for the x86
# families, which add files to arch/x86/perfctr/, that warning is checked
# instead: every file the patch adds must be covered by an F: line of the
# entry as the patches before it leave it.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

src=$CACHE/pristine
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src/MAINTAINERS" "$tmp/MAINTAINERS"

# The files PATCH adds that no F: line of the PERFCTR entry in
# $tmp/MAINTAINERS covers (a directory line covers what is under it).
uncovered() {
	local file pat ok
	mapfile -t pats < <(awk '/^PERFCTR \(/ { on = 1; next } on && /^$/ { exit }
				 on && /^F:/ { print $2 }' "$tmp/MAINTAINERS")
	for file in $(awk '/^diff --git / { f = $4 } /^new file mode/ { print substr(f, 3) }' "$1"); do
		ok=
		for pat in "${pats[@]}"; do
			[[ $file == "$pat" || ( $pat == */ && $file == "$pat"* ) ]] && ok=1
		done
		[[ -n $ok ]] || echo "$file"
	done
}

p=0 f=0
for patch in "$TOP"/patches/*.patch; do
	name=$(basename "$patch")
	# libperfctr says ENOSYS for "this kernel has no perfctr system
	# calls" without making one: what ENOSYS means (checkpatch's ENOSYS
	# rule is for kernel code).
	ignore_enosys=
	[[ $name == *-tools-lib-perfctr-* ]] && ignore_enosys="--ignore ENOSYS"
	# likwid's marker functions are camelCase (likwid_markerInit ...):
	# code written for likwid calls them by those names.
	[[ $name == *-tools-lib-perfctr-* ]] && ignore_enosys+=" --ignore CAMELCASE"
	[[ $name == 0000-cover-letter.patch ]] && continue
	out=$(cd "$src" && perl scripts/checkpatch.pl --strict \
			--ignore ARCH_INCLUDE_LINUX --ignore UNKNOWN_COMMIT_ID \
			$ignore_enosys -q "$patch" 2>&1)
	rc=$?
	# Only FILE_PATH_CHANGES, and every added file covered: ok.
	if ((rc)) && grep -q '^total: 0 errors, 1 warnings, 0 checks' <<<"$out" &&
	   grep -q 'does MAINTAINERS need updating' <<<"$out"; then
		missing=$(uncovered "$patch")
		[[ -z $missing ]] && rc=0 || out+=$'\n'"not in the PERFCTR entry of MAINTAINERS: $missing"
	fi
	if ((rc == 0)); then
		echo "series checkpatch: ok - $name"; p=$((p + 1))
	else
		echo "series checkpatch: not ok - $name"; echo "$out" | head -40; f=$((f + 1))
	fi
	# The entry as this patch leaves it, for the next.
	awk '/^diff --git / { on = ($3 == "a/MAINTAINERS") } on' "$patch" > "$tmp/hunk"
	if [[ -s $tmp/hunk ]] && ! patch -s -p1 --fuzz=0 -d "$tmp" < "$tmp/hunk" >/dev/null; then
		echo "series checkpatch: not ok - $name (its MAINTAINERS hunk does not apply)"; f=$((f + 1))
	fi
done
echo "series checkpatch: $p passed, $f failed"
if [[ ${1:-} == --results && -n ${RESULTS:-} ]]; then
	echo "series checkpatch $p $f" >> "$RESULTS"
fi
((f == 0))
