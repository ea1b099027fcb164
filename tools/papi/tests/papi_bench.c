// SPDX-License-Identifier: GPL-2.0
/*
 * papi_bench: what PAPI costs through its perfctr component against its
 * perf_event component, measured in one run of one guest, as
 * perfctr_bench measures the kernel interfaces.  Each row is R
 * repetitions of K operations: the median per operation, the spread
 * (min..max of the repetitions) and the ratio to the row's baseline.
 *
 * - PAPI_read() of one event: through the perfctr component (its fast
 *   path, vperfctr_read_ctrs(): no system call) against the perf_event
 *   component (perf's read()).  Where the PMU counts (QEMU's POWER9)
 *   also in instructions per call, counted by the event being read: the
 *   difference of two reads K calls apart, divided by K.  Both event
 *   sets count in PAPI_DOM_ALL, so perf's kernel path is in its figure
 *   (QEMU ignores MMCR0's freeze bits anyway).  libperfctr's
 *   vperfctr_read_ctrs() beneath the component is counted too: the rest
 *   of PAPI_read() is PAPI's own and the component's.
 * - PAPI_start() + PAPI_stop(): the pair, timed.
 * - PAPI_hl_region_begin() + PAPI_hl_region_end(), PAPI's high-level
 *   regions with PAPI_EVENTS naming the instructions event of each
 *   component: the pair, timed (libperfctr's marker regions, which make
 *   no system call, are marker_bench's rows of the same make bench).
 * - PAPI_get_virt_cyc(): perfctr's virtual TSC (--with-virtualtimer=
 *   perfctr) against clock_gettime(CLOCK_THREAD_CPUTIME_ID), the system
 *   call PAPI's own virtual timer makes on Linux.
 *
 * The kernel keeps perfctr and perf's hardware events off one thread's
 * PMU at once, so each component is measured in a child process of its
 * own, one after the other, each initialising PAPI; the rows come back
 * through shared memory.  The virtual timer rows are made only where the
 * component gave the thread a perfctr state (its mapping is in
 * /proc/self/maps), so that they are perfctr's.
 * Under QEMU TCG the times are emulated: only the ratios and the
 * instruction counts mean something.  Where the perfctr component is
 * disabled (x86 under TCG: no programmable counters) only the virtual
 * timer rows are made, and a BENCH-NOTE says why.
 *
 * Output: a markdown table, BENCH-NOTE lines, and BENCH-JSON (the rows),
 * as perfctr_bench's; exit status 1 if a PAPI call fails.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libperfctr.h>

#include "papi.h"

#define REPS	15
#define MAXROWS	32

struct row {
	char group[48], name[96], unit[16], baseline[96];
	double median, min, max;
};

static struct row *rows;	/* shared with the children */
static int *nrows;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void add_row(const char *group, const char *name, const char *unit,
		    const char *baseline, double *s)
{
	struct row *r;

	if (*nrows >= MAXROWS)
		return;
	r = &rows[(*nrows)++];
	qsort(s, REPS, sizeof(double), cmp_double);
	snprintf(r->group, sizeof(r->group), "%s", group);
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	snprintf(r->baseline, sizeof(r->baseline), "%s", baseline ? baseline : "");
	r->median = s[REPS / 2];
	r->min = s[0];
	r->max = s[REPS - 1];
}

static const struct row *find_row(const char *name, const char *unit)
{
	int i;

	for (i = 0; i < *nrows; i++)
		if (!strcmp(rows[i].name, name) && !strcmp(rows[i].unit, unit))
			return &rows[i];
	return NULL;
}

static void note(const char *fmt, ...)
{
	va_list ap;

	printf("BENCH-NOTE ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void die(const char *what, int ret)
{
	printf("papi_bench: %s: %s\n", what, PAPI_strerror(ret));
	exit(1);
}

static long long sink;
#define consume(v)	__atomic_store_n(&sink, (v), __ATOMIC_RELAXED)

#define TIME_LOOP(samples, k, body) do {				\
	int rep_, i_, k_ = (k);						\
	for (rep_ = 0; rep_ < REPS; rep_++) {				\
		double t0_ = now_s();					\
		for (i_ = 0; i_ < k_; i_++) {				\
			body;						\
		}							\
		(samples)[rep_] = (now_s() - t0_) / k_ * 1e9;		\
	}								\
} while (0)

/* Instructions per operation, counted by event 0 of the running @set. */
#define INSN_LOOP(samples, k, set, body) do {				\
	int rep_, i_, k_ = (k);						\
	long long a_[1], b_[1];						\
	for (rep_ = 0; rep_ < REPS; rep_++) {				\
		if (PAPI_read((set), a_) != PAPI_OK)			\
			exit(1);					\
		for (i_ = 0; i_ < k_; i_++) {				\
			body;						\
		}							\
		if (PAPI_read((set), b_) != PAPI_OK)			\
			exit(1);					\
		(samples)[rep_] = (double)(b_[0] - a_[0]) / k_;		\
	}								\
} while (0)

