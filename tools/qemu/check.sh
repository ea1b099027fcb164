#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check's QEMU group: tools/qemu/patches apply to QEMU 10.0.2 and
# build (build.sh), and each passes QEMU's own scripts/checkpatch.pl.
# Appends "qemu patches P F" to $RESULTS; the guests' counts are the
# qemu-pmu groups of scripts/run-tests.sh.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

p=0 f=0
if bash "$TOP/tools/qemu/build.sh" >/dev/null; then
	p=$((p + 1)); echo "qemu patches: ok - QEMU 10.0.2 with tools/qemu/patches builds"
	for patch in "$TOP"/tools/qemu/patches/*.patch; do
		name=$(basename "$patch")
		if out=$(cd "$CACHE/qemu/tree" && perl scripts/checkpatch.pl --no-color "$patch" 2>&1); then
			p=$((p + 1)); echo "qemu patches: ok - checkpatch.pl $name"
		else
			f=$((f + 1)); echo "qemu patches: not ok - checkpatch.pl $name"
			sed 's/^/qemu patches: # /' <<<"$out" | head -40
		fi
	done
else
	f=$((f + 1)); echo "qemu patches: not ok - QEMU 10.0.2 with tools/qemu/patches does not build"
fi
echo "qemu patches: $p passed, $f failed"
[[ -n ${RESULTS:-} ]] && echo "qemu patches $p $f" >> "$RESULTS"
((f == 0))
