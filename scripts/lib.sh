# SPDX-License-Identifier: GPL-2.0
# Common settings for the perfctr scripts.
CACHE=${PERFCTR_CACHE:-$HOME/.cache/perfctr}
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$CACHE"

log() { echo "perfctr: $*" >&2; }
die() { echo "perfctr: error: $*" >&2; exit 1; }
