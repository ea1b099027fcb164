// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of perfex's event encoding (x86, libpfm4): run with
 * LIBPFM_FORCE_PMU=amd64_fam17h_zen2 so that libpfm4's tables do not
 * depend on the host CPU.  Prints TAP.
 *
 * The hybrid CPU restriction is tested on a fake sysfs tree.  libpfm4
 * cannot present a hybrid CPU's two core PMUs at once (LIBPFM_FORCE_PMU
 * forces one, and 4.13 has no hybrid PMU at all), so the core type of
 * those events is injected: perfex_pmu_core() is tested on the names
 * and descriptions of libpfm4's hybrid PMUs, perfex_events_cpus() on
 * events of the core types it gives.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../compiler.h"
#include "../events.h"

static int n, fails;

static void check(int ok, const char *name, const char *err)
{
	printf("%sok %d %s%s%s\n", ok ? "" : "not ", ++n, name, ok ? "" : " # ", ok ? "" : err);
	fails += !ok;
}

/* Write @text to @root/sys/bus/event_source/devices/@dev/cpus. */
static void put_cpus(const char *root, const char *dev, const char *text)
{
	static const char *const dirs[] = { "/sys", "/sys/bus", "/sys/bus/event_source",
					    "/sys/bus/event_source/devices" };
	char path[512];
	unsigned int i;
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		if (mkdir(path, 0755) && errno != EEXIST)
			perror(path);
	}
	snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/%s", root, dev);
	if (mkdir(path, 0755) && errno != EEXIST)
		perror(path);
	if (!text)
		return;
	snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/%s/cpus", root, dev);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return;
	}
	fputs(text, f);
	fclose(f);
}

static void rm_tree(const char *root)
{
	static const char *const paths[] = {
		"/sys/bus/event_source/devices/cpu_core/cpus",
		"/sys/bus/event_source/devices/cpu_atom/cpus",
		"/sys/bus/event_source/devices/cpu_lowpower/cpus",
		"/sys/bus/event_source/devices/cpu_core",
		"/sys/bus/event_source/devices/cpu_atom",
		"/sys/bus/event_source/devices/cpu_lowpower",
		"/sys/bus/event_source/devices/cpu",
		"/sys/bus/event_source/devices", "/sys/bus/event_source", "/sys/bus", "/sys", "",
	};
	char path[512];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		snprintf(path, sizeof(path), "%s%s", root, paths[i]);
		remove(path);
	}
}

/* @set holds exactly the CPUs of @list, [lo, hi) pairs ended by -1. */
static int set_is(const cpu_set_t *set, const int *list)
{
	cpu_set_t want;
	int cpu;

	CPU_ZERO(&want);
	for (; *list >= 0; list += 2)
		for (cpu = list[0]; cpu < list[1]; cpu++)
			CPU_SET(cpu, &want);
	return CPU_EQUAL(set, &want);
}

