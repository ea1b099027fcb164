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
	local dir=$CACHE/papi apt=$CACHE/papi/apt tree=$CACHE/papi/pristine-$PAPI_VERSION entry sum
	local -a opts
	mkdir -p "$dir/src"
	if [[ ! -f $dir/src/$TARBALL ]]; then
		entry=$(debsrc_entry sid) || die "cannot find this machine's Debian apt sources"
		[[ -n $entry ]] || die "no Debian archive entry in this machine's apt sources"
		mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/sources"
		rm -f "$apt/sources/"*
		if [[ $entry == Types:* ]]; then
			printf '%s\n' "$entry" > "$apt/sources/sid-src.sources"
		else
			printf '%s\n' "$entry" > "$apt/sources/sid-src.list"
		fi
		opts=(-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
		      -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/sources"
		      -o APT::Sandbox::User="$(id -un)")
		log "apt-get update (sid's deb-src only, in $apt)"
		apt-get "${opts[@]}" update -qq >"$apt/update.log" 2>&1 ||
			{ cat "$apt/update.log" >&2; die "apt-get update of sid's sources failed"; }
		log "downloading papi $PAPI_DEBIAN's orig tarball"
		# The .dsc and .debian.tar.xz may answer 404: not needed.
		(cd "$dir/src" && apt-get "${opts[@]}" source --download-only -qq "papi=$PAPI_DEBIAN") \
			>"$apt/source.log" 2>&1 || true
		[[ -f $dir/src/$TARBALL ]] ||
			{ cat "$apt/source.log" >&2; die "apt-get source papi=$PAPI_DEBIAN did not bring $TARBALL"; }
	fi
	sum=$(sha256sum "$dir/src/$TARBALL" | cut -d' ' -f1)
	if [[ $sum != "$PAPI_SHA256" ]]; then
		mv "$dir/src/$TARBALL" "$dir/src/$TARBALL.bad"
		die "$TARBALL: sha256 $sum, not $PAPI_SHA256 (moved to $TARBALL.bad)"
	fi
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
