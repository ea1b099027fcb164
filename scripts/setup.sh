#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what the perfctr series needs on a Debian 12 machine, and fetch and
# unpack the base kernel into the cache.  Safe to run again: it only does what
# is missing.
#
#
#   setup.sh          make check's set-up: every architecture's toolchain,
#                     QEMU and meson from bookworm-backports, libpfm4 of
#                     three architectures, the trixie-backports suite
#   setup.sh --try    make try's: the host architecture's build tools,
#                     QEMU and busybox only, from the suites this machine
#                     already has (no foreign architecture, no cross
#                     compiler, no PAPI); the base kernel is downloaded
#                     through an apt configuration of its own in the cache,
#                     so apt's sources and pins stay as they are, and it
#                     all runs as a normal user once the packages are there
#
# Environment:
#   PERFCTR_CACHE  cache directory (default ~/.cache/perfctr)
#   PERFCTR_NO_INSTALL=1  never call apt-get (fail if something is missing)
set -euo pipefail

. "$(dirname "$0")/lib.sh"

BASE_PKG=linux-source-7.3
BASE_PIN=7.3.4-1~bpo13+1

need_pkgs=(build-essential flex bison bc libelf-dev libssl-dev cpio kmod rsync
	   quilt busybox-static gcc-i686-linux-gnu libc6-dev-i386-cross
	   xz-utils python3 sparse git cpio file
	   gcc-powerpc64le-linux-gnu gcc-powerpc-linux-gnu
	   libc6-dev-ppc64el-cross libc6-dev-powerpc-cross
	   gcc-aarch64-linux-gnu gcc-sparc64-linux-gnu gcc-riscv64-linux-gnu
	   libpfm4-dev mandoc man-db pkgconf python3-sphinx python3-yaml gfortran
	   dpkg-dev debhelper lintian fakeroot ccache sbsigntool openssl
	   ninja-build libglib2.0-dev libpixman-1-dev libfdt-dev zlib1g-dev python3-venv bzip2)
# QEMU with the x86 PMU (tools/qemu/build.sh) needs meson >= 1.5 and
# pycotap, from bookworm-backports.
bpo_pkgs=(meson python3-pycotap)

