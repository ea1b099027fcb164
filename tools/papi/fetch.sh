#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch PAPI 7.2.0's source, upstream's release as Debian sid's papi
# source package carries it (papi_7.2.0.orig.tar.gz), check it against
# the sha256 kept here, and unpack it, pristine, into
# $PERFCTR_CACHE/papi/pristine-7.2.0/.  The series in tools/papi/patches
# applies to that tree.  Safe to run again: it only does what is missing.
#
# apt-get source runs in an apt state of its own ($PERFCTR_CACHE/papi/apt:
# lists, cache and one deb-src entry for sid), so the machine's apt
# configuration is neither read for sources nor changed, and no root is
# needed.  The entry's URIs and Signed-By are those of the machine's own
# Debian archive entry (debian.sources, or sources.list), never spelled
# out here.  Only the orig tarball is needed: the .dsc and the Debian
# tarball may be refused (at the time of writing both answer 404 while
# the orig tarball comes), and the tarball's sha256 is checked here.
#
# Environment:
#   PERFCTR_CACHE      cache directory (default ~/.cache/perfctr)
#
# Prints the unpacked tree's path on standard output.
set -euo pipefail

. "$(dirname "$0")/../../scripts/lib.sh"	# CACHE, log, die
PAPI_VERSION=7.2.0
PAPI_DEBIAN=7.2.0-2
PAPI_SHA256=f806e77e8cd08a0d3e4c002d8a8d3fefc64840ff663c2ac46bd66398c779c6db
TARBALL=papi_$PAPI_VERSION.orig.tar.gz

fetch() {
	local dir=$CACHE/papi tree=$CACHE/papi/pristine-$PAPI_VERSION
	debsrc_tarball sid "papi=$PAPI_DEBIAN" "$TARBALL" "$dir/src" "$dir/apt" "$PAPI_SHA256"
	if [[ ! -f $tree/.done-$PAPI_VERSION ]]; then
		log "unpacking $TARBALL"
		rm -rf "$tree" "$tree.tmp"
		mkdir -p "$tree.tmp"
		tar -xzf "$dir/src/$TARBALL" -C "$tree.tmp" --strip-components=1
		mv "$tree.tmp" "$tree"
		touch "$tree/.done-$PAPI_VERSION"
	fi
	log "papi $PAPI_VERSION in $tree"
	echo "$tree"
}

fetch
