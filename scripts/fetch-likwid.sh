#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch likwid's own marker examples, C-markerAPI.c and F-markerAPI.F90,
# from Debian 12's likwid 5.2.2 binary package (apt-get download: the
# package is not installed, its likwid.h must not shadow libperfctr's),
# into $PERFCTR_CACHE/likwid/examples, checked against their SHA-256.
# tools/lib/perfctr/run-tests.sh builds them unchanged against
# libperfctr's installation (LIKWID_EXAMPLES, set by check-lib.sh).
# Safe to run again: it only does what is missing.
#
# Prints the examples' directory on standard output.
set -euo pipefail

. "$(dirname "$0")/lib.sh"	# CACHE, log, die, apt_update

VERSION=5.2.2+dfsg1-1
DIR=$CACHE/likwid
EX=$DIR/examples
declare -A SHA256=(
	[C-markerAPI.c]=c8106b57a5c2bd770cbc38a62e9e1edc2d88e31621700f4191ad38daf5eebcec
	[F-markerAPI.F90]=a329de434fbbf72fe800fa6f002d4f2118b96bf7059a3c3fecb1fdc5e7f83218
)

checked() {	# the examples in $EX, as Debian ships them
	local f
	for f in "${!SHA256[@]}"; do
		[[ -f $EX/$f ]] && echo "${SHA256[$f]}  $EX/$f" | sha256sum -c --quiet - >/dev/null 2>&1 ||
			return 1
	done
}

if [[ -f $EX/.done ]] && checked; then
	echo "$EX"
	exit 0
fi
mkdir -p "$DIR"
rm -rf "$EX" "$DIR/root"
deb=$(ls "$DIR"/likwid_*.deb 2>/dev/null | head -1 || true)
if [[ -z $deb ]]; then
	log "likwid: apt-get download likwid=$VERSION"
	# The pinned version, else the newest one apt has: the SHA-256 decides.
	(cd "$DIR" && { apt-get download -qq "likwid=$VERSION" >/dev/null 2>&1 ||
		{ apt_update; apt-get download -qq "likwid=$VERSION" >/dev/null 2>&1; } ||
		apt-get download -qq likwid >/dev/null 2>&1; }) ||
		die "apt-get download likwid failed (Debian 12's likwid $VERSION)"
	deb=$(ls "$DIR"/likwid_*.deb | head -1)
fi
dpkg-deb -x "$deb" "$DIR/root" || die "dpkg-deb -x $deb failed"
mkdir -p "$EX"
for f in "${!SHA256[@]}"; do
	cp "$DIR/root/usr/share/likwid/examples/$f" "$EX/" || die "$deb has no examples/$f"
done
rm -rf "$DIR/root"
if ! checked; then
	rm -f "$deb"
	die "likwid's examples in $deb differ from Debian 12's (SHA-256); the .deb is removed"
fi
touch "$EX/.done"
echo "$EX"
