# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The parsers of the guests' results: KTAP (the kselftests, libperfctr's
# tests), kunit.py parse's output and perfctr-selftest's lines, each
# counting passed, failed and skipped apart (a skip is not a pass), and
# the tests that must run, not skip, on a given machine.  Sourced by
# run-tests.sh, try.sh, check-lib.sh and check-report.sh (which runs them
# on scripts/tests/report/'s console fixtures); record() is the caller's:
#   record LABEL SUITE PASSED FAILED [SKIPPED]
# appends one line of those five to $RESULTS (check.sh's total).

# Tests that must run where listed: a skip of one is a failure ("not ok -
# NAME skipped but must run on LABEL/CPU"), and so is its absence.  One
# entry a line, "LABEL/CPU-GLOB SUITE NAME":
# - LABEL/CPU-GLOB: a glob on the group's name as run-tests.sh prints it
#   (x86_64/max, ppc64/POWER9, i386/pentium3, ...; try.sh's are
#   try/x86_64-kvm, try/x86_64-tcg);
# - SUITE: the group's suite: selftest (NAME is a perfctr-selftest check,
#   which must print "PASS NAME: ..."), kunit (NAME is a KUnit case or
#   parameter as kunit.py parse prints it, which must be [PASSED]), or a
#   KTAP group (kselftest, kselftest-runner, kselftest-ia32, libperfctr,
#   libperfctr-ia32, marker: NAME is the test's description, the text
#   after "ok N " and before any " # " directive, which must be "ok"
#   without SKIP);
# - NAME: the rest of the line (it may hold spaces).
# ppc64 (pseries and powernv): QEMU counts instructions exactly there, so
# perfctr-selftest's instructions check must pass (and perfctr 2.7's
# self and signal must count: run-tests.sh, p27_report).  x86 under TCG
# counts on the PMU tools/qemu emulates, on the models listed below.
MUST_RUN_DEFAULT='
ppc64/* selftest instructions
'
# The x86 models whose PMU tools/qemu emulates: perfctr's PMC checks.
for _m in x86_64/max x86_64/Skylake-Client x86_64/EPYC x86_64-rt/max i386/pentium3 i386/athlon; do
	for _c in instructions cycles overflow inherit-pmc rdpmc-leak; do
		MUST_RUN_DEFAULT+="$_m selftest $_c"$'\n'
	done
done
# perfctr_pmc_test's cases where counters count: exact counts, the
# overflow interrupt, inheritance, revocation, another user's counts,
# forbidden CPUs (a sample of each part; a skip of one is a failure).
# athlon boots one CPU (run-tests.sh): no CPU to forbid there.
for _m in 'ppc64/*' x86_64/max x86_64/Skylake-Client x86_64/EPYC x86_64-rt/max i386/pentium3 \
	  i386/athlon; do
	for _c in global.pmc_loop_instruction_count_is_exact \
		  global.pmc_next_users_state_sees_none_of_the_last_ones_counts \
		  global.imode_overflow_signals_once_then_iresume_continues \
		  global.inherit_pmc_children_sums_are_exact \
		  global.revoked_state_stays_stopped_when_access_is_raised_again \
		  forbidden.resume_on_a_forbidden_cpu_stops_the_counters_and_sends_sigill; do
		[[ $_m == i386/athlon && $_c == forbidden.* ]] && continue
		MUST_RUN_DEFAULT+="$_m kselftest $_c"$'\n'
	done
done
unset _m _c
MUST_RUN=$MUST_RUN_DEFAULT

# The names that must run in group LABEL/CPU SUITE, one a line.
must_run() {	# label/cpu suite
	local pat suite name
	while read -r pat suite name; do
		[[ -n $pat && $pat != \#* ]] || continue
		# shellcheck disable=SC2053 # $pat is a glob
		if [[ $1 == $pat && $2 == "$suite" ]]; then echo "$name"; fi
	done <<<"$MUST_RUN"
}

# The group's required tests against its results, STATUS NAME lines
# (STATUS: pass, fail or skip): a skipped one moves from the caller's
# skipped count s to its failed count f, a missing one adds a failure; a
# failed one is already counted.  Prints a "not ok" line for each.
must_run_check() {	# label/cpu suite results
	local name st
	while IFS= read -r name; do
		[[ -n $name ]] || continue
		st=$(awk -v n="$name" '{ s = $1; sub(/^[a-z]+ /, "") } $0 == n { print s; exit }' <<<"$3")
		case $st in
		pass | fail) ;;
		skip) echo "$1 $2: not ok - $name skipped but must run on $1"
		      s=$((s - 1)) f=$((f + 1)) ;;
		*) echo "$1 $2: not ok - $name did not run but must run on $1"
		   f=$((f + 1)) ;;
		esac
	done < <(must_run "$1" "$2")
}

# A TAP/KTAP result line's kind: pass, fail or skip.  "ok N desc # SKIP
# reason" is a skip, the directive in any case (and, as Test::Harness
# reads it, SKIPPED too); "not ok" is a failure whatever its directive,
# so that a skip cannot hide one.  Nothing for any other line.
tap_kind() {	# line
	local skip='^ok [0-9]+[^#]*#[[:space:]]*[Ss][Kk][Ii][Pp]'
	case $1 in
	not\ ok\ [0-9]*) echo fail ;;
	ok\ [0-9]*) if [[ $1 =~ $skip ]]; then echo skip; else echo pass; fi ;;
	esac
}

# A TAP/KTAP result line's description: after "ok N " or "not ok N " (and
# TAP's optional "- "), before the directive.
tap_desc() {	# line
	sed -E 's/^(not )?ok [0-9]+ *//; s/^- //; s/[[:space:]]*#.*//' <<<"$1"
}

