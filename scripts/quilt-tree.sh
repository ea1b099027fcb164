#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make quilt: a quilt working tree ($CACHE/quilt) over the pristine kernel,
# whose patches are this repository's patches/ and series, with every
# patch applied.  Edit hunks to existing kernel files there:
#
#   cd ~/.cache/perfctr/quilt && . ./.quiltrc-perfctr
#   quilt pop <patch>; quilt add FILE (or quilt edit FILE); ...; quilt refresh
#
# then "make patches" here to renumber and redo the diffstat.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

q=$CACHE/quilt
rm -rf "$q"
cp -al "$CACHE/pristine" "$q"
# quilt writes files anew (it never edits through the hard links).
# The settings are a quiltrc of their own, passed with --quiltrc: quilt
# would let /etc/quilt.quiltrc override them if they were only exported.
cat > "$q/.quiltrc" <<EOT
QUILT_PATCHES=$TOP/patches
QUILT_SERIES=$TOP/series
QUILT_PC=.pc
QUILT_REFRESH_ARGS="-p ab --no-timestamps --no-index"
QUILT_DIFF_ARGS="-p ab --no-timestamps --no-index"
QUILT_PATCH_OPTS="--fuzz=0"
QUILT_NO_DIFF_TIMESTAMPS=1
EOT
cat > "$q/.quiltrc-perfctr" <<EOT
quilt() { command quilt --quiltrc "$q/.quiltrc" "\$@"; }
EOT
(cd "$q" && . ./.quiltrc-perfctr && quilt push -aq >/dev/null)
log "quilt tree ready: cd $q && . ./.quiltrc-perfctr"