static void test_hybrid(void)
{
	static const int p_cpus[] = { 0, 8, 16, 17, -1 }, e_cpus[] = { 8, 16, -1 };
	static const int e_lp_cpus[] = { 8, 16, 20, 22, -1 }, p_low[] = { 2, 8, -1 };
	char hybrid[] = "/tmp/events_test.XXXXXX", plain[] = "/tmp/events_test.XXXXXX";
	struct perfex_events ev;
	cpu_set_t all, cpus, some, pset;
	char err[1024] = "";
	int i, r;

	check(perfex_pmu_core("adl_glc", "Intel AlderLake GoldenCove (P-Core)") == PERFEX_CORE_P,
	      "adl_glc is a P-core PMU", "");
	/* libpfm4's adl_grt says Goldencove, but E-core. */
	check(perfex_pmu_core("adl_grt", "Intel Alderlake Goldencove (E-core)") == PERFEX_CORE_E,
	      "adl_grt is an E-core PMU", "");
	check(perfex_pmu_core("mtl_cmt", "Intel MeteorLake Crestmont") == PERFEX_CORE_E &&
	      perfex_pmu_core("arl_lnc", NULL) == PERFEX_CORE_P,
	      "hybrid PMUs by name when the description does not say", "");
	check(perfex_pmu_core("amd64_fam17h_zen2", "AMD64 Fam17h Zen2") == PERFEX_CORE_ANY &&
	      perfex_pmu_core("skl", "Intel Skylake") == PERFEX_CORE_ANY &&
	      perfex_pmu_core("spr", "Intel SapphireRapid") == PERFEX_CORE_ANY,
	      "other core PMUs count on any core type", "");

	if (!mkdtemp(hybrid) || !mkdtemp(plain)) {
		perror("mkdtemp");
		check(0, "fake sysfs trees", strerror(errno));
		return;
	}
	put_cpus(hybrid, "cpu_core", "0-7,16\n");
	put_cpus(hybrid, "cpu_atom", "8-15\n");
	put_cpus(plain, "cpu", NULL);
	CPU_ZERO(&all);
	for (i = 0; i < 32; i++)
		CPU_SET(i, &all);

	memset(&ev, 0, sizeof(ev));
	ev.n = 1;
	ev.name[0] = "adl_glc::INST_RETIRED:ANY";
	ev.core[0] = PERFEX_CORE_P;
	r = perfex_events_cpus(&ev, hybrid, &all, &cpus, err, sizeof(err));
	check(r == 1 && set_is(&cpus, p_cpus), "P-core event: the cpu_core CPUs", err);
	pset = cpus;
	r = perfex_events_cpus(&ev, plain, &all, &cpus, err, sizeof(err));
	check(r == 0, "P-core event, not a hybrid CPU: no restriction", err);
	setenv("PERFEX_SYSFS_ROOT", hybrid, 1);
	r = perfex_events_cpus(&ev, NULL, &all, &cpus, err, sizeof(err));
	check(r == 1 && set_is(&cpus, p_cpus), "sysfs root from PERFEX_SYSFS_ROOT", err);
	unsetenv("PERFEX_SYSFS_ROOT");
	CPU_ZERO(&some);
	for (i = 2; i < 12; i++)
		CPU_SET(i, &some);
	r = perfex_events_cpus(&ev, hybrid, &some, &cpus, err, sizeof(err));
	check(r == 1 && set_is(&cpus, p_low), "intersection with the affinity", err);
	/* NULL: the test's own affinity. */
	if (sched_getaffinity(0, sizeof(some), &some) == 0) {
		CPU_AND(&some, &some, &pset);
		r = perfex_events_cpus(&ev, hybrid, NULL, &cpus, err, sizeof(err));
		check(CPU_COUNT(&some) ? r == 1 && CPU_EQUAL(&cpus, &some) : r < 0,
		      "intersection with the calling thread's affinity", err);
	}
	CPU_ZERO(&some);
	CPU_SET(9, &some);
	r = perfex_events_cpus(&ev, hybrid, &some, &cpus, err, sizeof(err));
	check(r < 0 && strstr(err, "INST_RETIRED") && strstr(err, "P-cores (cpu_core)") &&
	      strstr(err, "none"), "no allowed CPU of the core type refused", err);
	printf("# %s\n", err);

	ev.n = 2;
	ev.name[1] = "0x4300c0";
	ev.core[1] = PERFEX_CORE_ANY;
	r = perfex_events_cpus(&ev, hybrid, &all, &cpus, err, sizeof(err));
	check(r == 1 && set_is(&cpus, p_cpus), "P-core event and a raw one: the cpu_core CPUs",
	      err);

	ev.name[0] = "adl_grt::INST_RETIRED:ANY";
	ev.core[0] = PERFEX_CORE_E;
	r = perfex_events_cpus(&ev, hybrid, &all, &cpus, err, sizeof(err));
	check(r == 1 && set_is(&cpus, e_cpus), "E-core event: the cpu_atom CPUs", err);
	put_cpus(hybrid, "cpu_lowpower", "20-21\n");
	r = perfex_events_cpus(&ev, hybrid, &all, &cpus, err, sizeof(err));
	check(r == 1 && set_is(&cpus, e_lp_cpus), "E-core event: and the cpu_lowpower CPUs",
	      err);

	ev.name[1] = "adl_glc::BR_MISP_RETIRED:ALL_BRANCHES";
	ev.core[1] = PERFEX_CORE_P;
	r = perfex_events_cpus(&ev, hybrid, &all, &cpus, err, sizeof(err));
	check(r < 0 && strstr(err, "adl_grt::INST_RETIRED") &&
	      strstr(err, "adl_glc::BR_MISP_RETIRED") && strstr(err, "P-cores (cpu_core)") &&
	      strstr(err, "E-cores (cpu_atom)"), "P-core and E-core events refused", err);
	printf("# %s\n", err);
	r = perfex_events_cpus(&ev, plain, &all, &cpus, err, sizeof(err));
	check(r == 0, "both, not a hybrid CPU: no restriction", err);

	ev.core[0] = PERFEX_CORE_ANY;
	ev.core[1] = PERFEX_CORE_ANY;
	r = perfex_events_cpus(&ev, hybrid, &all, &cpus, err, sizeof(err));
	check(r == 0, "events of any core type: no restriction", err);
	rm_tree(hybrid);
	rm_tree(plain);
}

