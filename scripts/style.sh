#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every patch of the series.  With --results,
# report each patch as a test result (group "series checkpatch").
# Ignored: ARCH_INCLUDE_LINUX (asm/nmi.h, whose PMU allocator prototypes
# <linux/nmi.h> includes only on some configurations).  Each patch that
# adds files extends the PERFCTR entry in MAINTAINERS (patch 4 makes it).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

src=$CACHE/pristine
p=0 f=0
for patch in "$TOP"/patches/*.patch; do
	name=$(basename "$patch")
	[[ $name == 0000-cover-letter.patch ]] && continue
	if out=$(cd "$src" && perl scripts/checkpatch.pl --strict \
			--ignore ARCH_INCLUDE_LINUX \
			-q "$patch" 2>&1); then
		echo "series checkpatch: ok - $name"; p=$((p + 1))
	else
		echo "series checkpatch: not ok - $name"; echo "$out" | head -40; f=$((f + 1))
	fi
done
echo "series checkpatch: $p passed, $f failed"
if [[ ${1:-} == --results && -n ${RESULTS:-} ]]; then
	echo "series checkpatch $p $f" >> "$RESULTS"
fi
((f == 0))
