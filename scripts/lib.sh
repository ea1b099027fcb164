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

# One deb-src stanza for SUITE with the URIs and Signed-By of the machine's
# Debian archive (the first "deb" entry with a suite that has no "-":
# not -security, -updates or -backports).
debsrc_entry() {	# suite
	local suite=$1
	local f=/etc/apt/sources.list.d/debian.sources
	if [[ -f $f ]]; then
		awk '
		function flush() {
			if (isdeb && uris != "" && main && !done) {
				printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\n", uris, suite
				if (signed != "")
					printf "Signed-By: %s\n", signed
				done = 1
			}
			isdeb = main = 0; uris = signed = ""
		}
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		/^Types:/ { for (i = 2; i <= NF; i++) if ($i == "deb") isdeb = 1; next }
		/^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0; next }
		/^Suites:/ { for (i = 2; i <= NF; i++) if ($i !~ /-/) main = 1; next }
		/^Signed-By:/ { sub(/^Signed-By:[ \t]*/, ""); signed = $0; next }
		END { flush() }
		' suite="$suite" "$f"
		return 0
	fi
	if [[ -f /etc/apt/sources.list ]]; then
		# deb [options] URI suite components...
		awk '$1 == "deb" {
			o = ""; i = 2
			if ($2 ~ /^\[/) { while ($i !~ /\]$/) o = o $(i++) " "; o = o $(i++) " " }
			if ($(i + 1) !~ /-/) { print "deb-src " o $i " " suite " main"; exit }
		}' suite="$suite" /etc/apt/sources.list
		return 0
	fi
	return 1
}