# A program's TAP output, a file of its own (tools/lib/perfctr/run-tests.sh's,
# in check-lib.sh): its result and comment lines printed with NAME, and
# counted into the caller's p, f and s.  A run without its plan ("1..N",
# first or last) or with fewer results than planned fails: it died.
tap_log() {	# file name
	local line plan='' n=0
	while IFS= read -r line; do
		case $(tap_kind "$line") in
		pass) p=$((p + 1)) n=$((n + 1)) ;;
		fail) f=$((f + 1)) n=$((n + 1)) ;;
		skip) s=$((s + 1)) n=$((n + 1)) ;;
		*) case $line in
		   \#*) ;;
		   1..[0-9]*) plan=${line#1..} ;;
		   *) continue ;;
		   esac ;;
		esac
		echo "$2: $line"
	done < "$1"
	if [[ -z $plan ]] || ((n != plan)); then
		sed 's/^/# /' "$1" | tail -40
		echo "$2: not ok - ran $n of ${plan:-no} planned tests"
		f=$((f + 1))
	fi
}

# KTAP results of the console's lines starting with PREFIX: one group,
# NAME SUITE.  The run must have printed its plan ("PREFIX1..N", summed
# over the programs) and that many results: a program that died before
# its plan, or before its last result, is a failure.
ktap_report() {	# console name prefix suite
	local console=$1 name=$2 prefix=$3 suite=$4 p=0 f=0 s=0 line plan k results=
	while IFS= read -r line; do
		echo "$name $suite: $line"
		k=$(tap_kind "$line")
		case $k in
		pass) p=$((p + 1)) ;;
		fail) f=$((f + 1)) ;;
		skip) s=$((s + 1)) ;;
		esac
		if [[ -n $k ]]; then results+="$k $(tap_desc "$line")"$'\n'; fi
	done < <(sed -n "s/^$prefix\(\(not \)\?ok [0-9].*\)/\1/p" "$console")
	plan=$(sed -n "s/^$prefix""1\.\.\([0-9]*\)\$/\1/p" "$console" | awk '{ s += $1 } END { print s + 0 }')
	if ((plan == 0 || p + f + s != plan)); then
		echo "$name $suite: not ok - ran $((p + f + s)) of $plan planned tests"
		grep "^$prefix" "$console" | tail -20 || true
		f=$((f + 1))
	fi
	must_run_check "$name" "$suite" "$results"
	echo "$name $suite: $p passed, $f failed, $s skipped"
	record "$name" "$suite" "$p" "$f" "$s"
	return 0
}

