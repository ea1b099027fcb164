#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# PAPI's configure with the series (tools/papi/patches): the series
# applies to PAPI 7.2.0 with zero fuzz, and the options a
# PAPI user reaches for select the perfctr component, and configure
# refuses with a clear message what cannot build.  On a copy of the
# x86_64 guests' patched PAPI source (tools/papi/build.sh --guest
# x86_64, built by make check's PAPI boot before this), so that the
# cached build is left alone.  The options' build itself is make
# check's guest builds (build.sh configures with --with-perfctr-prefix).
#
#   check-papi-configure.sh     prints one line per case and
#                               "papi configure: N passed, N failed"
set -uo pipefail
. "$(dirname "$0")/lib.sh"

guest=$CACHE/papi/guest-x86_64
[[ -f $guest/papi/src/configure && -f $guest/perfctr/lib/libperfctr.a ]] ||
	die "no x86_64 guest PAPI build in $guest (tools/papi/build.sh --guest x86_64)"
work=$CACHE/papi/configure-check
rm -rf "$work"
mkdir -p "$work"
rsync -a --exclude '*.o' --exclude '*.a' --exclude '*.so*' "$guest/papi/src/" "$work/src/" ||
	die "cannot copy the PAPI source"
pfx=$guest/perfctr
pass=0 fail=0

result() {	# ok|not name
	if [[ $1 == ok ]]; then
		pass=$((pass + 1)); echo "papi configure: ok - $2"
	else
		fail=$((fail + 1)); echo "papi configure: not ok - $2"
		tail -5 "$work/configure.log" | sed 's/^/#   /'
	fi
}

# configure OPTIONS...: its exit status; its output in configure.log.
conf() {
	(cd "$work/src" && F77=false ./configure --with-pfm-incdir=/usr/include \
		--with-pfm-libdir="/usr/lib/$(gcc -print-multiarch)" "$@") \
		> "$work/configure.log" 2>&1
}

# 0. The series applies to the fetched PAPI 7.2.0 without fuzz (quilt
# refuses a hunk that fits only with fuzz).
pristine=$(bash "$TOP/tools/papi/fetch.sh" 2>"$work/fetch.log") || { cat "$work/fetch.log" >&2; pristine=; }
rm -rf "$work/series"
if [[ -n $pristine ]] && rsync -a --exclude '/.done-*' "$pristine/" "$work/series/" &&
   (cd "$work/series" && QUILT_PATCHES="$TOP/tools/papi/patches" \
	quilt --quiltrc /dev/null push -a -q --fuzz=0) > "$work/configure.log" 2>&1; then
	result ok "the series applies to PAPI 7.2.0 with zero fuzz"
else
	result not "the series applies to PAPI 7.2.0 with zero fuzz"
fi
rm -rf "$work/series"
# 1. --with-perfctr-prefix: the component beside perf_event, from there.
if conf --with-perfctr-prefix="$pfx" --with-virtualtimer=perfctr &&
   grep -q '_perfctr_vector' "$work/src/components_config.h" &&
   grep -q '_perf_event_vector' "$work/src/components_config.h" &&
   grep -qx "PERFCTR_INC_PATH = $pfx/include" "$work/src/Makefile" &&
   grep -qx "PERFCTR_LIB_PATH = $pfx/lib" "$work/src/Makefile" &&
   grep -q '^MAKEVER.*= *linux-pe' "$work/src/Makefile"; then
	result ok "--with-perfctr-prefix adds the perfctr component beside perf_event (linux-pe)"
else
	result not "--with-perfctr-prefix adds the perfctr component beside perf_event (linux-pe)"
fi
# 2. --with-perfctr-incdir/-libdir: the same, from two directories.
if conf --with-perfctr-incdir="$pfx/include" --with-perfctr-libdir="$pfx/lib" &&
   grep -q '_perfctr_vector' "$work/src/components_config.h" &&
   grep -qx "PERFCTR_LIB_PATH = $pfx/lib" "$work/src/Makefile"; then
	result ok "--with-perfctr-incdir and --with-perfctr-libdir imply --with-perfctr"
else
	result not "--with-perfctr-incdir and --with-perfctr-libdir imply --with-perfctr"
fi
# 3. A prefix without libperfctr 3: refused, saying what to install.
if ! conf --with-perfctr-prefix="$work/none" &&
   grep -q 'error: libperfctr 3 not found: no .*/none/include/libperfctr.h.*make -C tools/lib/perfctr install' \
	"$work/configure.log"; then
	result ok "a prefix without libperfctr 3 is refused with what to install"
else
	result not "a prefix without libperfctr 3 is refused with what to install"
fi
# 4. The perfctr virtual timer without the component: refused.
if ! conf --with-virtualtimer=perfctr &&
   grep -q 'error: --with-virtualtimer=perfctr needs --with-perfctr' "$work/configure.log"; then
	result ok "--with-virtualtimer=perfctr without the component is refused"
else
	result not "--with-virtualtimer=perfctr without the component is refused"
fi
# 5. The presets go with perfctr wherever it is built (component 0, the
# CPU presets' slot first); perf_event takes them at run time where
# perfctr is disabled (0007).
first_vector() { sed -n '/^struct papi_vectors \*_papi_hwd/{n;p;q}' "$work/src/components_config.h"; }
first_presets() { sed -n '/^int _papi_hwi_max_presets/{n;p;q}' "$work/src/components_config.h"; }
if conf --with-perfctr-prefix="$pfx" &&
   [[ $(first_vector) == *'&_perfctr_vector,'* && $(first_presets) == *PAPI_MAX_PRESET_EVENTS* ]]; then
	result ok "--with-perfctr makes perfctr component 0 with the CPU presets' slot"
else
	result not "--with-perfctr makes perfctr component 0 with the CPU presets' slot"
	echo "#   first vector: $(first_vector), first presets: $(first_presets)"
fi
# 6. --without-perfctr-presets keeps perf_event first, with the slot.
if conf --with-perfctr-prefix="$pfx" --without-perfctr-presets &&
   [[ $(first_vector) == *'&_perf_event_vector,'* && $(first_presets) == *PAPI_MAX_PRESET_EVENTS* ]] &&
   grep -q '_perfctr_vector' "$work/src/components_config.h"; then
	result ok "--without-perfctr-presets keeps perf_event component 0"
else
	result not "--without-perfctr-presets keeps perf_event component 0"
	echo "#   first vector: $(first_vector), first presets: $(first_presets)"
fi
rm -rf "$work"
echo "papi configure: $pass passed, $fail failed"
if [[ -n ${RESULTS:-} ]]; then echo "papi configure $pass $fail" >> "$RESULTS"; fi
((fail == 0))