/* The IPC's events: libpfm4 names of instructions and core cycles only. */
static void test_ipc(void)
{
	struct perfctr_info info = { .cpu_type = PERFCTR_X86_AMD_FAM15H };
	struct perfctr_cpu_control cc;
	struct perfex_events ev;
	unsigned int inst = 9, cyc = 9;
	char err[256] = "";
	int r;

	memset(&cc, 0, sizeof(cc));
	memset(&ev, 0, sizeof(ev));
	r = perfex_add_event(&info, &cc, &ev, "0x4300c0", err, sizeof(err));
	r |= perfex_add_event(&info, &cc, &ev, "CYCLES_NOT_IN_HALT", err, sizeof(err));
	r |= perfex_add_event(&info, &cc, &ev, "RETIRED_INSTRUCTIONS", err, sizeof(err));
	check(!r && perfex_event_counts(&info, &cc, &ev, 0) == PERFEX_COUNTS_OTHER &&
	      perfex_event_counts(&info, &cc, &ev, 1) == PERFEX_COUNTS_CYCLES &&
	      perfex_event_counts(&info, &cc, &ev, 2) == PERFEX_COUNTS_INSTRUCTIONS,
	      "instructions and cycles told by name, raw events not", err);
	check(perfex_ipc_events(&info, &cc, &ev, &inst, &cyc) && inst == 2 && cyc == 1,
	      "IPC of RETIRED_INSTRUCTIONS / CYCLES_NOT_IN_HALT", "");

	memset(&cc, 0, sizeof(cc));
	memset(&ev, 0, sizeof(ev));
	r = perfex_add_event(&info, &cc, &ev, "RETIRED_INSTRUCTIONS", err, sizeof(err));
	r |= perfex_add_event(&info, &cc, &ev, "CYCLES_NOT_IN_HALT:k=1:u=0", err, sizeof(err));
	r |= perfex_add_event(&info, &cc, &ev, "CYCLES_NOT_IN_HALT:c=1", err, sizeof(err));
	r |= perfex_add_event(&info, &cc, &ev, "RETIRED_INSTRUCTIONS@0x40000000", err,
			      sizeof(err));
	check(!r && perfex_event_counts(&info, &cc, &ev, 1) == PERFEX_COUNTS_CYCLES &&
	      perfex_event_counts(&info, &cc, &ev, 2) == PERFEX_COUNTS_OTHER &&
	      perfex_event_counts(&info, &cc, &ev, 3) == PERFEX_COUNTS_OTHER,
	      "a cmask makes another event; a fixed counter is not told by name", err);
	check(!perfex_ipc_events(&info, &cc, &ev, &inst, &cyc),
	      "no IPC of user-mode instructions and kernel-mode cycles", "");

	/* Names of other models, as libpfm4 spells them in full. */
	memset(&cc, 0, sizeof(cc));
	memset(&ev, 0, sizeof(ev));
	ev.n = 4;
	ev.name[0] = "icl::INST_RETIRED:ANY:k=0:u=1:e=0:i=0:c=0:intx=0:intxcp=0";
	ev.code[0] = 0x510100;	/* the fixed counter's pseudo-encoding */
	ev.name[1] = "wsm::INST_RETIRED:ANY:k=0:u=1:e=0:i=0:c=0:t=0:intx=0:intxcp=0";
	ev.code[1] = 0x5101c0;
	ev.name[2] = "icl::CPU_CLK_UNHALTED:REF_TSC:k=0:u=1:e=0:i=0:c=0:intx=0:intxcp=0";
	ev.code[2] = 0x51003c;
	ev.name[3] = "skl::CPU_CLK_THREAD_UNHALTED:THREAD_P:k=0:u=1:e=0:i=0:c=0:t=0";
	ev.code[3] = 0x51003c;
	cc.nractrs = 4;
	check(perfex_event_counts(&info, &cc, &ev, 0) == PERFEX_COUNTS_OTHER &&
	      perfex_event_counts(&info, &cc, &ev, 1) == PERFEX_COUNTS_INSTRUCTIONS &&
	      perfex_event_counts(&info, &cc, &ev, 2) == PERFEX_COUNTS_OTHER &&
	      perfex_event_counts(&info, &cc, &ev, 3) == PERFEX_COUNTS_CYCLES,
	      "fixed-counter pseudo-encodings and reference cycles are not the IPC's", "");
	check(!perfex_ipc_events(&info, &cc, &ev, &inst, &cyc),
	      "no IPC of events of two PMUs", "");
}

