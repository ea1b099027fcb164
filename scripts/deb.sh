#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Debian packages of a perfctr kernel, and of libperfctr with perfex, for
# a Debian 13 (trixie) machine with trixie-backports (make deb).  The
# kernel is Debian's linux-source-7.3 with the series applied, configured
# from the running kernel's configuration plus perfctr.
#
#   scripts/deb.sh [all]            source, config and build (make deb)
#   scripts/deb.sh deps             (root) trixie-backports if apt lacks it,
#                                   and the build's packages; then build as
#                                   a user
#   scripts/deb.sh source           fetch linux-source-7.3, unpack it into
#                                   DIR and apply the series (patch --fuzz=0)
#   scripts/deb.sh config [BASE]    configure the tree: BASE (default
#                                   /boot/config-$(uname -r); .xz/.gz too)
#                                   + scripts/config/perfctr-distro.config,
#                                   merge_config.sh -m, make olddefconfig,
#                                   then check that perfctr survived
#   scripts/deb.sh build            make bindeb-pkg (linux-image,
#                                   linux-headers, linux-libc-dev) and the
#                                   libperfctr .deb, into DIR
#   scripts/deb.sh libdeb [OUTDIR]  the libperfctr .deb alone (from SRC)
#
# Settings, as VAR=value arguments or in the environment:
#   DIR           build directory (default $PERFCTR_CACHE/deb-build)
#   SRC           kernel tree (default DIR/linux-source-7.3)
#   O             configure into this output directory (default: in SRC)
#   LOCALVERSION  appended to the release (7.3.4-perfctr by default)
#   JOBS          parallel jobs (default nproc)
#   DBG=1         also build the big linux-image-*-dbg package
#   LOCALMODCONFIG=1  config: only the modules loaded now (make
#                 localmodconfig): a much shorter build, for this machine
#   FRESH=1       source: unpack again even if the tree is up to date
#   PERFCTR_NO_INSTALL=1  never call apt-get (fail if something is missing)
#   PERFCTR_DEB_FRAGMENT  the perfctr fragment (the checks use it)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BASE_PKG=linux-source-7.3
BASE_PIN=7.3.4-1~bpo13+1
# What the kernel's bindeb-pkg (scripts/package/mkdebian's Build-Depends),
# Debian's configuration (zstd, BTF through pahole) and libperfctr need.
# Debian 13's libpfm4-dev is 4.13.0+git99: perfex's event names for
# Alder Lake (adl_glc, adl_grt) and Zen 5 (amd64_fam1ah_zen5) too.
deb_pkgs=(build-essential bc bison flex cpio kmod rsync patch xz-utils zstd
	  libelf-dev libdw-dev libssl-dev python3 dwarves debhelper dpkg-dev
	  libpfm4-dev)