/* The instructions event each component is asked for, by architecture. */
#if defined(__powerpc64__)
#define INSN_EVENT	"PM_RUN_INST_CMPL"
#else
#define INSN_EVENT	"INSTRUCTION_RETIRED"	/* Intel's; not run here (TCG) */
#endif

/* An event set of component @comp counting INSN_EVENT, user and kernel. */
static int insn_set(const char *comp)
{
	char name[PAPI_MAX_STR_LEN];
	PAPI_option_t opt;
	int set = PAPI_NULL, code, ret, cidx = PAPI_get_component_index(comp);

	snprintf(name, sizeof(name), "%s:::%s", comp, INSN_EVENT);
	ret = PAPI_event_name_to_code(name, &code);
	if (ret != PAPI_OK)
		die(name, ret);
	if (PAPI_get_event_component(code) != cidx) {
		printf("papi_bench: %s is not the %s component's\n", name, comp);
		exit(1);
	}
	ret = PAPI_create_eventset(&set);
	if (ret == PAPI_OK)
		ret = PAPI_assign_eventset_component(set, cidx);
	if (ret != PAPI_OK)
		die("PAPI_create_eventset", ret);
	memset(&opt, 0, sizeof(opt));
	opt.domain.eventset = set;
	opt.domain.domain = PAPI_DOM_ALL;
	ret = PAPI_set_opt(PAPI_DOMAIN, &opt);
	if (ret != PAPI_OK)
		die("PAPI_set_opt(PAPI_DOMAIN, PAPI_DOM_ALL)", ret);
	ret = PAPI_add_event(set, code);
	if (ret != PAPI_OK)
		die(name, ret);
	return set;
}

static void init_papi(void)
{
	int ret = PAPI_library_init(PAPI_VER_CURRENT);

	if (ret != PAPI_VER_CURRENT)
		die("PAPI_library_init", ret);
}

static const PAPI_component_info_t *component(const char *comp)
{
	int cidx = PAPI_get_component_index(comp);

	return cidx >= 0 ? PAPI_get_component_info(cidx) : NULL;
}

#define R_PERF	"PAPI_read, perf_event component (read())"
#define R_PCTR	"PAPI_read, perfctr component (fast read)"
#define S_PERF	"PAPI_start+PAPI_stop, perf_event component"
#define S_PCTR	"PAPI_start+PAPI_stop, perfctr component"
#define V_BASE	"clock_gettime(THREAD_CPUTIME), PAPI's own virtual timer"
#define V_PCTR	"PAPI_get_virt_cyc, perfctr virtual TSC"

/* One component's PAPI_read and PAPI_start/PAPI_stop rows. */
static void bench_component(const char *comp, const char *rname, const char *sname,
			    const char *rbase, const char *sbase, int virt)
{
	long long v[1];
	double s[REPS];
	int set = insn_set(comp), ret;

	ret = PAPI_start(set);
	if (ret != PAPI_OK)
		die("PAPI_start", ret);
	INSN_LOOP(s, 2000, set, if (PAPI_read(set, v) != PAPI_OK) exit(1));
	add_row("PAPI read (instructions)", rname, "insns/read", rbase, s);
	/* The instructions counter must have counted the loop. */
	if (s[0] < 10) {
		printf("papi_bench: %s counts %.1f instructions per PAPI_read\n", comp, s[0]);
		exit(1);
	}
	TIME_LOOP(s, 5000, PAPI_read(set, v); consume(v[0]));
	add_row("PAPI read", rname, "ns/read", rbase, s);
	if (virt) {
		struct vperfctr *self = vperfctr_open();	/* the component's state */
		struct perfctr_sum_ctrs sum;
		struct timespec ts;

		/* What of PAPI_read's instructions are libperfctr's fast read. */
		if (!self) {
			perror("vperfctr_open");
			exit(1);
		}
		INSN_LOOP(s, 2000, set, vperfctr_read_ctrs(self, &sum); consume(sum.pmc[0]));
		add_row("PAPI read (instructions)", "vperfctr_read_ctrs, beneath the perfctr component",
			"insns/read", R_PERF, s);
		vperfctr_close(self);

		INSN_LOOP(s, 2000, set, consume(PAPI_get_virt_cyc()));
		add_row("PAPI virtual cycles (instructions)", V_PCTR, "insns/call", V_BASE, s);
		INSN_LOOP(s, 2000, set,
			  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); consume(ts.tv_nsec));
		add_row("PAPI virtual cycles (instructions)", V_BASE, "insns/call", NULL, s);
	}
	ret = PAPI_stop(set, v);
	if (ret != PAPI_OK)
		die("PAPI_stop", ret);
	TIME_LOOP(s, 500, PAPI_start(set); PAPI_stop(set, v));
	add_row("PAPI start/stop", sname, "ns/pair", sbase, s);
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
}

