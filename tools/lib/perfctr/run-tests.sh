#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host checks of libperfctr and perfex: build for x86_64, i386, ppc64le
# and ppc32 with -Wall -Wextra (any warning fails), lint the man pages,
# check the licences of the files compiled into the library, install,
# pkg-config and the shared library's soname, and run
# what runs without a perfctr kernel.  Build output goes to $OUT
# (default: a temporary directory).  Prints "ok"/"not ok" lines.
set -u
src=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
fails=0 skips=0 n=0

result() {	# status name
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fails=$((fails + 1)); fi
}
# A check that cannot run here: TAP's "ok N name # SKIP why", counted
# apart from the passes.
skip() {	# name why
	n=$((n + 1)) skips=$((skips + 1))
	echo "ok $n $1 # SKIP $2"
}

for cc in gcc i686-linux-gnu-gcc powerpc64le-linux-gnu-gcc powerpc-linux-gnu-gcc; do
	if ! command -v $cc >/dev/null; then
		skip "build $cc" "no $cc"
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

# Licences: every file compiled into libperfctr.a and libperfctr.so must
# be under the library's licence.  The files are those of the build: the
# archive's members, their -MD dependency files, and the shared
# library's compile units (DWARF) among their sources.  Kernel uapi
# headers (perfctr's, in the tree or the build's hdr/ copies, and the C
# library's linux/ and asm/) may be GPL-2.0 with the syscall note, which
# leaves user space free.  Headers of the compiler and the C library
# carry no SPDX line (their licences allow any program): outside the
# tree, a file without one is accepted.
srctree=$(cd "$src/../../.." && pwd)
lib_spdx='LGPL-2.1 OR BSD-2-Clause'
# The tag spelt in two pieces, so that checkpatch does not take it for this file's.
spdx_tag='SPDX-License''-Identifier'
spdx_of() {
	sed -n "1,5s/.*$spdx_tag:[[:space:]]*//p" "$1" | head -1 |
		sed 's@[[:space:]]*\*/[[:space:]]*$@@; s/[[:space:]]*$//'
}
uapi_spdx_ok() {
	case $1 in
	'GPL-2.0 WITH Linux-syscall-note' | 'GPL-2.0-only WITH Linux-syscall-note' | \
	'GPL-2.0+ WITH Linux-syscall-note' | 'GPL-2.0-or-later WITH Linux-syscall-note' | \
	'LGPL-2.1 WITH Linux-syscall-note' | 'LGPL-2.1+ WITH Linux-syscall-note' | \
	'(GPL-2.0 WITH Linux-syscall-note) OR '* | '(GPL-2.0+ WITH Linux-syscall-note) OR '*)
		return 0 ;;
	esac
	return 1
}
lib_licences() {	# build directory
	ll_st=0
	if [ ! -f "$1/libperfctr.a" ] || [ ! -f "$1/libperfctr.so" ]; then
		echo "# $1: no libperfctr.a or libperfctr.so"
		return 1
	fi
	: >"$1/lib-files" && : >"$1/lib-sources"
	# The archive's one object is the objects libperfctr.members names.
	members=$(ar t "$1/libperfctr.a")
	[ "$members" = libperfctr-all.o ] && members=$(cat "$1/libperfctr.members")
	for m in $members; do
		d=$1/${m%.o}.d
		[ -f "$d" ] || { echo "# $1: $m: no $d"; ll_st=1; continue; }
		sed 's/\\$//' "$d" | tr ' ' '\n' | sed '/^$/d; /:$/d' >"$1/lib-deps"
		head -1 "$1/lib-deps" >>"$1/lib-sources"
		cat "$1/lib-deps" >>"$1/lib-files"
	done
	units=$(readelf --debug-dump=info "$1/libperfctr.so" 2>/dev/null |
		awk '/DW_TAG_compile_unit/ { cu = 1 } cu && /DW_AT_name/ { print $NF; cu = 0 }')
	[ -n "$units" ] || { echo "# $1: libperfctr.so has no debug information"; ll_st=1; }
	for u in $units; do
		grep -qxF "$u" "$1/lib-sources" ||
			{ echo "# $1: libperfctr.so: $u is no member of libperfctr.a"; ll_st=1; }
	done
	for f in $(sort -u "$1/lib-files"); do
		spdx=$(spdx_of "$f")
		case $f in
		"$srctree"/include/uapi/* | "$srctree"/arch/*/include/uapi/* | "$1"/hdr/*)
			uapi_spdx_ok "$spdx" && continue ;;
		"$srctree"/* | "$1"/*)
			[ "$spdx" = "$lib_spdx" ] && continue ;;
		*)
			[ -z "$spdx" ] || uapi_spdx_ok "$spdx" && continue ;;
		esac
		echo "# ${1##*/}: ${f#"$srctree"/}: licence '${spdx:-none}'," \
			"in libperfctr ($lib_spdx)"
		ll_st=1
	done
	return $ll_st
}
st=0 built=
for cc in gcc i686-linux-gnu-gcc powerpc64le-linux-gnu-gcc powerpc-linux-gnu-gcc; do
	command -v $cc >/dev/null || continue
	built="$built $cc"
	lib_licences "$out/$cc" || st=1
done
what="the files compiled into libperfctr (${built# }) are $lib_spdx"
result $st "licences: $what (uapi headers: GPL-2.0 WITH Linux-syscall-note)"