int main(void)
{
	struct perfctr_info info = { .cpu_type = PERFCTR_X86_AMD_FAM15H };
	struct perfctr_cpu_control cc;
	struct perfex_events ev;
	char err[256] = "";
	int i, r;

	memset(&cc, 0, sizeof(cc));
	memset(&ev, 0, sizeof(ev));
	r = perfex_add_event(&info, &cc, &ev, "RETIRED_INSTRUCTIONS", err, sizeof(err));
	check(!r && cc.evntsel[0] == 0x004100c0 && cc.pmc_map[0] == 0 && cc.nractrs == 1,
	      "libpfm4 name: user mode, INT cleared, first counter", err);
	check(ev.core[0] == PERFEX_CORE_ANY, "libpfm4 name of a non-hybrid PMU: any core type",
	      "");
	r = perfex_add_event(&info, &cc, &ev, "0x4300c0@3", err, sizeof(err));
	check(!r && cc.evntsel[1] == 0x4300c0 && cc.pmc_map[1] == 3, "raw evntsel@pmc", err);
	r = perfex_add_event(&info, &cc, &ev, "RETIRED_INSTRUCTIONS:k=1:u=0", err, sizeof(err));
	check(!r && (cc.evntsel[2] & 0x30000) == 0x20000 && cc.pmc_map[2] == 1,
	      "kernel-mode modifier; next free counter", err);
	r = perfex_add_event(&info, &cc, &ev, "0x1000000c0", err, sizeof(err));
	check(!r && cc.evntsel_high[3] == 1 && cc.evntsel[3] == 0xc0,
	      "raw bits 32-63 to evntsel_high", err);
	r = perfex_add_event(&info, &cc, &ev, "NO_SUCH_EVENT", err, sizeof(err));
	check(r && strstr(err, "NO_SUCH_EVENT"), "unknown name refused", err);
	r = perfex_add_event(&info, &cc, &ev, "0x12/0x3/", err, sizeof(err));
	check(r && strstr(err, "invalid"), "bad raw syntax refused", err);
	for (i = 0; i < 2; i++)
		perfex_add_event(&info, &cc, &ev, "0x4300c0", err, sizeof(err));
	r = perfex_add_event(&info, &cc, &ev, "0x4300c0", err, sizeof(err));
	check(r && strstr(err, "too many"), "more events than counters refused", err);
	info.cpu_type = PERFCTR_X86_GENERIC;
	memset(&cc, 0, sizeof(cc));
	r = perfex_add_event(&info, &cc, &ev, "0x4300c0", err, sizeof(err));
	check(r && strstr(err, "no programmable counters"), "generic model refuses events", err);
	test_hybrid();
	test_ipc();
	printf("1..%d\n", n);
	return fails != 0;
}
