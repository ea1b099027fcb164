#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The series must also apply with git am: check it on a small git tree
# holding the pristine versions of the files the series touches.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t=$CACHE/gitam
rm -rf "$t"; mkdir -p "$t"
files=$(grep -h '^--- a/' "$TOP"/patches/*.patch | cut -c7- | sort -u)
for f in $files; do
	# A file a patch adds and a later one changes is not in the base.
	[[ -f $CACHE/pristine/$f ]] || continue
	mkdir -p "$t/$(dirname "$f")"
	cp "$CACHE/pristine/$f" "$t/$f"
done
cd "$t"
git init -q
git -c user.name=perfctr -c user.email=perfctr@invalid add -A
git -c user.name=perfctr -c user.email=perfctr@invalid commit -qm base
mapfile -t series < <(grep -v '^#' "$TOP/series" | grep -v '^$' | sed "s|^|$TOP/patches/|")
if ! git -c user.name=perfctr -c user.email=perfctr@invalid am -q "${series[@]}"; then
	git am --abort 2>/dev/null || true
	die "the series does not apply with git am"
fi
n=$(git rev-list --count HEAD)
log "git am: $((n - 1)) patches applied"
rm -rf "$t"
