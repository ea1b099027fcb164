# SPDX-License-Identifier: GPL-2.0
# PAPI in the test guests: sourced by run-tests.sh for its "papi" mode
# (x86_64, i386, ppc64 and ppc32).  papi_pack builds PAPI with the perfctr component
# for the guest (tools/papi/build.sh --guest, cached under
# $CACHE/papi/guest-ARCH) and tools/papi/tests/papi_perfctr_test.c, and
# puts them, PAPI's utilities and a set of its ctests into the
# initramfs with a tests/run file for scripts/guest-init.c.
# papi_report reads the console: each program is a test, passed,
# skipped (with PAPI's reason) or failed.

# PAPI's ctests that are run: the component's operations (add, start,
# read, reset, stop, names, overflow, fork/exec, attach, threads, PAPI's
# software multiplexing, the timers) in tests that finish within a
# minute or two under TCG.  Not run, and why:
# - PAPI's own exclusions (run_tests_exclude.txt: burn, attach_target,
#   pthrtough2, timer_overflow, omptough);
# - CPU-wide counting (attach_cpu*, system_*): perfctr counts threads only;
# - another architecture (p4_lst_ins, earprofile); MPI and OpenMP ones;
# - events QEMU's PMUs do not count (POWER's and tools/qemu's x86 one
#   count instructions and cycles only): power9's PAPI_TOT_CYC is
#   PM_RUN_CYC (PMC2 event 0xf4) and the FP/branch/cache presets read 0
#   there (QEMU models instructions and cycles only: 0x02, 0x1e, 0xf0,
#   0xfa, 0xfe): calibrate, derived, inherit, kufrin, overflow_index,
#   overflow_twoevents, overflow_force_software, overflow_pthreads,
#   profile_pthreads, profile_twoevents, zero (which checks
#   PAPI_TOT_CYC), and the ones built on them (branches, sdsc*,
#   mendes-alt, johnmay2, tenth, case*...); second checks domains, and
#   QEMU ignores MMCR0's privilege freezes (FCS, FCP);
# - too slow under TCG for make check (over two minutes: every native
#   event of both components, heavy multiplexing): all_native_events,
#   failed_events, multiplex2, multiplex3_pthreads, max_multiplex.
PAPI_CTESTS="first low-level zero_named eventname describe destroy
 get_event_component cmpinfo hwinfo exeinfo memory dmem_info version realtime virttime
 reset remove_events code2name overflow overflow_single_event
 overflow_one_and_read overflow_allcounters fork fork2 exec forkexec zero_fork attach2
 attach3 zero_attach multiattach multiplex1 zero_pthreads thrspecific clockres_pthreads
 pthrtough"
# destroy fails (test_fail, not test_skip) when PAPI_TOT_CYC's component
# is disabled: it runs where the component counts (papi_counts).
# clockres_pthreads runs on ppc64 only: over two minutes on the x86
# debug kernels under TCG (14 s on ppc64).
PAPI_CTESTS_COUNTING="destroy"
PAPI_CTESTS_PPC64="clockres_pthreads"

# Whether the component counts on this guest: ppc64's POWER PMUs and the
# x86 CPU models tools/qemu gives a PMU (run-tests.sh's x86_pmu_model);
# not ppc32, whose CPUs libpfm4 does not know, nor an x86 model without.
papi_counts_here() {
	[[ $arch == ppc64 ]] ||
		[[ ($arch == x86_64 || $arch == i386) && -n $(x86_pmu_model "$cpu") ]]
}

