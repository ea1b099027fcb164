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

# An orig tarball from SUITE's deb-src, into DIR, checked against SHA256:
# apt-get source in an apt state of its own (APT: lists, cache, the one
# entry), so the machine's apt configuration is neither read for sources
# nor changed; the .dsc and Debian tarball may be refused, only the orig
# tarball is needed.  A tarball already in DIR is only checked.
debsrc_tarball() {	# suite pkg=version tarball dir apt sha256
	local suite=$1 spec=$2 tarball=$3 dir=$4 apt=$5 want=$6 entry sum
	local -a opts
	mkdir -p "$dir"
	if [[ ! -f $dir/$tarball ]]; then
		entry=$(debsrc_entry "$suite") || die "cannot find this machine's Debian apt sources"
		[[ -n $entry ]] || die "no Debian archive entry in this machine's apt sources"
		mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/sources"
		rm -f "$apt/sources/"*
		if [[ $entry == Types:* ]]; then
			printf '%s\n' "$entry" > "$apt/sources/$suite-src.sources"
		else
			printf '%s\n' "$entry" > "$apt/sources/$suite-src.list"
		fi
		opts=(-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
		      -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/sources"
		      -o APT::Sandbox::User="$(id -un)")
		log "apt-get update ($suite's deb-src only, in $apt)"
		apt-get "${opts[@]}" update -qq >"$apt/update.log" 2>&1 ||
			{ cat "$apt/update.log" >&2; die "apt-get update of $suite's sources failed"; }
		log "downloading $spec's orig tarball"
		(cd "$dir" && apt-get "${opts[@]}" source --download-only -qq "$spec") \
			>"$apt/source.log" 2>&1 || true
		[[ -f $dir/$tarball ]] ||
			{ cat "$apt/source.log" >&2; die "apt-get source $spec did not bring $tarball"; }
	fi
	sum=$(sha256sum "$dir/$tarball" | cut -d' ' -f1)
	if [[ $sum != "$want" ]]; then
		mv "$dir/$tarball" "$dir/$tarball.bad"
		die "$tarball: sha256 $sum, not $want (moved to $tarball.bad)"
	fi
}
