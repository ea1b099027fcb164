#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The result parsers (scripts/report-lib.sh; papi-guest.sh's papi_report)
# on small made-up consoles and kunit.py outputs, scripts/tests/report/:
# each group's passed, failed and skipped counts must be exactly the ones
# expected -- a KTAP "# SKIP" is a skip, not a pass, and a "not ok # SKIP"
# a failure; a KUnit case kunit.py reports skipped is a skip; a
# perfctr-selftest SKIP is a skip, and a failure where the check must
# run; a program that died before its plan, its summary or its status is
# a failure -- and make check's run_group and total must not hide a group
# that died.  No kernel, no cache: seconds.  Prints "ok"/"not ok" lines
# and "report parsers: N passed, N failed", and appends "report parsers
# N N" to $RESULTS when set.
# MUST_RUN, set below, is report-lib.sh's; the groups' commands below are
# bash -c scripts, their $1 theirs.
# shellcheck disable=SC2034,SC2016
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
fx=$TOP/scripts/tests/report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
outer=${RESULTS:-}
. "$TOP/scripts/report-lib.sh"
. "$TOP/scripts/papi-guest.sh"

# The parsers' record(), as run-tests.sh's: into this script's own file.
RESULTS=$tmp/results
record() { echo "$1 $2 $3 $4 ${5:-0}" >> "$RESULTS"; }
p=0 f=0
# A parser run: its results file and its output afresh; under set -e
# and pipefail, as run-tests.sh and try.sh run the parsers.
run() {	# command...
	: > "$RESULTS"
	(set -e; "$@") > "$tmp/out" 2>&1
}
# The run's results file must be EXPECTED exactly (one line a group:
# "LABEL SUITE PASSED FAILED SKIPPED"), and each LINE must be in its
# output.
expect() {	# what expected [line...]
	local what=$1 want=$2 got line bad=
	shift 2
	got=$(cat "$RESULTS")
	[[ $got == "$want" ]] || bad=1
	for line in "$@"; do
		grep -qxF -- "$line" "$tmp/out" || { bad=1; echo "#   no line: $line"; }
	done
	if [[ -z $bad ]]; then
		echo "report: ok - $what"; p=$((p + 1))
	else
		echo "report: not ok - $what"; f=$((f + 1))
		echo "#   expected: ${want//$'\n'/ | }"
		echo "#   got:      ${got//$'\n'/ | }"
		sed 's/^/#   | /' "$tmp/out" | tail -20
	fi
}

# KTAP: the runner's lines and the tests nested in them (none required).
MUST_RUN=
run ktap_report "$fx/ktap.console" x86_64/max 'T64: ' kselftest-runner
expect "KTAP: a program's \"ok 2 ... # SKIP\" is a skip" \
	"x86_64/max kselftest-runner 1 0 1"
run ktap_report "$fx/ktap.console" x86_64/max 'T64: # ' kselftest
expect "KTAP: # SKIP, # skip and # SKIPPED skip; not ok # SKIP fails; 'skip' in a name passes" \
	"x86_64/max kselftest 3 1 3"