#define H_PERF	"PAPI_hl_region_begin+end, perf_event component"
#define H_PCTR	"PAPI_hl_region_begin+end, perfctr component"

/*
 * PAPI's high-level regions (PAPI_hl_region_begin/end, events from
 * PAPI_EVENTS) over component @comp: one region entered and left,
 * timed; PAPI_hl writes no report, as the child ends with _exit().  The
 * first pair sets PAPI_hl up and must succeed with the event counted.
 */
static void bench_hl(const char *comp, const char *name, const char *base)
{
	char events[PAPI_MAX_STR_LEN];
	double s[REPS];
	int ret;

	snprintf(events, sizeof(events), "%s:::%s", comp, INSN_EVENT);
	setenv("PAPI_EVENTS", events, 1);
	setenv("PAPI_OUTPUT_DIRECTORY", "/tmp", 1);
	ret = PAPI_hl_region_begin("bench");
	if (ret == PAPI_OK)
		ret = PAPI_hl_region_end("bench");
	if (ret != PAPI_OK)
		die(events, ret);
	TIME_LOOP(s, 2000, PAPI_hl_region_begin("bench"); PAPI_hl_region_end("bench"));
	add_row("PAPI high-level regions", name, "ns/pair", base, s);
}

static void child_hl_perf(void)
{
	bench_hl("perf_event", H_PERF, NULL);
}

static void child_hl_perfctr(void)
{
	bench_hl("perfctr", H_PCTR, H_PERF);
}

static void bench_virt(void)
{
	struct timespec ts;
	double s[REPS];

	TIME_LOOP(s, 20000, clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); consume(ts.tv_nsec));
	add_row("PAPI virtual cycles", V_BASE, "ns/call", NULL, s);
	TIME_LOOP(s, 20000, consume(PAPI_get_virt_cyc()));
	add_row("PAPI virtual cycles", V_PCTR, "ns/call", V_BASE, s);
}

/* Run @fn in a child with PAPI of its own; its status. */
static int in_child(void (*fn)(void))
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		init_papi();
		fn();
		PAPI_shutdown();
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFSIGNALED(status))
		printf("papi_bench: the child was killed by signal %d\n", WTERMSIG(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void child_perf(void)
{
	bench_component("perf_event", R_PERF, S_PERF, NULL, NULL, 0);
}

static void child_perfctr(void)
{
	bench_component("perfctr", R_PCTR, S_PCTR, R_PERF, S_PERF, 1);
}

/* Is a perfctr state mapped in this process (vperfctrfs names it)? */
static int state_mapped(void)
{
	char line[256];
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "vperfctr:["))
			found = 1;
	if (f)
		fclose(f);
	return found;
}

static void child_virt(void)
{
	/*
	 * The rows are named for perfctr's virtual TSC: the component must
	 * have given this thread a state, else PAPI_get_virt_cyc() reads
	 * CLOCK_THREAD_CPUTIME_ID and the comparison means nothing.
	 */
	consume(PAPI_get_virt_cyc());
	if (!state_mapped()) {
		printf("papi_bench: no perfctr state in this process: PAPI_get_virt_cyc() is not perfctr's here\n");
		exit(1);
	}
	bench_virt();
}

