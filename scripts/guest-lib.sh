# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What scripts/run-tests.sh and scripts/try.sh share: libperfctr's static
# build for a guest, and the report of perfctr-selftest's lines.  Sourced
# after lib.sh; record() is the caller's (the RESULTS file).

# libperfctr, perfex and perfctr-selftest (tools/lib/perfctr), static,
# against the headers in $hdr, with libpfm4's event names where Debian
# has its static library for the build (x86_64).
build_lib() {	# out-dir cc
	rm -rf "$1"; mkdir -p "$1"
	local pfm=0
	[[ $2 == gcc ]] && pfm=1
	make -s -C "${PERFCTR_LIB_SRC:-$src/tools/lib/perfctr}" OUTPUT="$1/" CC="$2" LIBPFM=$pfm \
		KHDR_INCLUDES="-I$hdr/include" LDFLAGS=-static all tests >"$1.log" 2>&1 ||
		{ cat "$1.log" >&2; die "libperfctr does not build with $2"; }
}

# perfctr-selftest's lines in a console log, prefixed "SEL: ", and its
# status, "PERFCTR-EXIT SEL N": PASS counts as passed, FAIL as failed,
# SKIP neither; the group fails too when the status is not 0 or there is
# no line.  need_pass: a check that must PASS here (not SKIP).
selftest_report() {	# console label suite [need_pass]
	local console=$1 name=$2 suite=$3 need=${4:-} p=0 f=0 n=0 line st
	while IFS= read -r line; do
		echo "$name $suite: $line"
		case $line in
		PASS\ *) p=$((p + 1)) n=$((n + 1)) ;;
		FAIL\ *) f=$((f + 1)) n=$((n + 1)) ;;
		SKIP\ *) n=$((n + 1)) ;;
		esac
	done < <(sed -n 's/^SEL: //p' "$console")
	st=$(sed -n 's/^PERFCTR-EXIT SEL \([0-9]*\)$/\1/p' "$console" | tail -1)
	if ((n == 0)); then
		echo "$name $suite: not ok - perfctr-selftest printed no check"
		f=$((f + 1))
	elif [[ $st != 0 ]] && ((f == 0)); then
		echo "$name $suite: not ok - perfctr-selftest exited ${st:-(no status)}"
		f=$((f + 1))
	fi
	if [[ -n $need ]] && ! grep -q "^SEL: PASS $need: " "$console"; then
		echo "$name $suite: not ok - the $need check must pass here, not be skipped"
		f=$((f + 1))
	fi
	echo "$name $suite: $p passed, $f failed"
	record "$name" "$suite" "$p" "$f"
	return 0
}