# The required tests: a skipped one fails, a missing one too, a passed
# one (its TAP "- " aside) counts as passed.
MUST_RUN='
x86_64/* kselftest pmc_counts
x86_64/max kselftest inherit_tsc
x86_64/max kselftest no_such_test
ppc64/* kselftest fast_read
'
run ktap_report "$fx/ktap.console" x86_64/max 'T64: # ' kselftest
expect "KTAP: a required test's SKIP and absence fail" \
	"x86_64/max kselftest 3 3 2" \
	"x86_64/max kselftest: not ok - pmc_counts skipped but must run on x86_64/max" \
	"x86_64/max kselftest: not ok - no_such_test did not run but must run on x86_64/max"
MUST_RUN=
# A program that died before its plan (LIB: no "1..N"), one that died
# before its last planned result (MRK: 2 of 4).
run ktap_report "$fx/ktap-died.console" i386/pentium 'LIB: ' libperfctr
expect "KTAP: a program that died before its plan fails" \
	"i386/pentium libperfctr 1 1 1" \
	"i386/pentium libperfctr: not ok - ran 2 of 0 planned tests"
run ktap_report "$fx/ktap-died.console" i386/pentium 'MRK: ' marker
expect "KTAP: a program that died before its last planned result fails" \
	"i386/pentium marker 2 1 0" \
	"i386/pentium marker: not ok - ran 2 of 4 planned tests"
run ktap_report "$fx/ktap-died.console" x86_64/max 'L32: ' libperfctr-ia32
expect "KTAP: a program that printed nothing fails" \
	"x86_64/max libperfctr-ia32 0 1 0" \
	"x86_64/max libperfctr-ia32: not ok - ran 0 of 0 planned tests"

# A program's TAP of its own (check-lib.sh's tools/lib/perfctr/run-tests.sh
# log): counted into p, f and s, which tap_log adds to.
tap_log_counts() {	# file
	local p=0 f=0 s=0
	tap_log "$1" "libperfctr host"
	record libperfctr host "$p" "$f" "$s"
}
run tap_log_counts "$fx/lib-host.log"
expect "TAP log: # SKIP lines are skips, comments and other lines no result" \
	"libperfctr host 2 1 2" "libperfctr host: # no page for perfctr_foo, public in the installed headers"
run tap_log_counts "$fx/lib-host-died.log"
expect "TAP log: a program that died before its plan fails" \
	"libperfctr host 2 1 1" "libperfctr host: not ok - ran 3 of no planned tests"

# KUnit: kunit.py parse's output, canned.
run kunit_summary x86_64/max "$(cat "$fx/kunit-skip.out")"
expect "KUnit: a skipped case is a skip, a failed one a failure" \
	"x86_64/max kunit 3 1 1"
MUST_RUN='x86_64/max kunit grant_rdpmc
x86_64/max kunit detect_generic'
run kunit_summary x86_64/max "$(cat "$fx/kunit-skip.out")"
expect "KUnit: a required case that skipped fails" \
	"x86_64/max kunit 3 2 0" \
	"x86_64/max kunit: not ok - grant_rdpmc skipped but must run on x86_64/max"
MUST_RUN=
run kunit_summary x86_64/max "$(cat "$fx/kunit-died.out")"
expect "KUnit: a run that died mid-suite (crashed, errors) fails" \
	"x86_64/max kunit 1 3 0" \
	"x86_64/max kunit: not ok - no complete KUnit run in the console"
run kunit_summary x86_64/max "$(cat "$fx/kunit-none.out")"
expect "KUnit: no summary from kunit.py fails" \
	"x86_64/max kunit 0 1 0" \
	"x86_64/max kunit: not ok - no complete KUnit run in the console"
run kunit_summary x86_64/max "Testing complete. Ran 4 tests: passed: 4, skipped: 1"
expect "KUnit: counts that do not add up to the run fail" \
	"x86_64/max kunit 4 1 1"
# kunit_report through a stand-in kunit.py that prints the canned output
# (run-tests.sh's call: console, name, kernel tree).
mkdir -p "$tmp/src/tools/testing/kunit"
printf 'import sys\nsys.stdout.write(open(sys.argv[2]).read())\nsys.exit(1)\n' \
	> "$tmp/src/tools/testing/kunit/kunit.py"
run kunit_report "$fx/kunit-skip.out" i386/pentium "$tmp/src"
expect "KUnit: kunit_report reads kunit.py parse's output (its exit status aside)" \
	"i386/pentium kunit 3 1 1" \
	"i386/pentium kunit: [SKIPPED] grant_rdpmc"

# perfctr-selftest: ppc64 must PASS instructions (the default MUST_RUN).
MUST_RUN=$MUST_RUN_DEFAULT
run selftest_report "$fx/selftest.console" ppc64/POWER9 selftest
expect "perfctr-selftest: the instructions check skipped on ppc64 fails" \
	"ppc64/POWER9 selftest 1 2 1" \
	"ppc64/POWER9 selftest: not ok - instructions skipped but must run on ppc64/POWER9"
# i386/pentium: a model without an emulated PMU, so nothing required.
run selftest_report "$fx/selftest.console" i386/pentium selftest
expect "perfctr-selftest: SKIP is a skip where no check is required" \
	"i386/pentium selftest 1 1 2"
run selftest_report "$fx/selftest-died.console" i386/pentium selftest
expect "perfctr-selftest: a run that died before its status fails" \
	"i386/pentium selftest 1 1 1" \
	"i386/pentium selftest: not ok - perfctr-selftest exited (no status)"
run selftest_report "$fx/ktap.console" try/x86_64-tcg selftest
expect "perfctr-selftest: no check at all fails" \
	"try/x86_64-tcg selftest 0 1 0" \
	"try/x86_64-tcg selftest: not ok - perfctr-selftest printed no check"

# PAPI: papi_perfctr_test's TAP and two ctests (an x86_64 guest whose
# CPU model has no PMU: run-tests.sh's x86_pmu_model names none).
# shellcheck disable=SC2034 # papi_report's globals
label=x86_64 cpu=max arch=x86_64 PAPI_CTESTS="first zero_named"
x86_pmu_model() { :; }
run papi_report "$fx/papi.console"
expect "PAPI: # SKIP and a ctest's SKIPPED are skips; not ok # SKIP and a failed exit fail" \
	"x86_64/max papi-utils 5 0 0
x86_64/max papi-perfctr 1 2 2
x86_64/max papi-ctests 1 0 1"
# Without the run that has no PAPI_PERFCTR, the opt-in check fails.
grep -v '^OFF\|EXIT OFF' "$fx/papi.console" > "$tmp/papi-noopt.console"
run papi_report "$tmp/papi-noopt.console"
expect "PAPI: the component not disabled without PAPI_PERFCTR=1 fails" \
	"x86_64/max papi-utils 4 1 0
x86_64/max papi-perfctr 1 2 2
x86_64/max papi-ctests 1 0 1" \
	"x86_64/max papi-utils: not ok - perfctr opt-in: disabled without PAPI_PERFCTR=1: papi_component_avail's exit status missing"

# make check's groups: one that dies without recording (a die()), or
# after recording only passes, records "NAME setup 0 1"; one that recorded
# its failure, or passed, records nothing more.
run run_group g1 bash -c 'exit 1'
expect "run_group: a group that died before recording anything fails" \
	"g1 setup 0 1" "g1 setup: not ok - exited 1 with no failure recorded"
run run_group g2 bash -c 'echo "g2 x 5 0 1" >> "$1"; exit 2' sh "$RESULTS"
expect "run_group: a group that exited non-zero after passes only fails" \
	"g2 x 5 0 1
g2 setup 0 1"
run run_group g3 bash -c 'echo "g3 x 5 1" >> "$1"; exit 1' sh "$RESULTS"
expect "run_group: a group that recorded its failure is left as it is" "g3 x 5 1"
run run_group g4 bash -c 'echo "g4 x 5 0 2" >> "$1"' sh "$RESULTS"
expect "run_group: a group that passed is left as it is" "g4 x 5 0 2"
# The total: skips apart, a four-column line's skipped 0, the last line
# "N passed, N failed, N skipped" alone.
printf 'a b 5 0 2\nc d 3 1\ne f 0 0 4\n' > "$tmp/total"
results_total "$tmp/total" > "$tmp/out"
if [[ $(tail -1 "$tmp/out") == "8 passed, 1 failed, 6 skipped" ]] &&
   grep -qxF '  c d: 3 passed, 1 failed, 0 skipped' "$tmp/out"; then
	echo "report: ok - the total counts skips apart: \"8 passed, 1 failed, 6 skipped\""
	p=$((p + 1))
else
	echo "report: not ok - the total of $(paste -sd' ' "$tmp/total"):"
	sed 's/^/#   | /' "$tmp/out"
	f=$((f + 1))
fi

echo "report parsers: $p passed, $f failed"
if [[ -n $outer ]]; then echo "report parsers $p $f" >> "$outer"; fi
((f == 0))
