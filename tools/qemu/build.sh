#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build QEMU 10.0.2's qemu-system-x86_64 with tools/qemu/patches (an x86
# PMU for TCG) into $PERFCTR_CACHE/qemu/bin, from Debian's orig tarball
# (qemu_10.0.2+ds.orig.tar.xz, bookworm-backports, its sha256 checked).
# Only what the patches change is rebuilt (ninja and ccache).  Safe to run
# again: it does nothing when the binary matches the patches.
#
# apt-get source runs in an apt state of its own ($PERFCTR_CACHE/qemu/apt)
# with one deb-src entry derived from the machine's own Debian archive
# entry; the .dsc and Debian tarball may be refused, only the orig
# tarball is needed.  The build needs meson >= 1.5 and pycotap from
# bookworm-backports (scripts/setup.sh installs them).
#
# Prints the binary's path on standard output.
set -euo pipefail

. "$(dirname "$0")/../../scripts/lib.sh"	# CACHE, log, die, debsrc_tarball
QEMU_VERSION=10.0.2
QEMU_DEBIAN=1:10.0.2+ds-2+deb13u1~bpo12+1
QEMU_SHA256=0901da33844a331bf8b3602b9c1fbd178e60b737c8e3ade678255bd090c9b9f1
TARBALL=qemu_$QEMU_VERSION+ds.orig.tar.xz

dir=$CACHE/qemu apt=$CACHE/qemu/apt tree=$CACHE/qemu/tree build=$CACHE/qemu/build
patches=$TOP/tools/qemu/patches
mkdir -p "$dir/src" "$dir/bin"

stamp=$( (echo "$QEMU_SHA256"; cat "$patches"/*.patch "$0") | sha256sum | cut -c1-16)
if [[ -x $dir/bin/qemu-system-x86_64 && -f $dir/bin/.stamp-$stamp ]]; then
	echo "$dir/bin/qemu-system-x86_64"
	exit 0
fi

debsrc_tarball bookworm-backports "qemu=$QEMU_DEBIAN" "$TARBALL" "$dir/src" "$apt" "$QEMU_SHA256"

# Unpacked and patched aside, then copied over the tree by content: the
# files the patches do not change keep their times, and ninja rebuilds
# only the others.
log "QEMU: unpacking $TARBALL and applying tools/qemu/patches"
rm -rf "$tree.new"
mkdir -p "$tree.new"
tar -xJf "$dir/src/$TARBALL" -C "$tree.new" --strip-components=1
for p in "$patches"/*.patch; do
	patch -s -p1 -d "$tree.new" < "$p" || die "QEMU: $(basename "$p") does not apply"
done
# The +ds tarball has no firmware blobs; the build unpacks EDK2's for the
# x86 targets.  Empty ones: the guests boot with SeaBIOS (-L, Debian's).
for f in aarch64-code arm-code arm-vars riscv-code riscv-vars i386-code i386-secure-code \
	 i386-vars x86_64-code x86_64-secure-code loongarch64-code loongarch64-vars; do
	bzip2 -c < /dev/null > "$tree.new/pc-bios/edk2-$f.fd.bz2"
done
mkdir -p "$tree"
rsync -rlc --delete "$tree.new/" "$tree/"
rm -rf "$tree.new"

if [[ ! -f $build/build.ninja ]]; then
	rm -rf "$build"
	mkdir -p "$build"
	log "QEMU: configuring x86_64-softmmu (TCG only)"
	# Debian's python3, whose meson module is the backports' meson.
	(cd "$build" && "$tree/configure" --python=/usr/bin/python3 --target-list=x86_64-softmmu \
		--without-default-features --enable-tcg --enable-fdt=system --disable-docs \
		--disable-install-blobs) > "$dir/configure.log" 2>&1 ||
		{ tail -30 "$dir/configure.log" >&2; die "QEMU: configure failed ($dir/configure.log)"; }
fi
log "QEMU: building qemu-system-x86_64 (ccache)"
ninja -C "$build" qemu-system-x86_64 > "$dir/build.log" 2>&1 ||
	{ grep -B2 -A10 'error' "$dir/build.log" | head -60 >&2; die "QEMU: build failed ($dir/build.log)"; }
rm -f "$dir/bin/.stamp-"*
cp "$build/qemu-system-x86_64" "$dir/bin/qemu-system-x86_64.tmp"
mv "$dir/bin/qemu-system-x86_64.tmp" "$dir/bin/qemu-system-x86_64"
touch "$dir/bin/.stamp-$stamp"
log "QEMU: $dir/bin/qemu-system-x86_64 ($stamp)"
echo "$dir/bin/qemu-system-x86_64"