/* Filled by the first child: what the parent must know, PAPI left alone. */
struct info {
	int perfctr_on, found;
	char note[2 * PAPI_HUGE_STR_LEN + 128], reason[PAPI_HUGE_STR_LEN];
};
static struct info *info;

static void child_info(void)
{
	const PAPI_component_info_t *pc = component("perfctr"), *pe = component("perf_event");

	if (!pc || !pe)
		return;
	info->found = 1;
	info->perfctr_on = !pc->disabled;
	snprintf(info->reason, sizeof(info->reason), "%s", pc->disabled_reason);
	snprintf(info->note, sizeof(info->note),
		 "PAPI %d.%d.%d; perfctr component %s%s; perf_event component %s%s",
		 PAPI_VERSION_MAJOR(PAPI_VERSION), PAPI_VERSION_MINOR(PAPI_VERSION),
		 PAPI_VERSION_REVISION(PAPI_VERSION),
		 pc->disabled ? "disabled: " : "enabled", pc->disabled ? pc->disabled_reason : "",
		 pe->disabled ? "disabled: " : "enabled", pe->disabled ? pe->disabled_reason : "");
}

static void print_table(void)
{
	static struct row sorted[MAXROWS];
	const struct row *b;
	int g, i, j, n = 0;

	/* The rows by group, the groups in the order they were first made. */
	for (g = 0; g < *nrows; g++) {
		for (j = 0; j < g; j++)
			if (!strcmp(rows[j].group, rows[g].group))
				break;
		for (i = 0; j == g && i < *nrows; i++)
			if (!strcmp(rows[i].group, rows[g].group))
				sorted[n++] = rows[i];
	}
	memcpy(rows, sorted, n * sizeof(*rows));
	printf("| group | what | median | spread (min..max) | baseline | ratio |\n");
	printf("|---|---|---:|---:|---|---:|\n");
	for (i = 0; i < *nrows; i++) {
		b = rows[i].baseline[0] ? find_row(rows[i].baseline, rows[i].unit) : NULL;
		printf("| %s | %s | %.3f %s | %.3f..%.3f | %s | ", rows[i].group, rows[i].name,
		       rows[i].median, rows[i].unit, rows[i].min, rows[i].max,
		       b ? b->name : "(baseline)");
		if (b)
			printf("%.3f (1/%.1f) |\n", rows[i].median / b->median,
			       b->median / rows[i].median);
		else
			printf("1 |\n");
	}
	printf("BENCH-JSON [");
	for (i = 0; i < *nrows; i++) {
		b = rows[i].baseline[0] ? find_row(rows[i].baseline, rows[i].unit) : NULL;
		printf("%s{\"group\":\"%s\",\"what\":\"%s\",\"unit\":\"%s\",",
		       i ? "," : "", rows[i].group, rows[i].name, rows[i].unit);
		printf("\"median\":%.4f,\"min\":%.4f,\"max\":%.4f,",
		       rows[i].median, rows[i].min, rows[i].max);
		printf("\"baseline\":%s%s%s,\"ratio\":%.4f}",
		       b ? "\"" : "", b ? b->name : "null", b ? "\"" : "",
		       b ? rows[i].median / b->median : 1.0);
	}
	printf("]\n");
}

int main(void)
{
	size_t size = sizeof(*rows) * MAXROWS + sizeof(int) + sizeof(*info);
	int err = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	rows = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rows == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	nrows = (int *)(rows + MAXROWS);
	info = (struct info *)(nrows + 1);
	/*
	 * PAPI runs in the children only: one initialised in this process
	 * would leave its threads' states behind for the children (a forked
	 * child does not get its parent's perfctr state).
	 */
	if (in_child(child_info) != 0 || !info->found) {
		printf("papi_bench: PAPI lacks the perfctr or the perf_event component\n");
		return 1;
	}
	note("%s", info->note);
	if (info->perfctr_on) {
		/* perf_event first, then perfctr: never both on the PMU. */
		err |= in_child(child_perf) != 0;
		err |= in_child(child_perfctr) != 0;
		err |= in_child(child_hl_perf) != 0;
		err |= in_child(child_hl_perfctr) != 0;
	} else {
		note("PAPI_read and PAPI_start/PAPI_stop not measured: the perfctr component is disabled (%s)",
		     info->reason);
	}
	err |= in_child(child_virt) != 0;
	print_table();
	return err;
}