# The archive URI is taken from the machine's own sources, never spelled
# out in the project.
archive_uri() {
	local uri
	uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
	if [[ -z $uri ]]; then
		uri=$(awk '$1 == "deb" && $0 !~ /security/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
	fi
	[[ -n $uri ]] || die "cannot find the Debian archive URI in this machine's apt sources"
	echo "$uri"
}

apt_sources() {
	local uri list=/etc/apt/sources.list.d/perfctr-backports.sources
	[[ -f $list ]] && return 0
	uri=$(archive_uri)
	log "adding trixie-backports and bookworm-backports from the machine's archive"
	cat > "$list" <<EOT
Types: deb
URIs: $uri
Suites: trixie-backports bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
	# Only what we ask for comes from the backports suites.
	cat > /etc/apt/preferences.d/perfctr-backports <<EOT
Package: *
Pin: release n=trixie-backports
Pin-Priority: 100

Package: *
Pin: release n=bookworm-backports
Pin-Priority: 100
EOT
	APT_UPDATED=
}

install_pkgs() {
	local missing=() p
	for p in "${need_pkgs[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	local qver
	qver=$(qemu-system-x86_64 --version 2>/dev/null | awk 'NR==1 { print $4 }' || true)
	if [[ ${qver%%.*} != 10 && ${qver%%.*} -lt 10 ]] 2>/dev/null || [[ -z $qver ]] ||
	   ! command -v qemu-system-i386 >/dev/null ||
	   ! command -v qemu-system-ppc64 >/dev/null || ! command -v qemu-system-ppc >/dev/null; then
		QEMU_NEEDED=1
	fi
	local mver
	mver=$(dpkg-query -W -f='${Version}' meson 2>/dev/null || true)
	if [[ -z $mver ]] || dpkg --compare-versions "$mver" lt 1.5 ||
	   ! dpkg-query -W -f='${Status}' python3-pycotap 2>/dev/null | grep -q 'install ok installed'; then
		BPO_NEEDED=1
	fi
	if ((${#missing[@]})) || [[ -n ${QEMU_NEEDED:-} || -n ${BPO_NEEDED:-} ]]; then
		[[ -z ${PERFCTR_NO_INSTALL:-} ]] || die "missing packages: ${missing[*]} ${QEMU_NEEDED:+qemu-system-x86 (>= 10)} ${BPO_NEEDED:+${bpo_pkgs[*]} (bookworm-backports)}"
		apt_sources
		apt_update
		if ((${#missing[@]})); then
			log "installing: ${missing[*]}"
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
				"${missing[@]}" >/dev/null || die "cannot install: ${missing[*]}"
		fi
		if [[ -n ${BPO_NEEDED:-} ]]; then
			log "installing from bookworm-backports: ${bpo_pkgs[*]}"
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
				-t bookworm-backports "${bpo_pkgs[@]}" >/dev/null ||
				die "cannot install ${bpo_pkgs[*]} from bookworm-backports"
		fi
		if [[ -n ${QEMU_NEEDED:-} ]]; then
			log "installing QEMU from bookworm-backports"
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
				-t bookworm-backports qemu-system-x86 qemu-system-ppc >/dev/null ||
				die "cannot install qemu-system-x86 qemu-system-ppc from bookworm-backports"
		fi
	fi
}

fetch_source() {
	mkdir -p "$CACHE/deb"
	local deb
	deb=$(ls "$CACHE"/deb/${BASE_PKG}_*.deb 2>/dev/null | head -n1 || true)
	if [[ -z $deb ]]; then
		apt_sources
		apt_update
		(cd "$CACHE/deb" && apt-get download -qq "$BASE_PKG=$BASE_PIN" >/dev/null 2>&1) ||
		{
			log "pinned $BASE_PKG $BASE_PIN is gone; taking the newest $BASE_PKG"
			(cd "$CACHE/deb" && apt-get download -qq "$BASE_PKG" >/dev/null 2>&1) ||
				die "cannot download $BASE_PKG"
		}
		deb=$(ls "$CACHE"/deb/${BASE_PKG}_*.deb | head -n1)
	fi
	local ver
	ver=$(dpkg-deb -f "$deb" Version)
	if [[ ! -f $CACHE/pristine/.done-$ver ]]; then
		log "unpacking $BASE_PKG $ver"
		rm -rf "$CACHE/pristine" "$CACHE/pristine.tmp"
		mkdir -p "$CACHE/pristine.tmp"
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$CACHE/pristine.tmp" ./usr/src/linux-source-7.3.tar.xz
		tar -xJf "$CACHE/pristine.tmp/usr/src/linux-source-7.3.tar.xz" -C "$CACHE/pristine.tmp"
		mv "$CACHE/pristine.tmp/linux-source-7.3" "$CACHE/pristine"
		rm -rf "$CACHE/pristine.tmp"
		touch "$CACHE/pristine/.done-$ver"
	fi
	echo "$ver" > "$CACHE/base-version"
	log "base: $BASE_PKG $ver ($(make -s -C "$CACHE/pristine" kernelversion 2>/dev/null))"
}

# Debian's libpfm4 of other architectures: ppc64el's for the host check
# of perfex's POWER8-10 event encoding (events_test for ppc64le, run under
# qemu-user: its POWER tables; the amd64 one has x86's only) and for the
# ppc64 guests' PAPI; i386's for the i386 guests' PAPI
# (tools/papi/build.sh --guest).
install_foreign_libpfm() {
	local arch multiarch missing=() pkgs=()
	for arch in ppc64el i386; do
		case $arch in
		ppc64el) multiarch=powerpc64le-linux-gnu ;;
		i386) multiarch=i386-linux-gnu ;;
		esac
		[[ -f /usr/lib/$multiarch/libpfm.a ]] || missing+=("$arch")
	done
	command -v qemu-ppc64le-static >/dev/null || pkgs+=(qemu-user-static)
	((${#missing[@]} + ${#pkgs[@]})) || return 0
	for arch in "${missing[@]}"; do
		pkgs+=("libpfm4-dev:$arch")
	done
	[[ -z ${PERFCTR_NO_INSTALL:-} ]] || die "missing packages: ${pkgs[*]}"
	for arch in "${missing[@]}"; do
		if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
			log "adding the $arch architecture (its libpfm4)"
			dpkg --add-architecture "$arch"
			APT_UPDATED=
		fi
	done
	apt_update
	log "installing: ${pkgs[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${pkgs[@]}" >/dev/null || die "cannot install ${pkgs[*]}"
}

# Debian 13's libpfm4 (4.13.0+git99: Alder Lake's adl_glc and adl_grt,
# Zen 5's amd64_fam1ah_zen5), for perfex's host event tests
# (tools/lib/perfctr/run-tests.sh, LIBPFM13_ROOT): downloaded from the
# trixie suite through an apt configuration of its own in the cache and
# unpacked into $CACHE/libpfm4-trixie/root, not installed.  Its packages
# need only libc6 >= 2.14, but they are Multi-Arch: same, and an amd64
# libpfm4 of trixie's would have to bring the i386 and ppc64el ones
# installed above (the PAPI guests') along to the same version; this
# machine's apt configuration and packages stay Debian 12's.
fetch_libpfm13() {
	local dir=$CACHE/libpfm4-trixie apt d opts
	[[ -f $dir/root/.done ]] && return 0
	[[ -z ${PERFCTR_NO_INSTALL:-} ]] || die "Debian 13's libpfm4 is not in $dir/root"
	apt=$dir/apt
	rm -rf "$dir/root" "$dir/deb"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$dir/deb" "$dir/root"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(archive_uri) trixie main" \
		> "$apt/sources.list"
	opts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts="$apt/none"
	      -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
	      -o Dir::Etc::Preferences="$apt/none" -o Dir::Etc::PreferencesParts="$apt/none"
	      -o APT::Architectures::=amd64 -o APT::Sandbox::User=root -o Acquire::Languages=none)
	log "Debian 13's libpfm4: apt-get update (trixie, amd64, in $apt)"
	apt-get "${opts[@]}" update -qq >/dev/null 2>&1 || die "apt-get update of trixie's lists failed"
	(cd "$dir/deb" && apt-get "${opts[@]}" download -qq libpfm4/trixie libpfm4-dev/trixie \
		>/dev/null 2>&1) || die "cannot download trixie's libpfm4 and libpfm4-dev"
	for d in "$dir"/deb/*.deb; do
		dpkg-deb -x "$d" "$dir/root" || die "cannot unpack $d"
	done
	[[ -f $dir/root/usr/lib/x86_64-linux-gnu/libpfm.a ]] || die "trixie's libpfm4-dev has no libpfm.a"
	log "Debian 13's libpfm4: $(dpkg-deb -f "$dir"/deb/libpfm4_*.deb Version) in $dir/root"
	touch "$dir/root/.done"
}

# make try's packages: the host's own, nothing foreign.
try_pkgs=(build-essential flex bison bc libelf-dev libssl-dev cpio kmod rsync
	  quilt git busybox-static xz-utils python3 file libpfm4-dev)
case $(uname -m) in
x86_64) try_pkgs+=(qemu-system-x86) ;;
ppc64le) try_pkgs+=(qemu-system-ppc) ;;
esac

install_try_pkgs() {
	local missing=() p
	for p in "${try_pkgs[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	((${#missing[@]})) || return 0
	if [[ -n ${PERFCTR_NO_INSTALL:-} || $(id -u) != 0 ]]; then
		die "make try needs these packages of this machine's architecture: ${missing[*]}
    as root: apt-get install --no-install-recommends ${missing[*]}
    then make try again (as any user)"
	fi
	log "make try installs, from this machine's own apt suites (its sources and pins unchanged): ${missing[*]}"
	apt_update
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null || die "cannot install: ${missing[*]}"
}

# The base kernel for make try: downloaded from trixie-backports through
# an apt configuration in the cache (lists, archives), not the machine's.
fetch_source_private() {
	local dir=$CACHE/apt-base opts
	if ! ls "$CACHE"/deb/${BASE_PKG}_*.deb >/dev/null 2>&1; then
		mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$CACHE/deb"
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(archive_uri) trixie-backports main" \
			> "$dir/sources.list"
		opts=(-o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts="$dir/none"
		      -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache"
		      -o Dir::Etc::Preferences="$dir/none" -o Dir::Etc::PreferencesParts="$dir/none"
		      -o APT::Sandbox::User="$(id -un)" -o Acquire::Languages=none)
		log "the base kernel: apt-get update (trixie-backports, in $dir)"
		apt-get "${opts[@]}" update -qq >/dev/null 2>&1 || die "apt-get update of trixie-backports' lists failed"
		(cd "$CACHE/deb" && { apt-get "${opts[@]}" download -qq "$BASE_PKG=$BASE_PIN" >/dev/null 2>&1 ||
			apt-get "${opts[@]}" download -qq "$BASE_PKG" >/dev/null 2>&1; }) ||
			die "cannot download $BASE_PKG from trixie-backports"
	fi
	fetch_source
}

if [[ ${1:-} == --try ]]; then
	install_try_pkgs
	fetch_source_private
	exit 0
fi
[[ $# -eq 0 ]] || die "usage: setup.sh [--try]"
install_pkgs
install_foreign_libpfm
fetch_libpfm13
fetch_source