# A static link sees the shared library's names only: the archive
# defines no global name the .so does not export (perfex's event
# parser, compiled into the library for the marker, stays inside it).
# i386's __x86.get_pc_thunk.* are the compiler's hidden COMDAT helpers,
# global in every PIC object.
st=0 built=
for cc in gcc i686-linux-gnu-gcc powerpc64le-linux-gnu-gcc powerpc-linux-gnu-gcc; do
	command -v $cc >/dev/null || continue
	built="$built $cc"
	nm -D --defined-only "$out/$cc/libperfctr.so" 2>/dev/null | awk 'NF == 3 { print $3 }' |
		sort -u >"$out/$cc/so-names"
	nm -g --defined-only "$out/$cc/libperfctr.a" 2>/dev/null |
		awk 'NF == 3 && $3 !~ /^__x86\.get_pc_thunk\./ { print $3 }' |
		sort -u >"$out/$cc/a-names"
	if [ ! -s "$out/$cc/a-names" ] || ! cmp -s "$out/$cc/so-names" "$out/$cc/a-names"; then
		diff "$out/$cc/so-names" "$out/$cc/a-names" | sed 's/^/# /' | head -20
		st=1
	fi
done
result $st "libperfctr.a defines the names libperfctr.so exports, no others (${built# })"

# Install into a staging directory and use the result through pkg-config.
dest=$out/dest
rm -rf "$dest"
make -s -C "$src" OUTPUT="$out/gcc/" PREFIX=/opt/perfctr DESTDIR="$dest" install >/dev/null 2>&1
st=0
for f in include/libperfctr.h include/perfctr_read.h include/perfctr_marker.h \
	 include/perfctr/likwid-marker.h include/perfctr/likwid-cpumarker.h \
	 include/perfctr/likwid.h include/perfctr/likwid.f90 \
	 include/perfctr/linux/perfctr.h include/perfctr/asm/perfctr.h \
	 lib/libperfctr.a lib/libperfctr.so.3 lib/libperfctr.so \
	 lib/pkgconfig/libperfctr.pc bin/perfex share/man/man1/perfex.1 \
	 bin/perfctr-selftest share/man/man1/perfctr-selftest.1 \
	 share/man/man2/perfctr_info.2 share/man/man2/vperfctr_read.2 \
	 share/man/man3/libperfctr.3; do
	[ -e "$dest/opt/perfctr/$f" ] || { echo "# missing $f"; st=1; }
done
result $st "make install"
readelf -d "$dest/opt/perfctr/lib/libperfctr.so.3" 2>/dev/null | grep -q 'SONAME.*libperfctr.so.3'
result $? "soname libperfctr.so.3"
# pthread_once/mutex/atfork: before glibc 2.34 they live in libpthread,
# which the library must name itself (glibc 2.34 and later have them in
# libc, and drop the NEEDED entry: the link line is what can be seen).
make -s -B -n -C "$src" OUTPUT="$out/gcc/" "$out/gcc/libperfctr.so.3.0.0" 2>/dev/null |
	grep -q -- '-shared .*-lpthread' &&
	PKG_CONFIG_PATH=$dest/opt/perfctr/lib/pkgconfig \
		pkg-config --static --libs libperfctr 2>/dev/null | grep -q -- '-lpthread'
result $? "libperfctr.so is linked with -lpthread; pkg-config --static adds it"

# Every name of libperfctr(3)'s NAME section has a page (a .so link).
st=0
for name in $(sed -n '/^\.SH NAME/,/^\.SH/{/^\.SH/d;s/ \\-.*//;s/,/ /g;p}' \
		"$src/Documentation/libperfctr.3"); do
	[ -e "$dest/opt/perfctr/share/man/man3/$name.3" ] || { echo "# no page $name(3)"; st=1; }
done
result $st "make install: a man page for every name in libperfctr(3)"

