#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's source package of PAPI and unpack it, pristine, into
# $PERFCTR_CACHE/papi/.  The series in tools/papi/ applies to that tree.
# Safe to run again: it only does what is missing.
#
# The deb-src entry is derived from the machine's own Debian sources (the
# same URIs, Suites, Components and Signed-By as their "deb" entries),
# never spelled out here.
#
# Environment:
#   PERFCTR_CACHE      cache directory (default ~/.cache/perfctr)
#   PAPI_UPSTREAM      upstream version wanted (default 7.0.0; its newest
#                      Debian revision is taken)
#   PERFCTR_NO_INSTALL=1  never touch apt's configuration (fail instead)
#
# Prints the unpacked tree's path on standard output.
set -euo pipefail

. "$(dirname "$0")/../../scripts/lib.sh"	# CACHE, log, die, apt_update
PAPI_UPSTREAM=${PAPI_UPSTREAM:-7.0.0}
SRC_LIST=/etc/apt/sources.list.d/perfctr-papi-src.sources

# Turn each "deb" stanza of the machine's Debian deb822 sources into a
# "deb-src" stanza with the same fields, or each "deb" line of a one-line
# sources.list into a "deb-src" line.
src_entries() {
	local f=/etc/apt/sources.list.d/debian.sources
	if [[ -f $f ]]; then
		awk '
		function flush() {
			if (isdeb && !hassrc && uris != "") {
				if (n++)
					printf "\n"
				printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents: %s\n",
					uris, suites, comps
				if (signed != "")
					printf "Signed-By: %s\n", signed
			}
			isdeb = hassrc = 0; uris = suites = comps = signed = ""
		}
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		/^Types:/ {
			for (i = 2; i <= NF; i++) {
				if ($i == "deb") isdeb = 1
				if ($i == "deb-src") hassrc = 1
			}
			next
		}
		/^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0; next }
		/^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0; next }
		/^Components:/ { sub(/^Components:[ \t]*/, ""); comps = $0; next }
		/^Signed-By:/ { sub(/^Signed-By:[ \t]*/, ""); signed = $0; next }
		END { flush() }
		' "$f"
		return 0
	fi
	if [[ -f /etc/apt/sources.list ]]; then
		awk '$1 == "deb" { $1 = "deb-src"; print }' /etc/apt/sources.list
		return 0
	fi
	return 1
}

apt_src_sources() {
	[[ -f $SRC_LIST || -f ${SRC_LIST%.sources}.list ]] && return 0
	[[ -z ${PERFCTR_NO_INSTALL:-} ]] || die "no deb-src entry ($SRC_LIST) and PERFCTR_NO_INSTALL is set"
	((EUID == 0)) || die "adding $SRC_LIST needs root"
	local entries
	entries=$(src_entries) || die "cannot find this machine's Debian apt sources"
	[[ -n $entries ]] || die "no deb entry in this machine's Debian apt sources"
	if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
		log "adding deb-src entries derived from debian.sources"
		printf '%s\n' "$entries" > "$SRC_LIST"
	else
		log "adding deb-src lines derived from sources.list"
		printf '%s\n' "$entries" > "${SRC_LIST%.sources}.list"
	fi
	APT_UPDATED=
}

# The newest Debian version of papi whose upstream part is $PAPI_UPSTREAM,
# or, when no suite has it, the newest of all (said on stderr).
pick_version() {
	local all want
	all=$(apt-cache showsrc papi 2>/dev/null | awk '/^Package: / { p = $2 } /^Version: / && p == "papi" { print $2 }' |
	      sort -u | sort -V -r)
	[[ -n $all ]] || return 1
	want=$(printf '%s\n' "$all" | awk -v up="$PAPI_UPSTREAM" '{ v = $1; sub(/^[0-9]+:/, "", v); sub(/-[^-]*$/, "", v) }
		v == up || index(v, up ".") == 1 || index(v, up "+") == 1 { print $1; exit }')
	if [[ -z $want ]]; then
		want=$(printf '%s\n' "$all" | head -n1)
		log "warning: no papi $PAPI_UPSTREAM in reach (have: ${all//$'\n'/ }); taking $want"
	fi
	echo "$want"
}

fetch() {
	local dir=$CACHE/papi ver dsc
	mkdir -p "$dir/src"
	ver=$(cat "$dir/version" 2>/dev/null || true)
	dsc=$(ls "$dir"/src/papi_"${ver#*:}".dsc 2>/dev/null || true)
	if [[ -z $ver || -z $dsc ]]; then
		# Without deb-src lists, apt-cache showsrc finds nothing.
		if [[ -z $(apt-cache showsrc papi 2>/dev/null) ]]; then
			apt_src_sources
			apt_update
		fi
		ver=$(pick_version) || die "apt-cache showsrc papi finds nothing"
		log "downloading papi $ver"
		(cd "$dir/src" && apt-get source --download-only -qq -o APT::Sandbox::User=root "papi=$ver" >/dev/null) ||
			die "cannot download the source of papi $ver"
		dsc=$(ls "$dir"/src/papi_"${ver#*:}".dsc)
		echo "$ver" > "$dir/version"
	fi
	if [[ ! -f $dir/pristine/.done-$ver ]]; then
		log "unpacking papi $ver"
		rm -rf "$dir/pristine" "$dir/pristine.tmp"
		# The Debian patches stay applied: the tree is what Debian builds.
		# apt checked the files against the archive's signed Sources;
		# dpkg-source's word on the uploader's key (not in any keyring
		# here) goes to the log.
		dpkg-source -x "$dsc" "$dir/pristine.tmp" >"$dir/unpack.log" 2>&1 ||
			{ cat "$dir/unpack.log" >&2; die "cannot unpack $dsc"; }
		mv "$dir/pristine.tmp" "$dir/pristine"
		touch "$dir/pristine/.done-$ver"
	fi
	log "papi $ver in $dir/pristine"
	echo "$dir/pristine"
}

fetch
