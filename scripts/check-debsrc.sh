#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make deb's library packages (scripts/deb.sh libdeb: debian/, libperfctr3,
# libperfctr-dev, perfex): dpkg-buildpackage -us -uc on a copy of the
# repository's tracked files (never the working tree itself), lintian
# (its E: lines fail), the three packages' contents, the symbols file,
# and a program built against libperfctr-dev's files through pkg-config in
# a scratch root.  Half a minute or so.  Records "debsrc <passed> <failed>"
# in $RESULTS when set.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

work=$CACHE/debsrc
rm -rf "$work"
mkdir -p "$work"

n=0 p=0 f=0
ok() { n=$((n + 1)); p=$((p + 1)); echo "debsrc: ok - $1"; }
nok() { n=$((n + 1)); f=$((f + 1)); echo "debsrc: not ok - $1"; shift; local l; for l in "$@"; do echo "# $l"; done; }
finish() {
	echo "debsrc: $p passed, $f failed"
	[[ -n ${RESULTS:-} ]] && echo "debsrc host $p $f" >> "$RESULTS"
	((f == 0))
	exit
}

for t in dpkg-buildpackage dh lintian dpkg-gensymbols pkg-config; do
	command -v $t >/dev/null || { nok "tools: $t" "missing (scripts/setup.sh installs it)"; finish; }
done

arch=$(dpkg --print-architecture)
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
ver=$(cd "$TOP" && dpkg-parsechangelog -S Version)
spkg=$(cd "$TOP" && dpkg-parsechangelog -S Source)

# 1. make deb's library step, scripts/deb.sh libdeb: dpkg-buildpackage
# -us -uc from debian/ on a copy of the repository's files (tracked, and
# new ones git does not ignore), then lintian.
start=$SECONDS
if PERFCTR_NO_INSTALL=1 bash "$TOP/scripts/deb.sh" libdeb "$work" > "$work/build.log" 2>&1; then
	ok "deb.sh libdeb (dpkg-buildpackage -us -uc): $spkg $ver ($((SECONDS - start)) s)"
else
	nok "deb.sh libdeb (dpkg-buildpackage -us -uc)" "$(tail -8 "$work/build.log")"
	finish
fi
for x in "${spkg}_$ver.dsc" "${spkg}_$ver.tar.xz"; do
	[[ -f $work/$x ]] && ok "source package: $x" || nok "source package: $x"
done
declare -A deb
for b in libperfctr3 libperfctr-dev perfex; do
	deb[$b]=$work/${b}_${ver}_$arch.deb
	[[ -f ${deb[$b]} ]] && ok "binary package: ${b}_${ver}_$arch.deb" || nok "binary package $b"
done
[[ -f ${deb[libperfctr3]} && -f ${deb[libperfctr-dev]} && -f ${deb[perfex]} ]] || finish
x=$(ls "$work"/libperfctr_*.deb 2>/dev/null)
[[ -z $x && ! -d $work/perfctr-tools ]] && ok "no hand-made libperfctr package; the build's copy removed" ||
	nok "only debian/'s packages" "also: $x $(ls -d "$work/perfctr-tools" 2>/dev/null)"

# 2. lintian (run by deb.sh libdeb): errors fail; the warnings are shown.
if [[ -f $work/lintian.log ]] && errs=$(grep -c '^E:' "$work/lintian.log"); (( errs == 0 )); then
	ok "lintian: no errors ($(grep -c '^W:' "$work/lintian.log") warnings)"
else
	nok "lintian: ${errs:-no log}" "$(grep '^E:' "$work/lintian.log" 2>/dev/null)"
fi
grep '^W:' "$work/lintian.log" 2>/dev/null | sed 's/^/# /'

# 3. Contents.
has() {	# package description path...
	local b=$1 what=$2 miss= x
	shift 2
	for x in "$@"; do
		grep -qx "$x" "$work/$b.contents" || miss+=" $x"
	done
	[[ -z $miss ]] && ok "$b: $what" || nok "$b: $what" "missing:$miss"
}
for b in libperfctr3 libperfctr-dev perfex; do
	dpkg-deb -c "${deb[$b]}" | awk '{ print $6 }' | sed 's|^\./||; s|/$||' > "$work/$b.contents"
	dpkg-deb -x "${deb[$b]}" "$work/root"
done
has libperfctr3 "the shared library" "usr/lib/$ma/libperfctr.so.3" "usr/lib/$ma/libperfctr.so.3.0.0"
readelf -d "$work/root/usr/lib/$ma/libperfctr.so.3.0.0" 2>/dev/null | grep -q 'SONAME.*\[libperfctr\.so\.3\]' &&
	ok "libperfctr3: soname libperfctr.so.3" || nok "libperfctr3: soname libperfctr.so.3"
if dpkg-deb --ctrl-tarfile "${deb[libperfctr3]}" | tar -xO ./symbols > "$work/symbols" 2>/dev/null &&
   grep -q '^libperfctr.so.3 libperfctr3 ' "$work/symbols" &&
   grep -q '^ vperfctr_open@Base ' "$work/symbols" &&
   grep -q '^ perfctr_strerror@Base ' "$work/symbols" &&
   ! grep -q 'dpkg-gensymbols: warning' "$work/libdeb-build.log"; then
	ok "libperfctr3: symbols file ($(grep -c '@Base' "$work/symbols") symbols), dpkg-gensymbols without a warning"
else
	nok "libperfctr3: symbols file" "$(grep -A5 'dpkg-gensymbols' "$work/libdeb-build.log" | head -12)"
fi
has libperfctr-dev "headers, uapi headers, .so link, static library, pkg-config" \
	usr/include/libperfctr.h usr/include/perfctr_read.h \
	usr/include/perfctr/linux/perfctr.h usr/include/perfctr/asm/perfctr.h \
	"usr/lib/$ma/libperfctr.so" "usr/lib/$ma/libperfctr.a" "usr/lib/$ma/pkgconfig/libperfctr.pc"
