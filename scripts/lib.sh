# SPDX-License-Identifier: GPL-2.0
# Common settings for the perfctr scripts.
CACHE=${PERFCTR_CACHE:-$HOME/.cache/perfctr}
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$CACHE"

log() { echo "perfctr: $*" >&2; }
die() { echo "perfctr: error: $*" >&2; exit 1; }

# apt-get update once per run (apt_sources() clears APT_UPDATED after
# adding an entry).
APT_UPDATED=
apt_update() {
	[[ -n $APT_UPDATED ]] && return 0
	log "apt-get update"
	# A foreign architecture's list can be caught mid-sync on the mirror
	# ("File has unexpected size"): try again, then go on with the lists
	# apt has; an install that needs a missing one fails with its name.
	apt-get update -qq >/dev/null 2>&1 || { sleep 10; apt-get update -qq >/dev/null; } ||
		log "warning: apt-get update failed for some lists; going on with the others"
	APT_UPDATED=1
}