# kunit.py parse's output (its stdout and stderr), for group NAME kunit:
# its [PASSED], [FAILED], [SKIPPED] and [CRASHED] lines, and its summary,
#   Testing complete. Ran N tests: passed: P, failed: F, crashed: C,
#   skipped: S, errors: E
# (kunit.py leaves out the counts that are 0).  Failed and crashed cases
# fail, skipped ones are skipped; no summary (kunit.py died, or found no
# KTAP), no case, errors (a plan not complete: the kernel died mid-run)
# or counts that do not add up fail too.
kunit_summary() {	# name parsed-output
	local name=$1 parsed=$2 summary total n k p=0 f=0 s=0 results
	# (|| true: no line at all is a result below, not set -e's exit.)
	grep -E '\[(PASSED|FAILED|SKIPPED|CRASHED)\]' <<<"$parsed" |
		sed "s|^\[[0-9:]*\] *|$name kunit: |" || true
	summary=$(grep 'Testing complete. Ran' <<<"$parsed" | tail -1) || true
	total=$(sed -n 's/.*Ran \([0-9]*\) tests.*/\1/p' <<<"$summary")
	for k in passed failed crashed skipped; do
		n=$(sed -n "s/.*[:,] $k: \([0-9]*\).*/\1/p" <<<"$summary")
		case $k in
		passed) p=${n:-0} ;;
		skipped) s=${n:-0} ;;
		*) f=$((f + ${n:-0})) ;;
		esac
	done
	echo "$name kunit: ${summary:-(no summary from kunit.py parse)}"
	if [[ -z $total || $total == 0 ]] || grep -q 'errors: [1-9]' <<<"$summary"; then
		echo "$name kunit: not ok - no complete KUnit run in the console"
		f=$((f + 1))
	elif ((p + f + s != total)); then
		echo "$name kunit: not ok - $p passed, $f failed and $s skipped are not the $total run"
		f=$((f + 1))
	fi
	# The cases' statuses, for the required ones.
	results=$(sed -nE 's/^(\[[0-9:]*\] *)?\[(PASSED|FAILED|SKIPPED|CRASHED)\] (.*[^ ])[[:space:]]*$/\2 \3/p' <<<"$parsed" |
		  sed 's/^PASSED /pass /; s/^SKIPPED /skip /; s/^[A-Z]* /fail /')
	must_run_check "$name" kunit "$results"
	echo "$name kunit: $p passed, $f failed, $s skipped"
	record "$name" kunit "$p" "$f" "$s"
	return 0
}

# The KUnit suites built into the kernel ran at boot; the kernel's own
# parser (tools/testing/kunit/kunit.py parse, in the kernel tree SRC)
# reads their KTAP from the console.
kunit_report() {	# console name src
	local parsed
	# kunit.py exits non-zero when a case failed: counted, not fatal.
	parsed=$(python3 "$3/tools/testing/kunit/kunit.py" parse "$1" 2>&1) || true
	kunit_summary "$2" "$parsed"
}

# perfctr-selftest's lines in a console log, prefixed "SEL: ", and its
# status, "PERFCTR-EXIT SEL N": PASS counts as passed, FAIL as failed,
# SKIP as skipped; the group fails too when the status is not 0 or there
# is no check or no status (the program or the guest died before its
# end).  The checks that must PASS here: must_run's for NAME SUITE.
selftest_report() {	# console name suite
	local console=$1 name=$2 suite=$3 p=0 f=0 s=0 n=0 line check st results=
	while IFS= read -r line; do
		echo "$name $suite: $line"
		# "PASS|FAIL|SKIP NAME: ...": the check's name, for must_run.
		check=${line#* } check=${check%%: *}
		case $line in
		PASS\ *) p=$((p + 1)) n=$((n + 1)) results+="pass $check"$'\n' ;;
		FAIL\ *) f=$((f + 1)) n=$((n + 1)) results+="fail $check"$'\n' ;;
		SKIP\ *) s=$((s + 1)) n=$((n + 1)) results+="skip $check"$'\n' ;;
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
	must_run_check "$name" "$suite" "$results"
	echo "$name $suite: $p passed, $f failed, $s skipped"
	record "$name" "$suite" "$p" "$f" "$s"
	return 0
}

# make check's groups (scripts/check.sh).  A group that exits non-zero
# with no failure among the lines it appended to $RESULTS -- none at all
# when it died before recording anything (a die(), a set -e exit, a
# missing file) -- records one, "NAME setup 0 1", so that the total cannot
# hide it.  Returns the group's status.
run_group() {	# name command...
	local name=$1 before st=0
	shift
	before=$(wc -l < "${RESULTS:?}")
	"$@" || st=$?
	((st == 0)) && return 0
	if ! tail -n +"$((before + 1))" "$RESULTS" | awk '$4 > 0 { bad = 1 } END { exit !bad }'; then
		echo "$name setup: not ok - exited $st with no failure recorded"
		echo "$name setup 0 1" >> "$RESULTS"
	fi
	return "$st"
}

# The results file's groups, then the total alone on the last line:
# "N passed, N failed, N skipped" (a line's fifth column, skipped, is 0
# where it is missing).
results_total() {	# results-file
	awk '{ printf "  %s %s: %d passed, %d failed, %d skipped\n", $1, $2, $3, $4, $5
	       p += $3; f += $4; s += $5 }
	     END { printf "%d passed, %d failed, %d skipped\n", p, f, s }' "$1"
}