while (($#)) && [[ $1 =~ ^(DIR|SRC|O|LOCALVERSION|JOBS|DBG|LOCALMODCONFIG|FRESH|PERFCTR_NO_INSTALL|PERFCTR_DEB_FRAGMENT)=(.*)$ ]]; do
	export "${BASH_REMATCH[1]}=${BASH_REMATCH[2]}"
	shift
done
cmd=${1:-all}
(($#)) && shift
while (($#)) && [[ $1 =~ ^(DIR|SRC|O|LOCALVERSION|JOBS|DBG|LOCALMODCONFIG|FRESH|PERFCTR_NO_INSTALL|PERFCTR_DEB_FRAGMENT)=(.*)$ ]]; do
	export "${BASH_REMATCH[1]}=${BASH_REMATCH[2]}"
	shift
done

DIR=${DIR:-$CACHE/deb-build}
SRC=${SRC:-$DIR/$BASE_PKG}
JOBS=${JOBS:-$(nproc)}
LOCALVERSION=${LOCALVERSION:-}
FRAG=${PERFCTR_DEB_FRAGMENT:-$TOP/scripts/config/perfctr-distro.config}

can_install() { [[ -z ${PERFCTR_NO_INSTALL:-} && $(id -u) == 0 ]]; }

APT_UPDATED=
apt_update() {
	[[ -n $APT_UPDATED ]] && return 0
	log "apt-get update"
	apt-get update -qq >/dev/null || die "apt-get update failed"
	APT_UPDATED=1
}

# trixie-backports from the archive the machine's own apt sources name (as
# setup.sh does, in the same file), unless apt already knows the package.
apt_sources() {
	local uri list=/etc/apt/sources.list.d/perfctr-backports.sources suites=trixie-backports
	apt-cache policy "$BASE_PKG" 2>/dev/null | grep -q 'Candidate: [0-9]' && return 0
	[[ -f $list ]] && return 0
	can_install || die "apt knows no $BASE_PKG: enable trixie-backports (notes/INSTALL-debian.md)"
	uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
	if [[ -z $uri ]]; then
		uri=$(awk '$1 == "deb" && $0 !~ /security/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
	fi
	[[ -n $uri ]] || die "cannot find the Debian archive URI in this machine's apt sources"
	# setup.sh's QEMU comes from bookworm-backports on a Debian 12 machine.
	grep -q '^VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null &&
		suites="$suites bookworm-backports"
	log "adding $suites from the machine's archive"
	cat > "$list" <<EOT
Types: deb
URIs: $uri
Suites: $suites
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
	# Only what is asked for comes from the backports suites.
	: > /etc/apt/preferences.d/perfctr-backports
	for s in $suites; do
		printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n\n' "$s" \
			>> /etc/apt/preferences.d/perfctr-backports
	done
	APT_UPDATED=
}

install_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	((${#missing[@]})) || return 0
	can_install || die "missing packages (apt-get install them as root): ${missing[*]}"
	apt_update
	log "installing: ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null || die "cannot install: ${missing[*]}"
}

# The linux-source-7.3 package, in the cache setup.sh uses.
fetch_source() {
	local deb
	mkdir -p "$CACHE/deb"
	deb=$(ls "$CACHE"/deb/${BASE_PKG}_*.deb 2>/dev/null | head -n1 || true)
	if [[ -z $deb ]]; then
		if can_install; then apt_update; apt_sources; apt_update; fi
		(cd "$CACHE/deb" && apt-get download -qq "$BASE_PKG=$BASE_PIN" >/dev/null 2>&1) || {
			log "pinned $BASE_PKG $BASE_PIN is gone; taking the newest $BASE_PKG"
			(cd "$CACHE/deb" && apt-get download -qq "$BASE_PKG" >/dev/null 2>&1) ||
				die "cannot download $BASE_PKG (is trixie-backports enabled?)"
		}
		deb=$(ls "$CACHE"/deb/${BASE_PKG}_*.deb | head -n1)
	fi
	echo "$deb"
}

series_patches() { grep -v '^#\|^[[:space:]]*$' "$TOP/series"; }

# Unpack linux-source-7.3 into DIR and apply the series in series order,
# refusing any fuzz or offset; skipped when the tree already has this
# series on this base (FRESH=1 forces it).
deb_source() {
	local deb ver sum p out
	install_pkgs patch xz-utils
	deb=$(fetch_source)
	ver=$(dpkg-deb -f "$deb" Version)
	sum=$( { echo "$ver"; cat "$TOP/series" "$TOP/localversion-perfctr";
		 for p in $(series_patches); do cat "$TOP/patches/$p"; done; } | sha1sum | cut -c1-40)
	if [[ -z ${FRESH:-} && -f $SRC/.perfctr-series && $(cat "$SRC/.perfctr-series") == "$sum" ]]; then
		log "source: $SRC is $BASE_PKG $ver with this series already"
		return 0
	fi
	log "source: unpacking $BASE_PKG $ver into $SRC"
	mkdir -p "$DIR"
	rm -rf "$SRC" "$DIR/unpack.tmp"
	mkdir -p "$DIR/unpack.tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$DIR/unpack.tmp" ./usr/src/$BASE_PKG.tar.xz
	tar -xJf "$DIR/unpack.tmp/usr/src/$BASE_PKG.tar.xz" -C "$DIR/unpack.tmp"
	mv "$DIR/unpack.tmp/$BASE_PKG" "$SRC"
	rm -rf "$DIR/unpack.tmp"
	log "source: applying $(series_patches | wc -l) patches (patch -p1 --fuzz=0)"
	for p in $(series_patches); do
		out=$(patch -p1 --fuzz=0 --forward --no-backup-if-mismatch -d "$SRC" \
			-i "$TOP/patches/$p" 2>&1) || { echo "$out" >&2; die "$p does not apply"; }
		if grep -Ei 'fuzz|offset|hunk.*(fail|ignored)' <<<"$out" >&2; then
			die "$p does not apply cleanly (fuzz or offset)"
		fi
	done
	# The release marker: uname -r ends in -perfctr.
	cp "$TOP/localversion-perfctr" "$SRC/localversion-perfctr"
	echo "$sum" > "$SRC/.perfctr-series"
	log "source: $SRC ready ($(make -s -C "$SRC" kernelversion)$(cat "$SRC/localversion-perfctr"))"
}

# Read a configuration value: the right-hand side, "n" when not set.
cfg_val() {
	local v
	v=$(grep -m1 "^$2=" "$1" | cut -d= -f2-) || true
	echo "${v:-n}"
}

# Check a configured .config (1) against the fragment (2) and the base
# configuration it came from (3); print what is wrong, return 1 if so.
deb_verify() {
	local cfg=$1 frag=$2 base=$3 bad=0 line o v
	# perfctr itself, whatever the fragment says.
	for line in CONFIG_PERFCTR=y CONFIG_PERFCTR_VIRTUAL=y; do
		grep -qx "$line" "$cfg" || {
			log "config: $line is missing from $cfg (now: ${line%%=*}=$(cfg_val "$cfg" "${line%%=*}"))"
			bad=1
		}
	done
	if ! grep -q '^CONFIG_HAVE_PERFCTR=y' "$cfg"; then
		log "config: this architecture has no perfctr driver (HAVE_PERFCTR): x86 and powerpc only"
		bad=1
	fi
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=([ym])$ ]]; then
			grep -qx "$line" "$cfg" || { log "config: $line did not survive olddefconfig"; bad=1; }
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			! grep -q "^${BASH_REMATCH[1]}=" "$cfg" || { log "config: ${BASH_REMATCH[1]} should be off"; bad=1; }
		fi
	done < "$frag"
	# Certificates and keys: empty, the key the build generates, or a file
	# that exists; never Debian's debian/certs/..., which this tree lacks.
	for o in CONFIG_SYSTEM_TRUSTED_KEYS CONFIG_SYSTEM_REVOCATION_KEYS CONFIG_MODULE_SIG_KEY; do
		v=$(cfg_val "$cfg" "$o"); v=${v#\"}; v=${v%\"}
		[[ $v == n || -z $v || $v == certs/signing_key.pem || -f $v || -f $SRC/$v ]] && continue
		log "config: $o=\"$v\" names a certificate this tree lacks (Debian's own): blank it"
		bad=1
	done
	if grep -n '="debian/' "$cfg" >&2; then
		log "config: the options above still name Debian's files"
		bad=1
	fi
	# What olddefconfig had to drop for want of a tool.
	if [[ $(cfg_val "$base" CONFIG_DEBUG_INFO_BTF) == y && $(cfg_val "$cfg" CONFIG_DEBUG_INFO_BTF) != y ]]; then
		log "config: note: DEBUG_INFO_BTF is off (no pahole >= 1.22: apt-get install dwarves, and configure again)"
	fi
	if [[ $(cfg_val "$base" CONFIG_RUST) == y && $(cfg_val "$cfg" CONFIG_RUST) != y ]]; then
		log "config: note: RUST is off (no usable rustc/bindgen): its few Rust drivers are left out"
	fi
	return $bad
}

# Configure SRC (or O) from BASE + the perfctr fragment.
deb_config() {
	local base=${1:-/boot/config-$(uname -r)} out=${O:-$SRC} mk=(make -s -C "$SRC") t
	[[ -f $SRC/Makefile && -f $SRC/kernel/perfctr/Kconfig ]] ||
		die "no perfctr kernel tree at $SRC: run scripts/deb.sh source"
	[[ -r $base ]] || die "no base configuration $base: give one (scripts/deb.sh config FILE)"
	[[ -r $FRAG ]] || die "no fragment $FRAG"
	for t in gcc make flex bison bc; do
		command -v $t >/dev/null || { install_pkgs build-essential flex bison bc; break; }
	done
	if ! command -v pahole >/dev/null && zgrep -q '^CONFIG_DEBUG_INFO_BTF=y' "$base" 2>/dev/null; then
		# BTF (needed by BPF tools) needs pahole: install it, or lose BTF.
		if can_install; then install_pkgs dwarves; fi
	fi
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	[[ $out != "$(cd "$SRC" && pwd)" ]] && mk+=(O="$out")
	case $base in
	*.xz) xz -dc "$base" ;;
	*.gz) gzip -dc "$base" ;;
	*) cat "$base" ;;
	esac > "$out/.config.perfctr-base"
	grep -q '^CONFIG_' "$out/.config.perfctr-base" || die "$base is not a kernel configuration"
	cp "$out/.config.perfctr-base" "$out/.config"
	log "config: $base + $(basename "$FRAG") -> $out/.config"
	KCONFIG_CONFIG=$out/.config "$SRC/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" "$FRAG" > "$out/.config.perfctr-merge.log" 2>&1 ||
		{ cat "$out/.config.perfctr-merge.log" >&2; die "merge_config.sh failed"; }
	"${mk[@]}" olddefconfig > "$out/.config.perfctr-olddefconfig.log" 2>&1 ||
		{ cat "$out/.config.perfctr-olddefconfig.log" >&2; die "make olddefconfig failed"; }
	if [[ -n ${LOCALMODCONFIG:-} ]]; then
		[[ -r /proc/modules ]] || die "LOCALMODCONFIG=1 needs the loaded modules (/proc/modules)"
		log "config: keeping only the modules loaded now (localmodconfig)"
		{ yes '' || true; } | "${mk[@]}" localmodconfig > "$out/.config.perfctr-localmod.log" 2>&1 ||
			{ cat "$out/.config.perfctr-localmod.log" >&2; die "make localmodconfig failed"; }
	fi
	deb_verify "$out/.config" "$FRAG" "$out/.config.perfctr-base" ||
		die "the configuration lacks what perfctr needs (see above): $out/.config"
	log "config: ok: $(grep -E '^CONFIG_PERFCTR(_VIRTUAL)?=' "$out/.config" | tr '\n' ' ')the rest as $base ($(diff <(grep '^CONFIG_' "$out/.config.perfctr-base" | sort) <(grep '^CONFIG_' "$out/.config" | sort) | grep -c '^>' || true) lines changed)"
}

# The libperfctr .deb: make install into a staging root, then dpkg-deb.
deb_libdeb() {
	local tree=$1 outdir=$2 work arch ma root ver pkgver deps maint size f
	[[ -f $tree/tools/lib/perfctr/Makefile ]] || die "no tools/lib/perfctr in $tree"
	install_pkgs build-essential dpkg-dev
	mkdir -p "$outdir"
	outdir=$(cd "$outdir" && pwd)
	work=$(mktemp -d "${TMPDIR:-/tmp}/perfctr-libdeb.XXXXXX")
	LIBDEB_WORK=$work
	trap 'rm -rf "${LIBDEB_WORK:-}"' EXIT
	arch=$(dpkg --print-architecture)
	ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
	root=$work/root
	mkdir -p "$work/build" "$root"
	make -C "$tree/tools/lib/perfctr" OUTPUT="$work/build/" PREFIX=/usr \
		LIBDIR="/usr/lib/$ma" DESTDIR="$root" install > "$work/make.log" 2>&1 ||
		{ cat "$work/make.log" >&2; die "make -C tools/lib/perfctr install failed"; }
	ver=$(sed -n 's/^Version: *//p' "$root/usr/lib/$ma/pkgconfig/libperfctr.pc")
	[[ -n $ver ]] || die "no version in libperfctr.pc"
	pkgver=$ver-1
	# Debian's layout: compressed man pages, a copyright file.
	find "$root/usr/share/man" -type f -name '*.[0-9]' -exec gzip -9n {} +
	mkdir -p "$root/usr/share/doc/libperfctr"
	cat > "$root/usr/share/doc/libperfctr/copyright" <<EOT
libperfctr and perfex, from the perfctr patch series for Linux 7.3
(tools/lib/perfctr).

libperfctr: LGPL-2.1 OR BSD-2-Clause (the library, libperfctr.so and
libperfctr.a, every file compiled into it; the headers libperfctr.h,
perfctr_read.h, perfctr_marker.h, perfctr/likwid-marker.h; the man pages
of section 3).  LGPL-2.1: /usr/share/common-licenses/LGPL-2.1;
BSD-2-Clause: below.

The kernel's user ABI headers, perfctr/linux/perfctr.h and
perfctr/asm/perfctr.h: GPL-2.0 WITH Linux-syscall-note (the GPL does not
extend to programs that use the kernel's services through them).

perfex and perfctr-selftest (programs that link the library), their man
pages (section 1) and those of the system calls (section 2): GPL-2.0,
/usr/share/common-licenses/GPL-2.

Each source file's SPDX-License-Identifier line says which applies.

BSD-2-Clause:

Copyright (c) 2026 The perfctr series' authors

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are
met:

1. Redistributions of source code must retain the above copyright
   notice, this list of conditions and the following disclaimer.

2. Redistributions in binary form must reproduce the above copyright
   notice, this list of conditions and the following disclaimer in the
   documentation and/or other materials provided with the distribution.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS
IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO,
THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR
PURPOSE ARE DISCLAIMED.  IN NO EVENT SHALL THE COPYRIGHT HOLDER OR
CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL,
EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO,
PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR
PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF
LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING
NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS
SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
EOT
	chmod -R u+rwX,go=rX "$root"
	# Dependencies from the binaries (libc6; libpfm4 when perfex has event
	# names); dpkg-shlibdeps wants a debian/control.
	mkdir -p "$work/pkg/debian"
	printf 'Source: libperfctr\n\nPackage: libperfctr\nArchitecture: any\n' > "$work/pkg/debian/control"
	deps=$(cd "$work/pkg" && dpkg-shlibdeps -O -xlibperfctr \
		"$root/usr/bin/perfex" "$root/usr/bin/perfctr-selftest" \
		"$root/usr/lib/$ma"/libperfctr.so.*.* 2>/dev/null |
		sed -n 's/^shlibs:Depends=//p') || true
	[[ -n $deps ]] || { log "libdeb: dpkg-shlibdeps failed: Depends: libc6"; deps=libc6; }
	maint="${DEBFULLNAME:-$(id -un)} <${DEBEMAIL:-$(id -un)@$(hostname -f 2>/dev/null || hostname)}>"
	size=$(du -sk "$root" | cut -f1)
	mkdir -p "$root/DEBIAN"
	cat > "$root/DEBIAN/control" <<EOT
Package: libperfctr
Version: $pkgver
Architecture: $arch
Maintainer: $maint
Installed-Size: $size
Depends: $deps
Section: libs
Priority: optional
Description: perfctr per-thread virtual performance counters: library and perfex
 libperfctr is the user-space library of perfctr, a Linux kernel patch
 series giving each thread its own virtualised time-stamp and performance
 counters, read without a system call (the perfctr 2.7 API).  perfex runs
 a command with counters and prints their totals; perfctr-selftest checks
 the counts on this CPU.  The headers include the kernel's perfctr user
 ABI (under /usr/include/perfctr), and the man pages perfex(1),
 perfctr-selftest(1), perfctr_info(2), vperfctr_open(2) and libperfctr(3).
 .
 Needs a kernel with perfctr (CONFIG_PERFCTR).
EOT
	echo "libperfctr ${ver%%.*} libperfctr (>= $ver)" > "$root/DEBIAN/shlibs"
	echo "activate-noawait ldconfig" > "$root/DEBIAN/triggers"
	chmod 644 "$root"/DEBIAN/*
	f=$outdir/libperfctr_${pkgver}_${arch}.deb
	dpkg-deb --root-owner-group -Zxz --build "$root" "$f" >/dev/null ||
		die "dpkg-deb --build failed"
	log "libdeb: $f"
	LIBDEB=$f
	rm -rf "$work"
}

deb_build() {
	local release pkgver arch image headers libc dbg="" f
	[[ -f $SRC/.config ]] || die "$SRC is not configured: scripts/deb.sh config"
	deb_verify "$SRC/.config" "$FRAG" "${SRC}/.config.perfctr-base" ||
		die "the configuration lacks what perfctr needs: scripts/deb.sh config"
	install_pkgs "${deb_pkgs[@]}"
	[[ ${DBG:-} == 1 ]] || export DEB_BUILD_PROFILES="pkg.linux-upstream.nokerneldbg"
	log "build: make bindeb-pkg -j$JOBS in $SRC (a distribution configuration:"
	log "build: hours on a few cores; log: $DIR/bindeb-pkg.log)"
	if ! (cd "$SRC" && make -j"$JOBS" bindeb-pkg LOCALVERSION="$LOCALVERSION") \
			> "$DIR/bindeb-pkg.log" 2>&1; then
		grep -E 'error|Error' "$DIR/bindeb-pkg.log" | tail -30 >&2
		die "make bindeb-pkg failed: $DIR/bindeb-pkg.log"
	fi
	release=$(cat "$SRC/include/config/kernel.release")
	pkgver=$(dpkg-parsechangelog -l "$SRC/debian/changelog" -S Version)
	arch=$(dpkg --print-architecture)
	image=$DIR/linux-image-${release}_${pkgver}_$arch.deb
	headers=$DIR/linux-headers-${release}_${pkgver}_$arch.deb
	libc=$DIR/linux-libc-dev_${pkgver}_$arch.deb
	[[ ${DBG:-} == 1 ]] && dbg=$DIR/linux-image-${release}-dbg_${pkgver}_$arch.deb
	for f in "$image" "$headers" "$libc" $dbg; do
		[[ -f $f ]] || die "bindeb-pkg made no $f"
	done
	dpkg-deb -c "$libc" | grep -q '/usr/include/linux/perfctr\.h$' ||
		die "$libc lacks linux/perfctr.h"
	deb_libdeb "$SRC" "$DIR"
	cat <<EOT

perfctr kernel $release, packages in $DIR:
  $(basename "$image")
  $(basename "$headers")
  $(basename "$libc")   (optional: replaces Debian's; <linux/perfctr.h>)
  $(basename "$LIBDEB")${dbg:+
  $(basename "$dbg")}
Install (then reboot into $release; notes/INSTALL-debian.md):
  sudo dpkg -i $image \\
      $headers \\
      $LIBDEB
EOT
}

case $cmd in
deps)	if can_install; then apt_update; apt_sources; fi; install_pkgs "${deb_pkgs[@]}"
	log "deps: all there" ;;
all)	deb_source; deb_config "${1:-}"; deb_build ;;
source)	deb_source ;;
config)	deb_config "${1:-}" ;;
build)	deb_build ;;
libdeb)	deb_libdeb "$SRC" "${1:-$DIR}" ;;
*)	die "usage: scripts/deb.sh [VAR=value...] [all|deps|source|config [BASE]|build|libdeb [OUTDIR]]" ;;
esac
