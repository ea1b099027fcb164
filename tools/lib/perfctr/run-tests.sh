#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host checks of libperfctr and perfex: build for x86_64, i386, ppc64le
# and ppc32 with -Wall -Wextra (any warning fails), lint the man pages,
# check install, pkg-config and the shared library's soname, and run
# what runs without a perfctr kernel.  Build output goes to $OUT
# (default: a temporary directory).  Prints "ok"/"not ok" lines.
set -u
src=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
fails=0 n=0

result() {	# status name
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fails=$((fails + 1)); fi
}

for cc in gcc i686-linux-gnu-gcc powerpc64le-linux-gnu-gcc powerpc-linux-gnu-gcc; do
	if ! command -v $cc >/dev/null; then
		echo "ok $((n = n + 1)) build $cc # SKIP no $cc"
		continue
	fi
	pfm=0; [ $cc = gcc ] && pfm=
	log=$out/build-$cc.log
	make -s -C "$src" OUTPUT="$out/$cc/" CC=$cc ${pfm:+LIBPFM=$pfm} \
		CFLAGS="-O2 -g -Werror" all tests >"$log" 2>&1
	st=$?
	[ -s "$log" ] && { cat "$log"; st=1; }
	result $st "build $cc warning-free"
	make -s -C "$src" OUTPUT="$out/$cc-static/" CC=$cc ${pfm:+LIBPFM=$pfm} \
		LDFLAGS=-static all tests >"$log" 2>&1
	result $? "static build $cc"
done

# Install into a staging directory and use the result through pkg-config.
dest=$out/dest
make -s -C "$src" OUTPUT="$out/gcc/" PREFIX=/opt/perfctr DESTDIR="$dest" install >/dev/null 2>&1
st=0
for f in include/libperfctr.h include/perfctr_read.h \
	 lib/libperfctr.a lib/libperfctr.so.3 lib/libperfctr.so \
	 lib/pkgconfig/libperfctr.pc bin/perfex share/man/man1/perfex.1 \
	 share/man/man2/perfctr_info.2 share/man/man2/vperfctr_read.2 \
	 share/man/man3/libperfctr.3; do
	[ -e "$dest/opt/perfctr/$f" ] || { echo "# missing $f"; st=1; }
done
result $st "make install"
readelf -d "$dest/opt/perfctr/lib/libperfctr.so.3" 2>/dev/null | grep -q 'SONAME.*libperfctr.so.3'
result $? "soname libperfctr.so.3"
cat > "$out/use.c" <<'EOT'
#include <libperfctr.h>
int main(void)
{
	struct vperfctr *v = vperfctr_open();

	vperfctr_close(v);
	return 0;
}
EOT
PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_LIBDIR=$dest/opt/perfctr/lib/pkgconfig \
	sh -c 'gcc -Wall -Werror -I"$1" -o "$2/use" "$2/use.c" \
		$(pkg-config --cflags --libs libperfctr)' sh "$out/gcc/hdr" "$out"
result $? "pkg-config: compile and link against the installed library"

# Man pages: no warnings from man (groff), nor from mandoc if present.
# The .so links are checked where they resolve: in the installed tree.
st=0
for page in "$src"/Documentation/*.[123]; do
	name=${page##*/} sec=${page##*.}
	if head -1 "$page" | grep -q '^\.so '; then
		w=$(cd "$dest/opt/perfctr/share/man" && LC_ALL=C.UTF-8 MANWIDTH=80 \
			man --warnings -l -Tutf8 "man$sec/$name" 2>&1 >/dev/null)
		[ -n "$w" ] && { echo "# $name: $w"; st=1; }
		continue
	fi
	w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l -Tutf8 "$page" 2>&1 >/dev/null)
	[ -n "$w" ] && { echo "# $name: $w"; st=1; }
	if command -v mandoc >/dev/null; then
		w=$(mandoc -T lint -W warning "$page" 2>&1)
		[ -n "$w" ] && { echo "# $w"; st=1; }
	fi
done
result $st "man pages lint clean"

# Without a perfctr kernel: perfex says so; the tests skip.
"$out/gcc/perfex" -h >/dev/null 2>&1
result $? "perfex -h"
if ! "$out/gcc/perfex" -i >/dev/null 2>"$out/perfex.err"; then
	grep -q 'perfctr' "$out/perfex.err"
	result $? "perfex without perfctr explains itself"
fi
"$out/gcc/tests/libperfctr_test" --perfex "$out/gcc/perfex" >"$out/test.log" 2>&1
result $? "libperfctr_test on the host (skips without perfctr)"

if [ -x "$out/gcc/tests/events_test" ]; then
	LIBPFM_FORCE_PMU=amd64_fam17h_zen2 "$out/gcc/tests/events_test" >"$out/events.log" 2>&1
	st=$?
	grep '^not ok' "$out/events.log"
	result $st "perfex event encoding (libpfm4, forced AMD Zen 2 tables), hybrid CPU binding"
else
	echo "ok $((n = n + 1)) perfex event encoding # SKIP built without libpfm4"
fi

echo "1..$n"
echo "# host: $((n - fails)) passed, $fails failed (output in $out)"
[ $fails -eq 0 ]
