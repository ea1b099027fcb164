#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Apply the series to a copy of the pristine tree with quilt, refusing any
# fuzz or offset, and bring the persistent source tree ($CACHE/src) up to
# date with it.  Only files whose content changed are rewritten there, so
# the out-of-tree builds stay incremental.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[[ -d $CACHE/pristine ]] || die "no pristine tree: run scripts/setup.sh"
stage=$CACHE/stage
rm -rf "$stage"
cp -al "$CACHE/pristine" "$stage"
# quilt must not write through the hard links into the pristine tree.
export QUILT_PATCHES=$TOP/patches QUILT_SERIES=$TOP/series QUILT_PC=.pc
export QUILT_PATCH_OPTS="--fuzz=0" QUILT_NO_DIFF_TIMESTAMPS=1
log "applying the series with quilt"
out=$(cd "$stage" && quilt push -a 2>&1) || { echo "$out"; die "quilt push -a failed"; }
if grep -Ei 'fuzz|offset|hunk.*(fail|ignored)' <<<"$out"; then
	die "the series does not apply cleanly to the pristine tree"
fi
touched=$(cd "$stage" && find .pc -mindepth 2 -type f ! -path '.pc/*/.timestamp' | cut -d/ -f3- | sort -u)
rm -rf "$stage/.pc"

src=$CACHE/src
if [[ ! -d $src ]]; then
	cp -al "$CACHE/pristine" "$src"
	: > "$CACHE/src.touched"
fi
# Files the series touches now, and files it touched last time.
for f in $(sort -u <(echo "$touched") "$CACHE/src.touched"); do
	if [[ -f $stage/$f ]]; then
		cmp -s "$stage/$f" "$src/$f" 2>/dev/null && continue
		mkdir -p "$(dirname "$src/$f")"
		cp --remove-destination "$stage/$f" "$src/$f"
	elif [[ -e $src/$f ]]; then
		rm -f "$src/$f"
	fi
done
echo "$touched" > "$CACHE/src.touched"
rm -rf "$stage"
# The test builds' release marker (uname -r ends in -perfctr): not part of
# the series, which leaves the release to whoever builds it.
cmp -s "$TOP/localversion-perfctr" "$src/localversion-perfctr" ||
	cp --remove-destination "$TOP/localversion-perfctr" "$src/localversion-perfctr"
log "series applied: $(grep -cv '^#\|^$' "$TOP/series") patches, no fuzz, no offsets"