# An instruction event of the guest's PMU, by libpfm4's name.
papi_insn_event() {
	case $arch/$(x86_pmu_model "$cpu") in
	ppc64/*) echo PM_RUN_INST_CMPL ;;
	*AMD*) echo RETIRED_INSTRUCTIONS ;;
	*) echo INST_RETIRED ;;
	esac
}

papi_ctests() {	# this guest's set
	local t
	for t in $PAPI_CTESTS; do
		if [[ " $PAPI_CTESTS_COUNTING " == *" $t "* ]]; then
			papi_counts_here || continue
		elif [[ " $PAPI_CTESTS_PPC64 " == *" $t "* ]]; then
			[[ $arch == ppc64 ]] || continue
		fi
		echo "$t"
	done
}

papi_pack() {	# the guest's root directory
	local root=$1 pd t
	[[ $label == x86_64 || $label == i386 || $label == ppc64 || $label == ppc32 ]] ||
		die "no PAPI build for $label (x86_64, i386, ppc64, ppc32)"
	pd=$(PERFCTR_SRC=$src MAKE_JOBS=${MAKE_JOBS:-2} bash "$TOP/tools/papi/build.sh" --guest "$arch") ||
		die "PAPI does not build for $arch"
	$cc -static -O2 -Wall -Wextra -I"$pd" -o "$root/tests/papi_perfctr_test" \
		"$TOP/tools/papi/tests/papi_perfctr_test.c" "$pd/libpapi.a" \
		-L"$pd/libpfm4/lib" -L"/usr/lib/$($cc -print-multiarch)" -lpfm ||
		die "papi_perfctr_test does not build"
	if [[ $mode == papi-bench ]]; then
		# The benchmark alone (tools/papi/tests/papi_bench.c).
		$cc -static -O2 -Wall -Wextra -I"$pd" -I"$pd/../../perfctr/include" \
			-I"$pd/../../perfctr/include/perfctr" \
			-o "$root/tests/papi_bench" \
			"$TOP/tools/papi/tests/papi_bench.c" "$pd/libpapi.a" \
			-L"$pd/libpfm4/lib" -L"/usr/lib/$($cc -print-multiarch)" -lpfm ||
			die "papi_bench does not build"
		printf '%s\n' "ENV PAPI_PERFCTR=1" "raw-bench ./papi_bench" > "$root/tests/run"
		return
	fi
	cp "$pd"/utils/papi_{component_avail,avail,native_avail} "$root/tests/"
	mkdir -p "$root/tests/ctests"
	for t in $(papi_ctests); do
		cp "$pd/ctests/$t" "$root/tests/ctests/" || die "PAPI's ctest $t was not built"
	done
	# attach2, attach3 and multiattach exec it from the PATH (/bin).
	cp "$pd/ctests/attach_target" "$root/bin/"
	{
		# A hung program is killed: a failure, not the end of the run.
		echo "ENV PERFCTR_TIMEOUT=${PAPI_TEST_TIMEOUT:-120}"
		echo "ENV HOME=/tmp"
		echo "ENV PATH=/bin"
		# perf_event is the default: perfctr only for a job that asks.
		echo "OFF ./papi_component_avail"
		echo "ENV PAPI_PERFCTR=1"
		echo "CMP ./papi_component_avail"
		echo "AVAIL ./papi_avail"
		# All events are enumerated, the instruction ones printed.
		echo "NATIVE ./papi_native_avail -i $(papi_insn_event)"
		echo "PT ./papi_perfctr_test"
		for t in $(papi_ctests); do
			echo "C:$t ./ctests/$t"
		done
	} > "$root/tests/run"
}

# One result per program; the group counts to $RESULTS.
papi_report() {	# console
	local console=$1 p=0 f=0 s=0 t rc out st why plan n ev
	papi_result() {	# suite status name detail
		echo "$label/$cpu $1: $2 - $3${4:+: $4}"
		case $2 in
		ok) p=$((p + 1)) ;;
		skip) s=$((s + 1)) ;;
		*) f=$((f + 1)) ;;
		esac
	}
	papi_counts() {	# suite
		echo "$label/$cpu $1: $p passed, $f failed, $s skipped"
		record "$label/$cpu" "$1" "$p" "$f" "$s"
		p=0 f=0 s=0
	}
	# The utilities: they run to the end, and papi_component_avail lists
	# the perfctr component: active where the guest's CPU has a PMU
	# (ppc64, x86 models with tools/qemu's), disabled with its reason
	# where it has none.
	for t in CMP AVAIL NATIVE; do
		rc=$(sed -n "s/^PERFCTR-EXIT $t \([0-9]*\)\$/\1/p" "$console")
		if [[ $rc == 0 ]]; then papi_result papi-utils ok "$t"
		else papi_result papi-utils "not ok" "$t" "exit status ${rc:-missing}"; fi
	done
	# (grep -c, not grep -q: pipefail would see the writer's SIGPIPE.)
	out=$(sed -n '/^CMP: Active components:/,$p' "$console")
	if papi_counts_here; then
		grep -A2 '^CMP: Name: *perfctr' <<<"$out" | sed "s|^|$label/$cpu papi-utils: # |"
		st="not ok" why="not among the active components"
		(($(grep -c '^CMP: Name: *perfctr' <<<"$out") == 1)) && st=ok why=
		papi_result papi-utils "$st" "perfctr component active" "$why"
		ev=$(papi_insn_event)
		# Named with the component's prefix (PAPI patch 0017): perf_event
		# has the same names.
		st="not ok" why="no perfctr:::$ev listed"
		(($(grep -c "^NATIVE: .*perfctr:::$ev" "$console") > 0)) && st=ok why=
		papi_result papi-utils "$st" "papi_native_avail lists perfctr:::$ev" "$why"
	else
		grep -A1 '^CMP: Name: *perfctr' "$console" | sed "s|^|$label/$cpu papi-utils: # |"
		# x86: the CPU model's want of counters; ppc32: libpfm4's of events.
		ev="Disabled: perfctr: the CPU model (.*) has no programmable counters"
		[[ $arch == ppc32 ]] && ev="Disabled: perfctr: libpfm4 has no events for the CPU model"
		st="not ok" why="no disabled reason matching '$ev'"
		(($(grep -A1 '^CMP: Name: *perfctr' "$console" | grep -c "$ev") == 1)) &&
			st=ok why=
		papi_result papi-utils "$st" "perfctr component disabled with a reason" "$why"
	fi
	# Without PAPI_PERFCTR=1 the component is disabled with the reason
	# that says how to select it, wherever the kernel has perfctr.
	ev="Disabled: perfctr: not selected for this job (PAPI_PERFCTR=1 selects it"
	st="not ok" why="no disabled reason matching '$ev' without PAPI_PERFCTR"
	(($(grep -A1 '^OFF: Name: *perfctr' "$console" | grep -cF "$ev") == 1)) && st=ok why=
	rc=$(sed -n 's/^PERFCTR-EXIT OFF \([0-9]*\)$/\1/p' "$console")
	[[ $rc == 0 ]] || st="not ok" why="papi_component_avail's exit status ${rc:-missing}"
	papi_result papi-utils "$st" "perfctr opt-in: disabled without PAPI_PERFCTR=1" "$why"
	papi_counts papi-utils
	# papi_perfctr_test: TAP (report-lib.sh's tap_kind: "ok N ... # SKIP"
	# skips, "not ok" fails whatever its directive).
	while IFS= read -r t; do
		case $(tap_kind "$t") in
		skip) papi_result papi-perfctr skip "${t#ok }" ;;
		pass) papi_result papi-perfctr ok "${t#ok }" ;;
		fail) papi_result papi-perfctr "not ok" "${t#not ok }" ;;
		esac
	done < <(sed -n 's/^PT: \(\(not \)\?ok [0-9].*\)/\1/p' "$console")
	rc=$(sed -n 's/^PERFCTR-EXIT PT \([0-9]*\)$/\1/p' "$console")
	plan=$(sed -n 's/^PT: 1\.\.\([0-9]*\)$/\1/p' "$console")
	n=$(grep -c '^PT: \(not \)\?ok ' "$console")
	if [[ $rc != 0 || -z $plan || $n != "$plan" ]]; then
		papi_result papi-perfctr "not ok" "papi_perfctr_test" "exit status ${rc:-missing}, $n of ${plan:-no planned} results"
		grep '^PT: ' "$console" | grep -v '^PT: \(not \)\?ok ' | head -10
	fi
	papi_counts papi-perfctr
	# PAPI's ctests: PASSED (exit 0) passes, SKIPPED (exit 0) skips with
	# the last line printed before it (test_skip() prints no reason of its
	# own), anything else fails: FAILED, another exit status, a signal
	# (128; the timeout's SIGALRM too), no verdict.
	for t in $(papi_ctests); do
		rc=$(sed -n "s/^PERFCTR-EXIT C:$t \([0-9]*\)\$/\1/p" "$console")
		out=$(grep "^C:$t: " "$console" | sed "s/^C:$t: //") || true
		if [[ $rc == 0 ]] && grep -q 'PASSED' <<<"$out" && ! grep -q 'FAILED' <<<"$out"; then
			papi_result papi-ctests ok "$t" "$(grep -o 'PASSED with WARNING' <<<"$out" | head -1)"
		elif [[ $rc == 0 ]] && grep -q 'SKIPPED' <<<"$out" && ! grep -q 'FAILED' <<<"$out"; then
			why=$(awk '/SKIPPED/ { print last; exit } NF { last = $0 }' <<<"$out")
			papi_result papi-ctests skip "$t" "${why:-no reason printed}"
		else
			papi_result papi-ctests "not ok" "$t" "exit status ${rc:-missing}"
			grep -v '^ *$' <<<"$out" | tail -8 | sed 's/^/    /'
		fi
	done
	papi_counts papi-ctests
}
