// SPDX-License-Identifier: GPL-2.0
/*
 * papi_perfctr_test: PAPI's perfctr component, checked where the
 * project's QEMU guests let it be checked.
 *
 * - The virtual timers (PAPI_get_virt_usec(), PAPI_get_virt_cyc(), the
 *   perfctr virtual TSC with --with-virtualtimer=perfctr): they advance
 *   over a spin and not over a sleep, and in a forked child that has
 *   not initialised PAPI again.  Everywhere.
 * - Exact instruction counts through the component, on the PMUs the
 *   project's QEMU emulates: POWER8-10 (pseries counts instructions in
 *   PMC5, with event 0x02 in PMC1-4 and with 0xfa in PMC4, cycles with
 *   0x1e in PMC1-4 and in PMC6) and x86 (tools/qemu: Intel's
 *   architectural counters, general and fixed, and AMD's).  A loop of n
 *   "bdnz" or n "loop" counts n plus a constant: the difference of two
 *   loop lengths must be exact.  QEMU ignores MMCR0's privilege freezes,
 *   so a POWER count may include the kernel's instructions (an
 *   interrupt): each length is counted several times and the least
 *   count taken, as the perfctr selftests do.  The events are libpfm4's:
 *   POWER9's PM_RUN_INST_CMPL (0x400fa on PMC4) and PM_INST_CMPL
 *   (0x10002 on PMC1), Intel's INST_RETIRED:ANY_P and
 *   INSTRUCTION_RETIRED, AMD's RETIRED_INSTRUCTIONS (plain and :u); the
 *   preset PAPI_TOT_INS (perfctr built as component 0); three events at
 *   once (with cycles: POWER's PM_CYC_ALT, 0x2001e on PMC2, as QEMU does
 *   not count PM_RUN_CYC's 0xf4; Intel's UNHALTED_REFERENCE_CYCLES, fixed
 *   counter 2; AMD's CPU_CLK_UNHALTED), an event the component must
 *   refuse (POWER's marked events need MMCRA, Intel's offcore response
 *   an extra MSR), and PAPI_read() of an event set in a forked child
 *   that did not initialise PAPI again (an error, not a fault).
 * - The presets where the component is disabled (patch 0007): with
 *   kernel.perfctr_access 0 (the guest runs as root), a fresh process
 *   (this program, re-executed) finds perfctr disabled and PAPI_TOT_INS
 *   perf_event's, and counts the loop's instructions through it (to
 *   1%: perf counts with the kernel's help).  The sysctl is restored.
 * - POWER9's L2/L3 events (units 6-9) count for every thread of the core
 *   and perfctr's kernel refuses them: the component refuses each at
 *   PAPI_add_event (PAPI_ENOSUPP), not at PAPI_start.
 * - PAPI_shutdown() and PAPI_library_init() again (PAPI's multiplex
 *   ctests do so between their cases): the component is enabled again
 *   and counts exactly.
 * Where the component is disabled (a CPU model with no PMU) the count
 * tests are skipped with its disabled reason.
 *
 * Output: TAP ("ok N name", "not ok N name", "ok N name # SKIP reason").
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "papi.h"

#define NTESTS		13
#define TRIES		15

static int test_no, failures, cidx;
static const PAPI_component_info_t *cinfo;

static void result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d %s", ok ? "" : "not ", ++test_no, name);
	if (fmt) {
		printf(ok ? " # " : " - ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	if (!ok)
		failures++;
}

static void skip(const char *name, const char *reason)
{
	printf("ok %d %s # SKIP %s\n", ++test_no, name, reason);
}

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Spin for @sec seconds of this thread's CPU time. */
static void spin(double sec)
{
	double end = now(CLOCK_THREAD_CPUTIME_ID) + sec;

	while (now(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

/* The virtual timers over a 0.3 s spin: the advance, and whether it is right. */
struct virt_spin {
	long long usec, cyc, u1, c1;
	double wall_usec;
};

static int virt_spin(struct virt_spin *v)
{
	long long u0 = PAPI_get_virt_usec(), c0 = PAPI_get_virt_cyc();
	double r0 = now(CLOCK_MONOTONIC);

	spin(0.3);
	v->u1 = PAPI_get_virt_usec();
	v->c1 = PAPI_get_virt_cyc();
	v->wall_usec = (now(CLOCK_MONOTONIC) - r0) * 1e6;
	v->usec = v->u1 - u0;
	v->cyc = v->c1 - c0;
	/* At least most of the spin, at most the wall-clock time and a tick. */
	return v->usec >= 250000 && v->usec <= v->wall_usec + 20000 && v->cyc > 0;
}

static void test_virt_timers(void)
{
	struct virt_spin v;
	long long u2, c2;
	int ok = virt_spin(&v);

	result(ok, "virtual timers advance over a 0.3 s spin",
	       "%lld us, %lld cycles (wall clock %.0f us)", v.usec, v.cyc, v.wall_usec);
	usleep(300000);
	u2 = PAPI_get_virt_usec();
	c2 = PAPI_get_virt_cyc();
	/* A sleep costs a few system calls of CPU time, not 0.3 s. */
	result(u2 - v.u1 < 30000 && c2 - v.c1 < v.cyc / 10,
	       "virtual timers do not advance over a 0.3 s sleep",
	       "%lld us, %lld cycles", u2 - v.u1, c2 - v.c1);
}

/*
 * A forked child that reads the virtual timers without initialising PAPI
 * anew: the parent's state is not mapped in it (VM_DONTCOPY), so the
 * component must not read through the parent's pointer (a SIGSEGV
 * before the component's fork handler); the child's own CPU time counts.
 */
static void test_fork_virt_timers(void)
{
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct virt_spin v;
		int ok = virt_spin(&v);

		printf("# child: %lld us, %lld cycles over a 0.3 s spin (wall clock %.0f us)\n",
		       v.usec, v.cyc, v.wall_usec);
		fflush(stdout);
		_exit(ok ? 0 : 2);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		result(0, "virtual timers in a forked child", "fork or waitpid failed");
		return;
	}
	result(WIFEXITED(status) && WEXITSTATUS(status) == 0, "virtual timers in a forked child",
	       WIFSIGNALED(status) ? "the child was killed by signal %d" : "the child's exit status %d",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

#if defined(__powerpc64__)
/* Exactly n + 1 instructions: mtctr, then n bdnz (n >= 1). */
static inline __attribute__((always_inline)) void loop(unsigned long n)
{
	__asm__ __volatile__("mtctr %0\n1:\tbdnz 1b" : : "r"(n) : "ctr");
}
#define HAVE_LOOP 1
#elif defined(__i386__) || defined(__x86_64__)
/* Exactly n LOOP instructions after the load of the count (n >= 1). */
static inline __attribute__((always_inline)) void loop(unsigned long n)
{
	__asm__ __volatile__("1:\tloop 1b" : "+c"(n));
}
#define HAVE_LOOP 1
#endif

#ifdef HAVE_LOOP
/*
 * The events each PMU's tests use, by libpfm4's names: two instruction
 * events (insn on a general counter), three events at once (two
 * instruction events, then cycles: on Intel the reference cycles, whose
 * encoding is fixed counter 2's), an event the component must refuse.
 */
struct pmu_events {
	const char *pmu;		/* libpfm4's PMU name, a prefix */
	const char *insn, *insn2;
	const char *three[3];
	const char *refused;		/* NULL: this PMU has none */
	int refused_err;
	const char *refused_why;
};

static const struct pmu_events pmu_table[] = {
	{ "power", "PM_RUN_INST_CMPL", "PM_INST_CMPL",
	  { "PM_RUN_INST_CMPL", "PM_INST_CMPL", "PM_CYC_ALT" },
	  "PM_MRK_INST_CMPL", PAPI_ENOSUPP, "a marked event (PM_MRK_INST_CMPL)" },
	/* The P6 family's two counters: both instruction events at once. */
#define P6_EVENTS "INST_RETIRED", "INST_RETIRED:u", { "INST_RETIRED", "INST_RETIRED:u", NULL }, \
	NULL, 0, "the P6's events need no extra MSR"
	{ "p6", P6_EVENTS }, { "pii", P6_EVENTS }, { "ppro", P6_EVENTS }, { "pm", P6_EVENTS },
	{ "amd64", "RETIRED_INSTRUCTIONS", "RETIRED_INSTRUCTIONS:u",
	  { "RETIRED_INSTRUCTIONS", "RETIRED_INSTRUCTIONS:u", "CPU_CLK_UNHALTED" },
	  NULL, 0, "AMD's core events need no extra MSR" },
	/* Intel: libpfm4's core PMUs (skl, icl, ...) and the architectural one. */
	{ "", "INST_RETIRED:ANY_P", "INSTRUCTION_RETIRED",
	  { "INST_RETIRED:ANY_P", "INSTRUCTION_RETIRED", "UNHALTED_REFERENCE_CYCLES" },
	  "OFFCORE_RESPONSE_0:DMND_DATA_RD:ANY_RESPONSE", PAPI_ECOMBO,
	  "an offcore response event (an extra MSR)" },
};

static const struct pmu_events *ev;

/* The perfctr component's PMU, as libpfm4 names it. */
static const char *pmu_name(void)
{
	return cinfo->pmu_names[0] ? cinfo->pmu_names[0] : "";
}

static const struct pmu_events *pmu_events(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(pmu_table) / sizeof(pmu_table[0]); i++)
		if (strncmp(pmu_name(), pmu_table[i].pmu, strlen(pmu_table[i].pmu)) == 0)
			return &pmu_table[i];
	return NULL;
}
#endif

#ifdef HAVE_LOOP
/* The least count of event @k of @set over a loop of @n, of TRIES tries. */
static long long min_count(int set, int k, unsigned long n)
{
	long long a[4], b[4], d, best = -1;
	int t;

	for (t = 0; t < TRIES; t++) {
		if (PAPI_read(set, a) != PAPI_OK)
			return -1;
		loop(n);
		if (PAPI_read(set, b) != PAPI_OK)
			return -1;
		d = b[k] - a[k];
		if (best < 0 || d < best)
			best = d;
	}
	return best;
}

/* A started event set of the one event @code in *@set. */
static int start_one(int code, int *set)
{
	int ret = PAPI_create_eventset(set);

	if (ret == PAPI_OK)
		ret = PAPI_add_event(*set, code);
	if (ret == PAPI_OK)
		ret = PAPI_start(*set);
	return ret;
}

/* Event @ev, the perfctr component's: counts of loops of 10 and 100010. */
static void exact_counts(const char *name, const char *ev)
{
	unsigned long n0 = 10, n1 = 100010;
	long long d0, d1;
	int set = PAPI_NULL, ret, code = 0;

	ret = PAPI_event_name_to_code(ev, &code);
	if (ret == PAPI_OK && PAPI_get_event_component(code) != cidx)
		ret = PAPI_ENOCMP;
	if (ret == PAPI_OK)
		ret = start_one(code, &set);
	if (ret != PAPI_OK) {
		result(0, name, "%s: %s", ev, PAPI_strerror(ret));
		return;
	}
	d0 = min_count(set, 0, n0);
	d1 = min_count(set, 0, n1);
	PAPI_stop(set, NULL);
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
	/* The constant (PAPI_read's own instructions) stays small. */
	result(d0 >= 0 && d1 - d0 == (long long)(n1 - n0) && d0 - (long long)n0 < 2000, name,
	       "%s: loop %lu: %lld, loop %lu: %lld, difference %lld (expected %lu)", ev,
	       n0, d0, n1, d1, d1 - d0, n1 - n0);
}

/*
 * Three events at once (POWER: on PMC4, PMC1 and PMC2; Intel: one
 * fixed), or the P6's two: two instruction events, then cycles.
 */
static void three_events(void)
{
	const char *name = "two instruction events (and cycles) at once";
	long long a[3], b[3], d[3] = { 0, 0, 1 };
	int set = PAPI_NULL, ret, i, n = ev->three[2] ? 3 : 2;

	printf("# %s, %s and %s\n", ev->three[0], ev->three[1],
	       ev->three[2] ? ev->three[2] : "no third (two counters)");
	ret = PAPI_create_eventset(&set);
	for (i = 0; i < n && ret == PAPI_OK; i++)
		ret = PAPI_add_named_event(set, ev->three[i]);
	if (ret == PAPI_OK)
		ret = PAPI_start(set);
	if (ret != PAPI_OK) {
		result(0, name, "event %d: %s", i, PAPI_strerror(ret));
		return;
	}
	PAPI_read(set, a);
	loop(1000000);
	PAPI_read(set, b);
	PAPI_stop(set, NULL);
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
	for (i = 0; i < n; i++)
		d[i] = b[i] - a[i];
	/* Both instruction counts see the loop (read a few instructions apart). */
	result(d[0] >= 1000000 && d[0] < 1100000 && d[1] >= 1000000 && d[1] < 1100000 &&
	       llabs(d[0] - d[1]) < 64 && d[2] > 0, name,
	       "instructions %lld and %lld, cycles %lld (-1: not counted) over a loop of 1000000",
	       d[0], d[1], n == 3 ? d[2] : -1LL);
}

/*
 * PAPI_INHERIT: a forked child's loop is in the parent's count once the
 * child is waited for (the children's sums, read from the page), and
 * not without it.  Kernel instructions (fork, exit, wait) are counted
 * too under QEMU: the loop is long enough to tell the two apart.
 */
static long long inherit_count(int inherit, unsigned long n)
{
	PAPI_option_t opt;
	long long a[1], b[1];
	int set = PAPI_NULL, ret, status;
	pid_t pid;

	ret = PAPI_create_eventset(&set);
	if (ret == PAPI_OK)
		ret = PAPI_assign_eventset_component(set, cidx);
	if (ret == PAPI_OK && inherit) {
		memset(&opt, 0, sizeof(opt));
		opt.inherit.eventset = set;
		opt.inherit.inherit = PAPI_INHERIT_ALL;
		ret = PAPI_set_opt(PAPI_INHERIT, &opt);
	}
	if (ret == PAPI_OK)
		ret = PAPI_add_named_event(set, ev->insn);
	if (ret == PAPI_OK)
		ret = PAPI_start(set);
	if (ret == PAPI_OK)
		ret = PAPI_read(set, a);
	if (ret != PAPI_OK)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		loop(n);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || PAPI_read(set, b) != PAPI_OK)
		return -1;
	PAPI_stop(set, NULL);
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
	return b[0] - a[0];
}

static void inherit_counts(void)
{
	unsigned long n = 10000000;
	long long with = inherit_count(1, n), without = inherit_count(0, n);

	result(with >= (long long)n && with < (long long)n + 5000000 && without >= 0 &&
	       without < (long long)n / 2, "PAPI_INHERIT counts a forked child's loop",
	       "child's loop %lu: %lld with PAPI_INHERIT, %lld without", n, with, without);
}

/*
 * An event set read in a forked child that has not initialised PAPI
 * again: the parent's state is not mapped there, so libperfctr reads by
 * the system call, which refuses the parent's state (EPERM): PAPI_read()
 * fails with an error instead of the child faulting.
 */
static void fork_read(void)
{
	const char *name = "PAPI_read() in a forked child without PAPI_library_init(): an error";
	long long v[1];
	int set = PAPI_NULL, ret, status = 0;
	pid_t pid;

	ret = PAPI_create_eventset(&set);
	if (ret == PAPI_OK)
		ret = PAPI_add_named_event(set, ev->insn);
	if (ret == PAPI_OK)
		ret = PAPI_start(set);
	if (ret != PAPI_OK) {
		result(0, name, "%s", PAPI_strerror(ret));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		ret = PAPI_read(set, v);
		printf("# child: PAPI_read: %s\n", PAPI_strerror(ret));
		fflush(stdout);
		_exit(ret == PAPI_OK ? 3 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = -1;
	PAPI_stop(set, NULL);
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
	result(status == 0, name,
	       WIFSIGNALED(status) ? "the child was killed by signal %d" :
	       "the child's exit status %d (3: PAPI_read() succeeded)",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

/*
 * An event perfctr cannot program is refused when it is added: POWER's
 * marked events need MMCRA, which perfctr keeps at zero; Intel's offcore
 * response events an extra MSR.
 */
static void refused_event(void)
{
	const char *name = "an event needing a register perfctr does not program is refused";
	int set = PAPI_NULL, ret;

	if (!ev->refused) {
		skip(name, ev->refused_why);
		return;
	}
	PAPI_create_eventset(&set);
	ret = PAPI_add_named_event(set, ev->refused);
	result(ret == ev->refused_err, name, "%s: PAPI_add_named_event: %s (expected %s)",
	       ev->refused_why, PAPI_strerror(ret), PAPI_strerror(ev->refused_err));
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
}
#define PERFCTR_ACCESS "/proc/sys/kernel/perfctr_access"

/*
 * The re-executed child of presets_fallback(): perfctr disabled,
 * PAPI_TOT_INS perf_event's and counting.  One line on stdout; exit 0 if
 * all holds.
 */
static int fallback_child(void)
{
	unsigned long n0 = 10, n1 = 100010;
	long long d0, d1, want = (long long)(n1 - n0);
	int set = PAPI_NULL, ret, pc, pe, comp;
	const PAPI_component_info_t *ci;

	ret = PAPI_library_init(PAPI_VER_CURRENT);
	if (ret != PAPI_VER_CURRENT) {
		printf("PAPI_library_init: %s\n", PAPI_strerror(ret));
		return 1;
	}
	pc = PAPI_get_component_index("perfctr");
	pe = PAPI_get_component_index("perf_event");
	ci = pc >= 0 ? PAPI_get_component_info(pc) : NULL;
	if (ci == NULL || !ci->disabled) {
		printf("the perfctr component is not disabled with perfctr_access 0\n");
		return 1;
	}
	comp = PAPI_get_event_component(PAPI_TOT_INS);
	if (PAPI_query_event(PAPI_TOT_INS) != PAPI_OK || comp != pe) {
		printf("PAPI_TOT_INS: %s, component %d (perf_event is %d)\n",
		       PAPI_strerror(PAPI_query_event(PAPI_TOT_INS)), comp, pe);
		return 1;
	}
	ret = start_one(PAPI_TOT_INS, &set);
	if (ret != PAPI_OK) {
		printf("PAPI_TOT_INS through perf_event: %s\n", PAPI_strerror(ret));
		return 1;
	}
	d0 = min_count(set, 0, n0);
	d1 = min_count(set, 0, n1);
	PAPI_stop(set, NULL);
	printf("perfctr disabled (%s); PAPI_TOT_INS perf_event's: loop %lu: %lld, loop %lu: %lld, difference %lld (expected %lld)\n",
	       ci->disabled_reason, n0, d0, n1, d1, d1 - d0, want);
	return d0 >= 0 && d1 - d0 >= want && d1 - d0 <= want + want / 100 ? 0 : 1;
}

/* perfctr disabled by kernel.perfctr_access 0: the presets go to perf_event. */
static void presets_fallback(void)
{
	const char *name = "perfctr disabled: PAPI_TOT_INS counts through perf_event";
	char old[32] = "", line[512] = "";
	int fd, p[2], status = -1;
	ssize_t n;
	pid_t pid;

	fd = open(PERFCTR_ACCESS, O_RDWR);
	if (fd < 0 || (n = read(fd, old, sizeof(old) - 1)) <= 0) {
		skip(name, "cannot read " PERFCTR_ACCESS);
		if (fd >= 0)
			close(fd);
		return;
	}
	old[n] = 0;
	if (pwrite(fd, "0\n", 2, 0) != 2) {
		skip(name, "cannot write " PERFCTR_ACCESS " (not root)");
		close(fd);
		return;
	}
	fflush(stdout);
	if (pipe(p) == 0 && (pid = fork()) >= 0) {
		if (pid == 0) {
			dup2(p[1], 1);
			close(p[0]);
			execl("/proc/self/exe", "papi_perfctr_test", "--presets-fallback", (char *)NULL);
			printf("cannot execute /proc/self/exe\n");
			_exit(127);
		}
		close(p[1]);
		n = read(p[0], line, sizeof(line) - 1);
		line[n > 0 ? n : 0] = 0;
		line[strcspn(line, "\n")] = 0;
		close(p[0]);
		if (waitpid(pid, &status, 0) != pid)
			status = -1;
	}
	if (pwrite(fd, old, strlen(old), 0) != (ssize_t)strlen(old))
		printf("# could not restore %s to %s", PERFCTR_ACCESS, old);
	close(fd);
	result(status == 0, name, "%s", line[0] ? line : "no word from the child");
}
/* Adds @a, then @b, to a new set: @b's PAPI_add_named_event() result. */
static int add_pair(const char *a, const char *b, int *first)
{
	int set = PAPI_NULL, ret;

	PAPI_create_eventset(&set);
	*first = PAPI_add_named_event(set, a);
	ret = *first == PAPI_OK ? PAPI_add_named_event(set, b) : *first;
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
	return ret;
}

/*
 * POWER9's L2/L3 units: PM_L2_LD_MISS (0x26080) and PM_L2_INST (0x36080)
 * are unit 6, core-wide; the kernel refuses them in a control, so the
 * component refuses each when it is added, with PAPI_ENOSUPP.
 */
static void cache_groups(void)
{
	const char *name = "POWER9: L2/L3 events are refused at PAPI_add_event";
	int one, two, f1, f2, i, p9 = 0;

	/* The component's PMU, as libpfm4 names it (the model string is QEMU's). */
	for (i = 0; i < PAPI_PMU_MAX; i++)
		if (cinfo->pmu_names[i] && strcmp(cinfo->pmu_names[i], "power9") == 0)
			p9 = 1;
	if (!p9) {
		skip(name, "the perfctr component's PMU is not libpfm4's power9");
		return;
	}
	one = add_pair("PM_L2_LD_MISS", "PM_RUN_INST_CMPL", &f1);
	two = add_pair("PM_RUN_INST_CMPL", "PM_L2_INST", &f2);
	result(f1 == PAPI_ENOSUPP && one == PAPI_ENOSUPP && f2 == PAPI_OK && two == PAPI_ENOSUPP,
	       name, "PM_L2_LD_MISS: %s; PM_L2_INST after PM_RUN_INST_CMPL (%s): %s",
	       PAPI_strerror(f1), PAPI_strerror(f2), PAPI_strerror(two));
}

/*
 * PAPI_shutdown() and PAPI_library_init() again, as PAPI's multiplex
 * ctests do between their cases: the component comes back enabled, with
 * its events, and counts.
 */
static void reinit(void)
{
	const char *name = "PAPI_shutdown() and PAPI_library_init(): the component counts again";
	int set = PAPI_NULL, ret, code = 0;
	long long d;

	PAPI_shutdown();
	ret = PAPI_library_init(PAPI_VER_CURRENT);
	if (ret != PAPI_VER_CURRENT) {
		result(0, name, "PAPI_library_init: %s", PAPI_strerror(ret));
		return;
	}
	cinfo = PAPI_get_component_info(cidx);
	if (cinfo == NULL || cinfo->disabled) {
		result(0, name, "the component is disabled: %s",
		       cinfo ? cinfo->disabled_reason : "no component info");
		return;
	}
	ret = PAPI_event_name_to_code(ev->insn, &code);
	if (ret == PAPI_OK)
		ret = start_one(code, &set);
	if (ret != PAPI_OK) {
		result(0, name, "%s: %s", ev->insn, PAPI_strerror(ret));
		return;
	}
	d = min_count(set, 0, 100010) - min_count(set, 0, 10);
	PAPI_stop(set, NULL);
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
	result(d == 100000, name, "%s: loops of 100010 and 10 differ by %lld (expected 100000)",
	       ev->insn, d);
}
#endif

int main(int argc, char **argv)
{
	int ret;
	char reason[PAPI_HUGE_STR_LEN + 64];

	setvbuf(stdout, NULL, _IOLBF, 0);
#ifdef HAVE_LOOP
	if (argc > 1 && strcmp(argv[1], "--presets-fallback") == 0)
		return fallback_child();
#endif
	(void)argc;
	(void)argv;
	printf("1..%d\n", NTESTS);
	ret = PAPI_library_init(PAPI_VER_CURRENT);
	if (ret != PAPI_VER_CURRENT) {
		printf("Bail out! PAPI_library_init: %s\n", PAPI_strerror(ret));
		return 1;
	}
	cidx = PAPI_get_component_index("perfctr");
	cinfo = cidx >= 0 ? PAPI_get_component_info(cidx) : NULL;
	if (cinfo == NULL) {
		printf("Bail out! PAPI has no perfctr component\n");
		return 1;
	}
	test_virt_timers();
	test_fork_virt_timers();
	if (cinfo->disabled) {
		snprintf(reason, sizeof(reason), "perfctr component disabled: %s",
			 cinfo->disabled_reason);
	} else {
#ifdef HAVE_LOOP
		reason[0] = 0;
		ev = pmu_events();
		printf("# the component's PMU: %s\n", pmu_name());
		exact_counts("exact instruction count, first instruction event", ev->insn);
		exact_counts("exact instruction count, second instruction event", ev->insn2);
		if (PAPI_get_event_component(PAPI_TOT_INS) == cidx)
			exact_counts("exact instruction count, PAPI_TOT_INS", "PAPI_TOT_INS");
		else
			skip("exact instruction count, preset",
			     "PAPI_TOT_INS is not the perfctr component's (perfctr not component 0)");
		three_events();
		inherit_counts();
		fork_read();
		refused_event();
		presets_fallback();
		cache_groups();
		reinit();
#else
		snprintf(reason, sizeof(reason), "no exact instruction loop for this architecture");
#endif
	}
	while (test_no < NTESTS)
		skip("instruction counts", reason);
	PAPI_shutdown();
	return failures ? 1 : 0;
}
