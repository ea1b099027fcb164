#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch perfctr 2.7's own sources (2.7.21.x: its library, headers and
# example programs) from Debian's source package of PAPI 7.0.0, whose
# upstream tarball carries them as src/perfctr-2.7.x, and unpack that
# directory alone, unmodified, into $PERFCTR_CACHE/perfctr-2.7/perfctr-2.7.x.
# make check builds 2.7's examples self and signal from it against this
# project's library (scripts/perfctr27.sh).  Independent of the PAPI
# version tools/papi builds: its own download, its own directory.  Safe
# to run again: it only does what is missing.
#
# The deb-src entry, when apt has none for papi, is derived from the
# machine's own Debian sources (the same URIs, Suites, Components and
# Signed-By), never spelled out here.
#
# Environment:
#   PERFCTR_CACHE      cache directory (default ~/.cache/perfctr)
#   PERFCTR_NO_INSTALL=1  never touch apt's configuration (fail instead)
#
# Prints the unpacked directory's path on standard output.
set -euo pipefail

. "$(dirname "$0")/lib.sh"	# CACHE, log, die, apt_update

# PAPI 7.0.0 is the last PAPI that carries perfctr 2.7 (7.1.0 dropped
# the perfctr component); Debian 12 has it.  The upstream tarball's
# SHA-256, so that one fetched by other means is the same.
UPSTREAM=7.0.0
ORIG=papi_$UPSTREAM.orig.tar.gz
ORIG_SHA256=799dcc317a47da96beaeed445812ecb6ae49df7c0504a4569797c1f7d74c4fd2
DIR=$CACHE/perfctr-2.7
# The file tools/papi/fetch.sh writes too: one deb-src entry, whichever
# script adds it.
SRC_LIST=/etc/apt/sources.list.d/perfctr-papi-src.sources

# A "deb-src" copy of every "deb" entry of the machine's sources.
add_deb_src() {
	[[ -z ${PERFCTR_NO_INSTALL:-} ]] || die "apt has no source of papi and PERFCTR_NO_INSTALL is set"
	((EUID == 0)) || die "adding a deb-src entry for papi needs root"
	if [[ -e $SRC_LIST || -e ${SRC_LIST%.sources}.list ]]; then
		log "deb-src entries are there; updating apt's lists"
	elif [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
		log "adding deb-src entries derived from debian.sources"
		sed -E -e 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$SRC_LIST"
	elif [[ -f /etc/apt/sources.list ]]; then
		log "adding deb-src lines derived from sources.list"
		awk '$1 == "deb" { $1 = "deb-src"; print }' /etc/apt/sources.list > "${SRC_LIST%.sources}.list"
	else
		die "cannot find this machine's Debian apt sources"
	fi
	APT_UPDATED=
	apt_update
}

# The newest Debian revision of papi $UPSTREAM that apt can fetch.
papi_version() {
	apt-cache showsrc papi 2>/dev/null |
		awk -v up="$UPSTREAM" '/^Package: / { p = $2 }
			/^Version: / && p == "papi" { v = $2; u = v; sub(/^[0-9]+:/, "", u); sub(/-[^-]*$/, "", u)
				if (u == up) print v }' |
		sort -u | sort -V | tail -n1
}

orig_ok() { [[ -f $1 ]] && echo "$ORIG_SHA256  $1" | sha256sum -c --status; }

fetch() {
	local orig=$DIR/src/$ORIG ver f
	mkdir -p "$DIR/src"
	if ! orig_ok "$orig"; then
		# One already in the cache: PAPI's own fetch (tools/papi/fetch.sh).
		for f in "$CACHE/papi/src/$ORIG" "$CACHE/$ORIG"; do
			if orig_ok "$f"; then cp "$f" "$orig"; break; fi
		done
	fi
	if ! orig_ok "$orig"; then
		[[ -n $(apt-cache showsrc papi 2>/dev/null) ]] || add_deb_src
		ver=$(papi_version)
		[[ -n $ver ]] || die "no papi $UPSTREAM source in reach of apt (a Debian 12 suite has it)"
		log "downloading papi $ver's source (for perfctr 2.7's examples)"
		(cd "$DIR/src" && apt-get source --download-only -qq -o APT::Sandbox::User=root "papi=$ver" >/dev/null) ||
			die "cannot download the source of papi $ver"
		orig_ok "$orig" || die "$ORIG: not the expected tarball (SHA-256)"
	fi
	if [[ ! -f $DIR/perfctr-2.7.x/.done ]]; then
		log "unpacking src/perfctr-2.7.x of $ORIG"
		rm -rf "$DIR/perfctr-2.7.x" "$DIR/tmp"
		mkdir -p "$DIR/tmp"
		tar -xzf "$orig" -C "$DIR/tmp" "papi-$UPSTREAM/src/perfctr-2.7.x" ||
			die "$ORIG has no src/perfctr-2.7.x"
		mv "$DIR/tmp/papi-$UPSTREAM/src/perfctr-2.7.x" "$DIR/perfctr-2.7.x"
		rm -rf "$DIR/tmp"
		touch "$DIR/perfctr-2.7.x/.done"
	fi
	echo "$DIR/perfctr-2.7.x"
}

fetch