has libperfctr-dev "man pages (2) and (3)" usr/share/man/man3/libperfctr.3.gz \
	usr/share/man/man3/perfctr_state_read.3.gz usr/share/man/man3/vperfctr_read_ctrs.3.gz \
	usr/share/man/man2/vperfctr_open.2.gz usr/share/man/man2/perfctr_info.2.gz
has libperfctr-dev "README and examples" usr/share/doc/libperfctr-dev/README.gz \
	usr/share/doc/libperfctr-dev/examples/self.c usr/share/doc/libperfctr-dev/examples/signal.c
has perfex "perfex, perfctr-selftest, man pages, sysctl example" usr/bin/perfex usr/bin/perfctr-selftest \
	usr/share/man/man1/perfex.1.gz usr/share/man/man1/perfctr-selftest.1.gz \
	usr/share/doc/perfex/examples/60-perfctr.conf
n3=$(grep -c '^usr/share/man/man3/.*\.3\.gz$' "$work/libperfctr-dev.contents")
n3src=$(ls "$TOP"/tools/lib/perfctr/Documentation/*.3 | wc -l)
((n3 == n3src)) && ok "libperfctr-dev: all $n3 section 3 pages" ||
	nok "libperfctr-dev: all section 3 pages" "$n3 of $n3src"
deps=$(dpkg-deb -f "${deb[perfex]}" Depends)
bad=
grep -qw libc6 <<<"$deps" || bad+=" libc6"
readelf -d "$work/root/usr/bin/perfex" | grep -q 'NEEDED.*libperfctr' &&
	{ grep -qw libperfctr3 <<<"$deps" || bad+=" libperfctr3"; }
readelf -d "$work/root/usr/bin/perfex" | grep -q 'NEEDED.*libpfm' &&
	{ grep -qw libpfm4 <<<"$deps" || bad+=" libpfm4"; }
[[ -z $bad ]] && ok "perfex: Depends: $deps" || nok "perfex: Depends" "$deps; lacks:$bad"

# 4. A program against the -dev package's files alone (pkg-config in the
# scratch root), run against its shared library.
cat > "$work/t.c" <<'EOT'
#include <errno.h>
#include <stdio.h>
#include <libperfctr.h>
int main(void)
{
	struct perfctr_info info;

	if (perfctr_info(-1, &info) < 0)
		puts(perfctr_strerror(errno, NULL));
	return PERFCTR_KERNEL_VERSION(7, 3, 0) == 0x070300 ? 0 : 1;
}
EOT
root=$work/root
if flags=$(PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$root/usr/lib/$ma/pkgconfig \
	   pkg-config --cflags --libs libperfctr) &&
   gcc -Wall -Werror -o "$work/t" "$work/t.c" $flags > "$work/t.log" 2>&1 &&
   readelf -d "$work/t" | grep -q 'NEEDED.*libperfctr\.so\.3' &&
   LD_LIBRARY_PATH=$root/usr/lib/$ma "$work/t" >> "$work/t.log" 2>&1 &&
   LD_LIBRARY_PATH=$root/usr/lib/$ma "$root/usr/bin/perfex" -h >> "$work/t.log" 2>&1; then
	ok "a program builds via pkg-config against libperfctr-dev alone and runs; perfex -h runs"
else
	nok "a program against libperfctr-dev" "$(tail -5 "$work/t.log")"
fi
# 5. Over the single libperfctr package that make deb made before (its
# files, version 3.0.0-1): dpkg -i of the three in a scratch root removes
# it, and the files are the new packages'.
up=$work/upgrade
mkdir -p "$up/old/DEBIAN" "$up/old/usr/bin" "$up/old/usr/lib/$ma" "$up/root/var/lib/dpkg/info" \
	"$up/root/var/lib/dpkg/updates"
: > "$up/root/var/lib/dpkg/status"
echo old > "$up/old/usr/bin/perfex"
echo old > "$up/old/usr/lib/$ma/libperfctr.so.3.0.0"
printf 'Package: libperfctr\nVersion: 3.0.0-1\nArchitecture: %s\nMaintainer: t <t@t>\nDescription: t\n' \
	"$arch" > "$up/old/DEBIAN/control"
dpkgr=(dpkg "--root=$up/root" --force-script-chrootless --force-not-root --force-depends
       --no-triggers --log=/dev/null)
if dpkg-deb --root-owner-group -b "$up/old" "$up/libperfctr_3.0.0-1_$arch.deb" > "$up/log" 2>&1 &&
   "${dpkgr[@]}" -i "$up/libperfctr_3.0.0-1_$arch.deb" >> "$up/log" 2>&1 &&
   "${dpkgr[@]}" -i "${deb[libperfctr3]}" "${deb[libperfctr-dev]}" "${deb[perfex]}" >> "$up/log" 2>&1 &&
   ! "${dpkgr[@]}" -s libperfctr 2>/dev/null | grep -q '^Status: install ok installed' &&
   "${dpkgr[@]}" -s perfex 2>/dev/null | grep -q '^Status: install ok installed' &&
   cmp -s "$up/root/usr/bin/perfex" "$root/usr/bin/perfex" &&
   cmp -s "$up/root/usr/lib/$ma/libperfctr.so.3.0.0" "$root/usr/lib/$ma/libperfctr.so.3.0.0"; then
	ok "dpkg -i over make deb's old libperfctr package replaces it (Conflicts, Replaces)"
else
	nok "dpkg -i over the old libperfctr package" "$(grep -i 'error\|overwrite\|conflict' "$up/log" | head -5)"
fi

finish