# Every public name of the installed headers has a page: the functions
# (static inline ones too) and function-like macros of libperfctr.h,
# perfctr_read.h and the uapi copies, both branches of every #if.
st=0 names=
inc=$dest/opt/perfctr/include
for h in "$inc/libperfctr.h" "$inc/perfctr_read.h" "$inc/perfctr/linux/perfctr.h" \
	 "$inc/perfctr/asm/perfctr.h" "$inc/perfctr_marker.h" "$inc/perfctr/likwid-marker.h" \
	 "$inc/perfctr/likwid.h" "$inc/perfctr/likwid-cpumarker.h"; do
	[ -e "$h" ] || { echo "# not installed: $h"; st=1; continue; }
	names="$names $(gcc -fpreprocessed -dD -E -P -x c "$h" 2>/dev/null | sed -nE \
		-e 's/^#[[:space:]]*define[[:space:]]+([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/p' \
		-e '/^[A-Za-z_]/{/^(typedef|enum|union|struct [A-Za-z0-9_]+ *[{;])/d
			s/^([^(]*[^A-Za-z0-9_(])?([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\(.*/\2/p}')"
done
count=0
for name in $(echo $names | tr ' ' '\n' | sort -u); do
	count=$((count + 1))
	man=$dest/opt/perfctr/share/man
	ls "$man/man2/$name.2" "$man/man3/$name.3" 2>/dev/null | grep -q . ||
		{ echo "# no page for $name, public in the installed headers"; st=1; }
done
[ $count -ge 80 ] || { echo "# only $count names found in the installed headers"; st=1; }
result $st "make install: a man page for each of the installed headers' $count public names"

# The README's example as a user builds it: pkg-config's flags and the C
# library's headers only (the uapi headers come from the installation).
PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_LIBDIR=$dest/opt/perfctr/lib/pkgconfig \
	sh -c 'gcc -Wall -Wextra -Werror -o "$2/readme_example" "$1/tests/readme_example.c" \
		$(pkg-config --cflags --libs libperfctr)' sh "$src" "$out"
result $? "pkg-config: the README's example compiles and links against the installation alone"

# likwid-instrumented code against the installed likwid-marker.h, as C
# and C++, with LIKWID_PERFMON (the macros call the marker API: linked
# with libperfctr alone) and without (the macros vanish: nothing of the
# marker may remain in the object).
cat >"$out/likwid_user.c" <<'EOT'
#include <likwid-marker.h>
int main(void)
{
	int nevents = 4, count = 0;
	double events[4], time = 0;

	LIKWID_MARKER_INIT;
	LIKWID_MARKER_THREADINIT;
	LIKWID_MARKER_SWITCH;
	LIKWID_MARKER_REGISTER("solve");
	LIKWID_MARKER_START("solve");
	LIKWID_MARKER_STOP("solve");
	LIKWID_MARKER_GET("solve", &nevents, events, &time, &count);
	LIKWID_MARKER_RESET("solve");
	LIKWID_MARKER_CLOSE;
	(void)nevents; (void)events; (void)time; (void)count;
	return 0;
}
EOT
st=0
for c in gcc g++; do
	x=c; [ $c = g++ ] && x=c++
	for def in -DLIKWID_PERFMON ""; do
		pc=$dest/opt/perfctr/lib/pkgconfig
		if ! PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_LIBDIR=$pc \
			sh -c '$1 -Wall -Wextra -Werror $2 -x $3 -o "$4" "$5" -x none \
				$(pkg-config --cflags --libs --static libperfctr) -static' sh \
			"$c" "$def" "$x" "$out/likwid_user" "$out/likwid_user.c"; then
			echo "# $c $def: does not build"; st=1; continue
		fi
		syms=$(nm "$out/likwid_user" | grep -c ' T \(perfctr_\|likwid_\)marker')
		if [ -n "$def" ] && [ "$syms" -lt 16 ]; then
			echo "# $c $def: the marker's functions are not linked ($syms)"; st=1
		elif [ -z "$def" ] && [ "$syms" -ne 0 ]; then
			echo "# $c without LIKWID_PERFMON: $syms marker functions linked"; st=1
		fi
	done
done
result $st "likwid-marker.h: C and C++, with and without -DLIKWID_PERFMON (pkg-config's flags)"

# likwid's own code, unchanged, against the installation: Debian 12's
# likwid 5.2.2 examples C-markerAPI.c (OpenMP) and F-markerAPI.F90
# (gfortran, the installed likwid.f90's module), from LIKWID_EXAMPLES
# (scripts/fetch-likwid.sh); direct calls of likwid_marker*(), likwid.h,
# likwid-cpumarker.h, LIKWID_MARKER_WRITE_FILE and the GPU markers.  They
# run to completion; without perfctr the marker says so in one line.
pc_env() {	# command...: with pkg-config on the installation
	PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_LIBDIR=$dest/opt/perfctr/lib/pkgconfig "$@"
}
lw=$out/likwid
rm -rf "$lw"
mkdir -p "$lw"
if [ -e /proc/sys/kernel/perfctr_access ]; then
	noperfctr=
else
	noperfctr=1
fi
# $1's standard error $2: as the marker speaks (one line without perfctr, else nothing).
marker_stderr() {	# name errfile
	if [ -n "$noperfctr" ]; then
		[ "$(grep -c . "$2")" -eq 1 ] &&
			grep -q '^perfctr marker: not counting: vperfctr_open: .*no perfctr' "$2" ||
			{ echo "# $1: standard error:"; sed 's/^/#   /' "$2"; return 1; }
	else
		[ ! -s "$2" ] || { echo "# $1: standard error:"; sed 's/^/#   /' "$2"; return 1; }
	fi
}
cat >"$lw/direct.c" <<'EOT'
#include <stdio.h>
#include <likwid.h>
#include <likwid-cpumarker.h>
int main(void)
{
	int nevents = 4, count = -1;
	double events[4], time = -1;

	likwid_markerInit();
	likwid_markerThreadInit();
	likwid_markerNextGroup();
	if (likwid_markerRegisterRegion("direct") >= 0 || likwid_markerStartRegion("direct") >= 0 ||
	    likwid_markerStopRegion("direct") >= 0 || likwid_markerResetRegion("direct") >= 0)
		return 2;	/* without a marker they fail, -errno */
	likwid_markerGetRegion("direct", &nevents, events, &time, &count);
	if (nevents != 0)
		return 3;
	LIKWID_MARKER_START("macro");
	LIKWID_MARKER_STOP("macro");
	if (LIKWID_MARKER_WRITE_FILE("/nonexistent/dir/marker.txt") >= 0)
		return 4;
	NVMON_MARKER_INIT; NVMON_MARKER_THREADINIT; NVMON_MARKER_SWITCH;
	NVMON_MARKER_REGISTER("gpu"); NVMON_MARKER_START("gpu"); NVMON_MARKER_STOP("gpu");
	NVMON_MARKER_GET("gpu", &nevents, events, &time, &count);
	NVMON_MARKER_GET("gpu", 0, &nevents, events, &time, &count);
	NVMON_MARKER_RESET("gpu"); NVMON_MARKER_WRITE_FILE("f"); NVMON_MARKER_CLOSE;
	ROCMON_MARKER_INIT; ROCMON_MARKER_THREADINIT; ROCMON_MARKER_SWITCH;
	ROCMON_MARKER_REGISTER("gpu"); ROCMON_MARKER_START("gpu"); ROCMON_MARKER_STOP("gpu");
	ROCMON_MARKER_GET("gpu", &nevents, events, &time, &count);
	ROCMON_MARKER_RESET("gpu"); ROCMON_MARKER_WRITE_FILE("f"); ROCMON_MARKER_CLOSE;
	LIKWID_NVMARKER_INIT; LIKWID_NVMARKER_THREADINIT; LIKWID_NVMARKER_SWITCH;
	LIKWID_NVMARKER_REGISTER("gpu"); LIKWID_NVMARKER_START("gpu"); LIKWID_NVMARKER_STOP("gpu");
	LIKWID_NVMARKER_GET("gpu", 0, &nevents, events, &time, &count);
	LIKWID_NVMARKER_RESET("gpu"); LIKWID_NVMARKER_CLOSE;
	likwid_markerClose();
	LIKWID_MARKER_CLOSE;
	return 0;
}
EOT
st=0
for link in "" -static; do
	pc_env sh -c 'gcc -Wall -Wextra -Werror -DLIKWID_PERFMON -o "$1" "$2" \
		$(pkg-config --cflags --libs ${3:+--static} libperfctr) $3' sh \
		"$lw/direct$link" "$lw/direct.c" "$link" ||
		{ echo "# direct$link: does not build"; st=1; continue; }
	LD_LIBRARY_PATH=$dest/opt/perfctr/lib "$lw/direct$link" >/dev/null 2>"$lw/direct.err"
	code=$?
	if [ -n "$noperfctr" ]; then
		[ $code -eq 0 ] || { echo "# direct$link: exit $code"; st=1; }
		marker_stderr "direct$link" "$lw/direct.err" || st=1
	fi
done
# Without LIKWID_PERFMON every macro, LIKWID_MARKER_WRITE_FILE too, is nothing.
pc_env sh -c 'gcc -Wall -Wextra -Werror -c -o "$1" -x c - $(pkg-config --cflags libperfctr)' \
	sh "$lw/off.o" <<'EOT' || st=1
#include <likwid-marker.h>
int main(void)
{
	LIKWID_MARKER_INIT;
	LIKWID_MARKER_WRITE_FILE("x");
	NVMON_MARKER_GET("gpu", 0, 0, 0, 0);
	LIKWID_MARKER_CLOSE;
	return 0;
}
EOT
[ -f "$lw/off.o" ] && [ -n "$(nm "$lw/off.o" | grep -i 'likwid\|marker')" ] &&
	{ echo "# without LIKWID_PERFMON the object refers to the marker"; st=1; }
what="likwid_marker*() called directly link (shared, static) and run"
what="$what; LIKWID_MARKER_WRITE_FILE; the GPU markers are no-ops"
result $st "likwid.h, likwid-cpumarker.h: $what"

name="likwid 5.2.2's C-markerAPI.c, unchanged, with OpenMP against the installation: builds, runs"
if [ -z "${LIKWID_EXAMPLES:-}" ] || [ ! -f "$LIKWID_EXAMPLES/C-markerAPI.c" ]; then
	skip "$name" "no LIKWID_EXAMPLES (scripts/fetch-likwid.sh)"
	skip "likwid 5.2.2's F-markerAPI.F90, unchanged" \
		"no LIKWID_EXAMPLES (scripts/fetch-likwid.sh)"
else
	cp "$LIKWID_EXAMPLES/C-markerAPI.c" "$LIKWID_EXAMPLES/F-markerAPI.F90" "$lw/"
	st=0
	# likwid's examples/Makefile's line, with pkg-config's flags for likwid's.
	pc_env sh -c 'cd "$1" && gcc -fopenmp -DLIKWID_PERFMON $(pkg-config --cflags libperfctr) \
		C-markerAPI.c -o C-markerAPI $(pkg-config --libs libperfctr) -lm' sh "$lw" \
		>"$lw/c-build.log" 2>&1 || { cat "$lw/c-build.log"; st=1; }
	fst=skip
	if command -v gfortran >/dev/null; then
		fst=0
		pc_env sh -c 'cd "$1" && gfortran -c "$2/opt/perfctr/include/perfctr/likwid.f90" &&
			gfortran -fopenmp -DLIKWID_PERFMON -I. F-markerAPI.F90 -o F-markerAPI \
			$(pkg-config --libs libperfctr) -lm' sh "$lw" "$dest" \
			>"$lw/f-build.log" 2>&1 || { cat "$lw/f-build.log"; fst=1; }
	fi
	# Both at once: each sleeps 2 s per round (C: 10 rounds).
	[ $st -eq 0 ] && (cd "$lw" && OMP_NUM_THREADS=2 LD_LIBRARY_PATH=$dest/opt/perfctr/lib \
		./C-markerAPI >c.out 2>c.err; echo $? >c.status) &
	[ "$fst" = 0 ] && (cd "$lw" && OMP_NUM_THREADS=2 LD_LIBRARY_PATH=$dest/opt/perfctr/lib \
		./F-markerAPI >f.out 2>f.err; echo $? >f.status) &
	wait
	if [ $st -eq 0 ]; then
		[ "$(cat "$lw/c.status")" = 0 ] &&
			[ "$(grep -c 'wakes up again' "$lw/c.out")" -eq 20 ] ||
			{ echo "# C-markerAPI: exit $(cat "$lw/c.status")"; st=1; }
		marker_stderr C-markerAPI "$lw/c.err" || st=1
	fi
	result $st "$name"
	name="likwid 5.2.2's F-markerAPI.F90, unchanged, with gfortran and the installed"
	name="$name likwid.f90: builds, runs"
	if [ "$fst" = skip ]; then
		skip "$name" "no gfortran"
	else
		if [ $fst -eq 0 ]; then
			[ "$(cat "$lw/f.status")" = 0 ] &&
			[ "$(grep -c 'wakes up again' "$lw/f.out")" -eq 2 ] &&
				grep -q '^Region example measures 0 events' "$lw/f.out" ||
				{ echo "# F-markerAPI: exit $(cat "$lw/f.status")"
				  sed 's/^/#   /' "$lw/f.out"; fst=1; }
			marker_stderr F-markerAPI "$lw/f.err" || fst=1
		fi
		result $fst "$name"
	fi
fi

# Man pages: no warnings from man (groff), nor from mandoc if present.
# The .so links are checked where they resolve: in the installed tree.
st=0
for page in "$src"/Documentation/*.[123]; do
	name=${page##*/} sec=${page##*.}
	if head -1 "$page" | grep -q '^\.so '; then
		[ "$(wc -l < "$page")" -eq 1 ] || { echo "# $name: more than the .so line"; st=1; }
		w=$(cd "$dest/opt/perfctr/share/man" && LC_ALL=C.UTF-8 MANWIDTH=80 \
			man --warnings -l -Tutf8 "man$sec/$name" 2>&1 >/dev/null)
		[ -n "$w" ] && { echo "# $name: $w"; st=1; }
		# mandoc calls every .so fragile (it prefers ln(1)): that
		# warning aside, the page it includes must lint clean.
		if command -v mandoc >/dev/null; then
			w=$(cd "$dest/opt/perfctr/share/man" &&
				mandoc -T lint -W warning "man$sec/$name" 2>&1 |
				grep -v 'WARNING: \.so is fragile, better use ln(1)')
			[ -n "$w" ] && { echo "# $w"; st=1; }
		fi
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

# Without a perfctr kernel: perfex says so (perfctr_strerror's ENOSYS
# advice); -h, -l and usage errors work; the tests skip.
"$out/gcc/perfex" -h >"$out/perfex.out" 2>&1 &&
	grep -q '^Usage: perfex ' "$out/perfex.out" && grep -q -- '-x SEP' "$out/perfex.out" &&
	grep -q '^Exit status:' "$out/perfex.out"
result $? "perfex -h: exit 0, the usage with -x and the exit statuses"
"$out/gcc/perfex" >/dev/null 2>"$out/perfex.err"
st=$?
"$out/gcc/perfex" --no-such-option >/dev/null 2>>"$out/perfex.err"
st2=$?
"$out/gcc/perfex" -x '' true >/dev/null 2>>"$out/perfex.err"
st3=$?
"$out/gcc/perfex" -x , -j true >/dev/null 2>>"$out/perfex.err"
st4=$?
[ $st -eq 125 ] && [ $st2 -eq 125 ] && [ $st3 -eq 125 ] && [ $st4 -eq 125 ] &&
	[ "$(grep -c '^Usage:' "$out/perfex.err")" -eq 4 ] &&
	grep -q '^perfex: -x and -j exclude each other' "$out/perfex.err"
result $? "perfex usage errors (no command, bad option, empty -x, -x with -j): 125 and the usage"
grep -q '^perfex: no command: ' "$out/perfex.err"
result $? "perfex without a command says so"
"$out/gcc/perfex" -I 1000 true >"$out/perfex.out" 2>"$out/perfex.err"
st=$?
[ $st -eq 125 ] && grep -q "^perfex: -I 1000: perf stat's interval printing" "$out/perfex.err" &&
	[ ! -s "$out/perfex.out" ] && ! grep -q 'No such file' "$out/perfex.err"
result $? "perfex -I 1000 (perf stat's interval): refused, 125, no command 1000 run"
# perf stat's -a, -C, -p, -t: one line each saying what to use instead.
ok=0
for o in "-a" "-C 0" "-p 1" "-t 1"; do
	# shellcheck disable=SC2086 # the option and its argument
	"$out/gcc/perfex" $o true >"$out/perfex.out" 2>"$out/perfex.err"
	st=$?
	[ $st -eq 125 ] && [ ! -s "$out/perfex.out" ] && [ "$(wc -l < "$out/perfex.err")" -eq 1 ] &&
		grep -q "^perfex: ${o%% *}.*perf stat ${o%% *}" "$out/perfex.err" || ok=1
done
result $ok "perfex -a, -C, -p, -t (perf stat's): one line each naming perf stat's, 125"
# -r N: 1 to 100000 runs; anything else refused before perfctr is asked.
ok=0
for o in "-r 0" "-r x" "-r 100001" "-r -1"; do
	# shellcheck disable=SC2086 # the option and its argument
	"$out/gcc/perfex" $o true >"$out/perfex.out" 2>"$out/perfex.err"
	st=$?
	[ $st -eq 125 ] && [ ! -s "$out/perfex.out" ] &&
		grep -q "^perfex: $o: the number of runs is 1 to 100000" "$out/perfex.err" || ok=1
done
result $ok "perfex -r 0, x, 100001, -1: refused, saying what -r takes, 125"
"$out/gcc/perfex" --version >"$out/perfex.out" 2>&1
st=$?
[ $st -eq 0 ] && grep -q '^perfex [0-9]*\.[0-9]* (libperfctr [0-9]*\.[0-9]*)$' "$out/perfex.out" &&
	grep -q '^perfctr driver' "$out/perfex.out"
result $? "perfex --version: exit 0, perfex's, libperfctr's and the driver's versions"

# perfex's output on fake counts: CSV exactly, JSON parsed by Python.
"$out/gcc/tests/perfex_output_test" >"$out/output.log" 2>&1
st=$?
grep '^not ok' "$out/output.log"
result $st "perfex output: CSV fields and quoting, JSON fields and escapes (fake counts)"
if command -v python3 >/dev/null; then
	st=0
	for i in 0 1; do
		"$out/gcc/tests/perfex_output_test" --json $i | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["format"] == 1 and isinstance(d["command"], list) and d["command"][0] == "./a.out"
assert isinstance(d["elapsed_seconds"], float) and isinstance(d["tsc"], int)
for e in d["events"]:
	assert set(("name", "code", "pmc", "evntsel", "count")) <= set(e)
if sys.argv[1] == "1":
	assert d["command"][1:] == ["say \"hi\"", "back\\slash", "tab\tnew\nline",
				    "caf\u00e9", "bad\ufffd", "\x7f"], d["command"]
' $i || { echo "# JSON of case $i"; st=1; }
	done
	result $st "perfex JSON is valid JSON (python3 json.load): format, command, elapsed_seconds"
	st=0
	for i in 0 1; do
		"$out/gcc/tests/perfex_output_test" --json-perf $i | python3 -c '
import json, sys
lines = [json.loads(l) for l in sys.stdin]
counters = [d for d in lines if "event-runtime" in d]
assert [d["event"] for d in counters][0] == "tsc", lines
for d in counters:
	assert list(d)[:5] == ["counter-value", "unit", "event", "event-runtime",
			       "pcnt-running"], d
	assert float(d["counter-value"]) >= 0 and d["pcnt-running"] == 100.0
	if "metric-value" in d:
		assert list(d)[5:7] == ["metric-value", "metric-unit"], d
	assert ("self" in d) == (sys.argv[1] == "0"), d
assert lines[-1]["event"] == "elapsed_seconds" and lines[-1]["unit"] == "s"
' $i || { echo "# perf JSON of case $i"; st=1; }
	done
	result $st "perfex -j: perf stat -j's JSON lines and keys (python3 json.loads)"
else
	skip "perfex JSON is valid JSON" "no python3"
fi

# A misspelt event is named even without perfctr, before perfctr's absence.
"$out/gcc/perfex" -e instructions,nosuchevent true >/dev/null 2>"$out/perfex.err"
st=$?
[ $st -eq 125 ] && grep -q '^perfex: nosuchevent: ' "$out/perfex.err" &&
	! grep -q 'instructions' "$out/perfex.err"
result $? "perfex -e nosuchevent: 125, the event named"
if ! "$out/gcc/perfex" -i >/dev/null 2>"$out/perfex.err"; then
	grep -q '^perfex: perfctr_info: ' "$out/perfex.err" &&
		grep -q '^perfex: this kernel has no perfctr (.*CONFIG_PERFCTR' "$out/perfex.err"
	result $? "perfex without perfctr explains itself (perfctr_strerror)"
	"$out/gcc/perfex" -e instructions -o "$out/perfex.keep" true >/dev/null 2>"$out/perfex.err"
	st=$?
	[ $st -eq 125 ] && [ "$(grep -c . "$out/perfex.err")" -eq 2 ] &&
		grep -q '^perfex: perfctr_info: Function not implemented$' "$out/perfex.err" &&
		grep -q '^perfex: this kernel has no perfctr' "$out/perfex.err" &&
		[ ! -e "$out/perfex.keep" ]
	result $? "perfex -e instructions -o FILE without perfctr: 125, ENOSYS explained, no FILE"
	"$out/gcc/perfex" -l >"$out/perfex.list" 2>&1 &&
		grep -q '^CPU: unknown' "$out/perfex.list"
	result $? "perfex -l without perfctr"
	if [ -x "$out/gcc/tests/events_test" ]; then	# built with libpfm4
		LIBPFM_FORCE_PMU=amd64_fam17h_zen2 "$out/gcc/perfex" -l >"$out/perfex.list" 2>&1 &&
			grep -q '^  amd64_fam17h_zen2::RETIRED_INSTRUCTIONS	0xc0	' \
				"$out/perfex.list" &&
			grep -A3 '^  amd64_fam17h_zen2::RETIRED_MMX_FP_INSTRUCTIONS	' \
				"$out/perfex.list" | grep -q '^      :SSE_INSTR	0x4	'
		result $? "perfex -l without perfctr: libpfm4's events and their unit masks"
	else
		skip "perfex -l: unit masks" "built without libpfm4"
	fi
	"$out/gcc/examples/self" >/dev/null 2>"$out/self.err"
	st=$?
	"$out/gcc/examples/signal" >/dev/null 2>"$out/signal.err"
	st2=$?
	[ $st -eq 1 ] && [ $st2 -eq 1 ] &&
		grep -q '^self: this kernel has no perfctr' "$out/self.err" &&
		grep -q '^signal: this kernel has no perfctr' "$out/signal.err"
	result $? "examples self and signal without perfctr: exit 1, the reason"
	noperfctr='this kernel has no perfctr'
	"$out/gcc/perfctr-selftest" >"$out/selftest.out" 2>&1
	st=$?
	[ $st -eq 1 ] && [ "$(grep -c . "$out/selftest.out")" -eq 1 ] &&
		grep -q "^perfctr-selftest: perfctr_info: Function not implemented: $noperfctr" \
			"$out/selftest.out"
	result $? "perfctr-selftest without perfctr: exit 1, one line: ENOSYS explained"
fi
"$out/gcc/tests/libperfctr_test" --perfex "$out/gcc/perfex" >"$out/test.log" 2>&1
result $? "libperfctr_test on the host (skips without perfctr)"

# perfctr_power_encode(), POWER8-10's raw codes and group rules: on the
# host, and the ppc64le build under qemu-user where there is one.
"$out/gcc/tests/power_test" >"$out/power.log" 2>&1
st=$?
grep '^not ok' "$out/power.log"
grep -q '^1\.\.[1-9]' "$out/power.log" || st=1
result $st "perfctr_power_encode(): POWER8-10 raw codes, MMCR1, group rules (host)"
name="perfctr_power_encode() in the ppc64le build (qemu-user)"
if [ -x "$out/powerpc64le-linux-gnu-gcc-static/tests/power_test" ] &&
	command -v qemu-ppc64le-static >/dev/null; then
	qemu-ppc64le-static "$out/powerpc64le-linux-gnu-gcc-static/tests/power_test" \
		>"$out/power-ppc64le.log" 2>&1
	st=$?
	grep '^not ok' "$out/power-ppc64le.log"
	grep -q 'perfctr_power_isa(): POWER8 2.07' "$out/power-ppc64le.log" || st=1
	result $st "$name"
else
	skip "$name" "no ppc64le build or qemu-ppc64le-static"
fi

# Without perfctr the library fails ENOSYS before any perfctr system call
# (473-480 may be other calls' on other kernels): strace shows none.
# The example exits 1 when vperfctr_open() fails.
name="no perfctr system call without perfctr (perfex -i, -l, usage; libperfctr_test; the examples;"
name="$name perfctr-selftest)"
if [ -e /proc/sys/kernel/perfctr_access ]; then
	skip "$name" "this kernel has perfctr"
elif ! command -v strace >/dev/null || ! strace -o /dev/null true 2>/dev/null; then
	skip "$name" "no strace"
else
	st=0
	for cmd in "$out/gcc/perfex -i" "$out/gcc/perfex -l" "$out/gcc/perfex" \
		   "$out/gcc/tests/libperfctr_test" "$out/readme_example" \
		   "$out/gcc/examples/self" "$out/gcc/examples/signal" \
		   "$out/gcc/perfctr-selftest"; do
		LD_LIBRARY_PATH=$dest/opt/perfctr/lib strace -f -n -o "$out/strace.log" \
			$cmd >/dev/null 2>&1
		code=$?
		if grep -E '\[ *(47[3-9]|480)\]' "$out/strace.log"; then
			st=1
		fi
		case $cmd in
		*readme_example) [ $code -eq 1 ] || { echo "# $cmd: exit $code"; st=1; } ;;
		esac
	done
	result $st "$name"
fi

# The library calls the numbers the kernel publishes, not its own: a
# tree standing for /sys/kernel/perfctr that names perfctr_info 600 and
# nothing else gets perfex -i one system call 600 (ENOSYS here) and no
# 473-480.
name="the published system call numbers are the ones called (PERFCTR_SYSFS_ROOT)"
if ! command -v strace >/dev/null || ! strace -o /dev/null true 2>/dev/null; then
	skip "$name" "no strace"
else
	mkdir -p "$out/fake-sysfs/syscalls"
	echo 600 >"$out/fake-sysfs/syscalls/perfctr_info"
	PERFCTR_SYSFS_ROOT=$out/fake-sysfs strace -f -n -o "$out/strace-fake.log" \
		"$out/gcc/perfex" -i >/dev/null 2>&1
	grep -Eq '\[ *600\]' "$out/strace-fake.log" &&
		! grep -E '\[ *(47[3-9]|480)\]' "$out/strace-fake.log"
	result $? "$name"
fi

if [ -x "$out/gcc/tests/events_test" ]; then
	LIBPFM_FORCE_PMU=amd64_fam17h_zen2 "$out/gcc/tests/events_test" >"$out/events.log" 2>&1
	st=$?
	grep '^not ok' "$out/events.log"
	result $st "perfex event encoding (libpfm4, Haswell to Zen 4), hybrid CPU binding"
else
	skip "perfex event encoding" "built without libpfm4"
fi

# events_test's log $1: its failures shown, and each PMU of $2 run (its
# "ok N PMU" line); the status $3 (the run's), or 1 if a PMU did not run.
events_ran() {	# log pmus status
	ran_st=$3
	grep '^not ok' "$1"
	for pmu in $2; do
		grep -q "^ok [0-9]* $pmu$" "$1" || { echo "# $pmu: no result"; ran_st=1; }
	done
	return $ran_st
}

# Debian 13's libpfm4 (4.13.0+git99: Alder Lake's adl_glc and adl_grt,
# Zen 5's amd64_fam1ah_zen5): events_test and perfex linked statically
# with it, unpacked (not installed) in LIBPFM13_ROOT (scripts/setup.sh:
# $PERFCTR_CACHE/libpfm4-trixie/root).  The three PMUs must run there,
# not be skipped.
name="perfex event encoding (Debian 13's libpfm4: adl_glc, adl_grt, amd64_fam1ah_zen5)"
pfm13=${LIBPFM13_ROOT:-}
if [ -z "$pfm13" ] || [ ! -f "$pfm13/usr/include/perfmon/pfmlib.h" ]; then
	skip "$name" "no LIBPFM13_ROOT (Debian 13's libpfm4 unpacked)"
else
	mkdir -p "$out/pfm13/include"
	ln -sfn "$pfm13/usr/include/perfmon" "$out/pfm13/include/perfmon"
	log=$out/build-pfm13.log
	# glibc's warnings about getpwnam() & co. in a static link are not ours.
	make -s -C "$src" OUTPUT="$out/pfm13/" LIBPFM=1 \
		CFLAGS="-O2 -g -Werror -I$out/pfm13/include" \
		LDFLAGS="-static -L$pfm13/usr/lib/x86_64-linux-gnu" \
		"$out/pfm13/tests/events_test" "$out/pfm13/perfex" 2>&1 |
		grep -v "statically linked applications requires\|in function" >"$log"
	st=0
	[ -s "$log" ] && { cat "$log"; st=1; }
	[ -x "$out/pfm13/tests/events_test" ] || st=1
	if [ $st -eq 0 ]; then
		LIBPFM_FORCE_PMU=amd64_fam17h_zen2 "$out/pfm13/tests/events_test" \
			>"$out/events-pfm13.log" 2>&1
		events_ran "$out/events-pfm13.log" "adl_glc adl_grt amd64_fam1ah_zen5" $?
		st=$?
	fi
	result $st "$name"
fi

# POWER8-10: events_test for ppc64le, linked statically with Debian's
# ppc64el libpfm4 (libpfm4-dev:ppc64el; PPC64LE_LIBPFM=.../libpfm.a for
# one unpacked elsewhere, its headers in the usr/include beside its
# usr/lib), run under qemu-user.  Its pfmlib.h is that of every arch.
name="perfex event encoding (libpfm4, POWER8-10, under qemu-user)"
pfm_a=${PPC64LE_LIBPFM:-/usr/lib/powerpc64le-linux-gnu/libpfm.a}
pfm_inc=${pfm_a%/lib/*}/include
missing=
command -v powerpc64le-linux-gnu-gcc >/dev/null || missing="$missing powerpc64le-linux-gnu-gcc,"
[ -f "$pfm_a" ] && [ -f "$pfm_inc/perfmon/pfmlib.h" ] ||
	missing="$missing $pfm_a and $pfm_inc/perfmon (libpfm4-dev:ppc64el),"
command -v qemu-ppc64le-static >/dev/null || missing="$missing qemu-ppc64le-static,"
if [ -n "$missing" ]; then
	skip "$name" "no${missing%,}"
else
	# Only perfmon/ of that include directory: not the host's C headers.
	mkdir -p "$out/ppc64le-pfm/include"
	ln -sfn "$pfm_inc/perfmon" "$out/ppc64le-pfm/include/perfmon"
	log=$out/build-ppc64le-pfm.log
	make -s -C "$src" OUTPUT="$out/ppc64le-pfm/" CC=powerpc64le-linux-gnu-gcc LIBPFM=1 \
		CFLAGS="-O2 -g -Werror -I$out/ppc64le-pfm/include" \
		LDFLAGS="-static -L${pfm_a%/*}" "$out/ppc64le-pfm/tests/events_test" >"$log" 2>&1
	st=$?
	[ -s "$log" ] && { cat "$log"; st=1; }
	if [ $st -eq 0 ]; then
		EVENTS_TEST_RUNNER=qemu-ppc64le-static qemu-ppc64le-static \
			"$out/ppc64le-pfm/tests/events_test" >"$out/events-ppc64le.log" 2>&1
		events_ran "$out/events-ppc64le.log" "power8 power9 power10" $?
		st=$?
		grep -q '^1\.\.[1-9]' "$out/events-ppc64le.log" || st=1
	fi
	result $st "$name"
fi

# perfex(1)'s examples: every event list through libpfm4's PMUs of the
# CPUs the example's comment names (Intel: Nehalem to Sapphire Rapids;
# AMD: Zen 2 to 5; Alder Lake: adl_grt, adl_glc by core type; POWER:
# power9, under qemu-user where the ppc64le build above ran; no comment:
# the Intel and AMD ones).
# A PMU this libpfm4 lacks is skipped, said so.
name="perfex(1)'s examples: their events valid on the PMUs they claim (libpfm4's forced PMUs)"
if [ -x "$out/gcc/tests/events_test" ]; then
	intel="nhm snb hsw skl icl spr"
	amd="amd64_fam17h_zen2 amd64_fam19h_zen3 amd64_fam19h_zen4 amd64_fam1ah_zen5"
	# Debian 13's libpfm4 where it was built above: its PMUs are a superset.
	x86=$out/gcc
	[ -x "$out/pfm13/tests/events_test" ] && [ -x "$out/pfm13/perfex" ] && x86=$out/pfm13
	sed -n '/^\.SH EXAMPLES/,/^\.SH [^E]/p' "$src/Documentation/perfex.1" |
		sed -n 's/\\-/-/g; s/^\$ //p' | grep -- ' -e ' >"$out/examples.txt"
	st=0 checked=0
	while read -r line; do
		events=$(echo "${line%%#*}" |
			awk '{ for (i = 1; i < NF; i++) if ($i == "-e") print $(i + 1) }')
		case $line in
		*'#'*Intel*) pmus=$intel ;;
		*'#'*AMD*) pmus=$amd ;;
		*'#'*'Alder Lake E-cores'*) pmus=adl_grt ;;
		*'#'*'Alder Lake P-cores'*) pmus=adl_glc ;;
		*'#'*POWER*) pmus=power9 ;;
		*) pmus="$intel $amd" ;;
		esac
		for pmu in $pmus; do
			case $pmu in
			power*) bin=$out/ppc64le-pfm/tests/events_test run=qemu-ppc64le-static ;;
			*) bin=$x86/tests/events_test run= ;;
			esac
			if [ ! -x "$bin" ] || { [ -z "$run" ] &&
				! LIBPFM_FORCE_PMU=$pmu "$x86/perfex" -l 2>/dev/null |
				grep -q "^PMU $pmu "; }; then
				echo "# $pmu: no such libpfm4 PMU or build here, not checked: $line"
				continue
			fi
			checked=$((checked + 1))
			if ! msg=$(LIBPFM_FORCE_PMU=$pmu $run "$bin" --check $events); then
				echo "# $pmu: $msg: $line"
				st=1
			fi
		done
	done <"$out/examples.txt"
	[ "$checked" -gt 0 ] || { echo "# no example checked"; st=1; }
	result $st "$name"
else
	skip "$name" "built without libpfm4"
fi

echo "1..$n"
echo "# host: $((n - fails - skips)) passed, $fails failed, $skips skipped (output in $out)"
[ $fails -eq 0 ]
