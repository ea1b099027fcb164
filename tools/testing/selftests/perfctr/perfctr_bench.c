// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr_bench: perfctr's costs side by side with perf_events', measured
 * in one run.  Each row is timed as R repetitions of K operations; the
 * table gives the median time per operation, the spread (min..max of the
 * repetitions) and the ratio to the row's baseline, measured in the same
 * run.  Under QEMU TCG timings are emulated: only the ratios mean
 * something.  Where the CPU model has PMCs (ppc64: QEMU's POWER PMU
 * counts instructions exactly), the PMC rows are added, and the reads'
 * costs are also given in instructions per read, counted by the PMU
 * (kernel included: QEMU ignores the privilege freeze conditions).
 *
 * --insns-per-switch counts, on CPU 0 and kernel included, the
 * instructions per context switch of a pipe ping-pong (see
 * insns_per_switch()): exact where the PMU counts (ppc64), so kernels can
 * be compared to the instruction.  It and --switch-only use no perfctr
 * system call: they run on a kernel without the series, or with
 * PERFCTR=n, too.
 *
 * --insns-per-switch-icount counts the same by the clock, under QEMU's
 * -icount shift=0 (see insns_per_switch_icount()), with each counter
 * setup of the timed switch rows; with --no-perfctr, on a kernel without
 * perfctr, the switch without counters alone.
 *
 *   perfctr_bench [--switch-only | --insns-per-switch |
 *                  --insns-per-switch-icount [--no-perfctr] | --memory]
 *                                    markdown table, then JSON
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../../perfctr/libperfctr.h"

#define REPS	15

struct row {
	const char *group;
	const char *name;
	const char *unit;
	const char *baseline;	/* name of the row it is compared with */
	double median, min, max;
};

static struct row rows[64];
static int nrows;

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

static struct row *add_row_n(const char *group, const char *name, const char *unit,
			     const char *baseline, double *samples, int n)
{
	struct row *r = &rows[nrows++];

	qsort(samples, n, sizeof(double), cmp_double);
	r->group = group;
	r->name = name;
	r->unit = unit;
	r->baseline = baseline;
	r->median = samples[n / 2];
	r->min = samples[0];
	r->max = samples[n - 1];
	return r;
}

static struct row *add_row(const char *group, const char *name, const char *unit,
			   const char *baseline, double *samples)
{
	return add_row_n(group, name, unit, baseline, samples, REPS);
}

/* The baseline row: same name, and the same unit if there is one. */
static const struct row *find_row(const char *name, const char *unit)
{
	const struct row *b = NULL;
	int i;

	for (i = 0; i < nrows; i++)
		if (!strcmp(rows[i].name, name)) {
			if (!strcmp(rows[i].unit, unit))
				return &rows[i];
			if (!b)
				b = &rows[i];
		}
	return b;
}

static int perf_open_inherit(__u32 type, __u64 config, int disabled, int inherit)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = disabled;
	attr.inherit = inherit;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

static int perf_open(__u32 type, __u64 config, int disabled)
{
	return perf_open_inherit(type, config, disabled, 0);
}

static unsigned long long perf_read(int fd)
{
	unsigned long long v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		exit(1);
	return v;
}

static int have_pmcs;

/*
 * A state for the calling thread: the TSC, and the first @npmcs of the
 * instructions and cycles counters (ppc64: PMC5, PMC6), user and kernel.
 */
static int pmc_state(int npmcs)
{
	struct vperfctr_control c;
	int fd = vperfctr_open(0, VPERFCTR_OPEN_CREAT), i;

	vperfctr_control_tsc(&c, 1);
	c.cpu_control.nractrs = npmcs;
	for (i = 0; i < npmcs; i++)
		c.cpu_control.pmc_map[i] = 4 + i;
	if (fd < 0 || vperfctr_control(fd, &c)) {
		perror("perfctr");
		exit(1);
	}
	return fd;
}

static int tsc_state(void)
{
	return pmc_state(0);
}

/* ---------------------------------------------------------- read cost */

static unsigned long long sink;

/* Keep a result alive without a memory barrier. */
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

/*
 * Instructions per operation, counted by the PMU: perfctr's counter 0 of
 * @map, or a perf_event instructions counter @pfd (-1: perfctr's).
 */
static unsigned long long insn_now(const struct vperfctr_state *map, int pfd)
{
	return pfd >= 0 ? perf_read(pfd) : vperfctr_read_pmc_seq(map, 0);
}

#define INSN_LOOP(samples, k, map, pfd, body) do {			\
	const struct vperfctr_state *m_ = (map);			\
	int rep_, i_, k_ = (k), p_ = (pfd);				\
	for (rep_ = 0; rep_ < REPS; rep_++) {				\
		unsigned long long c0_, c1_;				\
		c0_ = insn_now(m_, p_);					\
		for (i_ = 0; i_ < k_; i_++) {				\
			body;						\
		}							\
		c1_ = insn_now(m_, p_);					\
		(samples)[rep_] = (double)(c1_ - c0_) / k_;		\
	}								\
} while (0)

/*
 * The baseline for the fast read's full-width fold: the same sequence
 * read of the same state, folding only the low 32 bits as perfctr 2.7's
 * readers did (wrong beyond 2^32 events a period, the cost it had).
 */
static __u64 read_pmc_fold32(const struct vperfctr_state *s, unsigned int i)
{
	__u32 seq, now = 0, start, cstatus;
	__u64 sum;

	for (;;) {
		seq = PERFCTR_LOAD(s->cpu_state.sequence);
		perfctr_barrier();
		if (seq & 1)
			continue;
		cstatus = PERFCTR_LOAD(s->cpu_state.cstatus);
		start = (__u32)PERFCTR_LOAD(s->cpu_state.pmc[i].start);
		sum = PERFCTR_LOAD(s->cpu_state.pmc[i].sum);
		if (i < PERFCTR_CSTATUS_NRCTRS(cstatus))
			now = (__u32)perfctr_rdpmc(PERFCTR_LOAD(s->cpu_state.pmc[i].map));
		perfctr_barrier();
		if (PERFCTR_LOAD(s->cpu_state.sequence) == seq)
			break;
	}
	if (i >= PERFCTR_CSTATUS_NRCTRS(cstatus))
		return sum;
	return sum + (__u32)(now - start);
}

/* ppc64: the PMC rows, with perf_event's hardware instructions counter. */
static void bench_pmc_reads(void)
{
	const struct vperfctr_state *map;
	struct perf_event_mmap_page *pc;
	struct perfctr_sum_ctrs sum;
	struct timespec ts;
	double s[REPS];
	int fd, pfd;

	/* perf_event first, while perfctr holds no PMC. */
	pfd = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0);
	if (pfd < 0) {
		perror("perf_event_open instructions");
		exit(1);
	}
	TIME_LOOP(s, 20000, consume(perf_read(pfd)));
	add_row("read PMC", "perf_event read() instructions", "ns/read", NULL, s);
	INSN_LOOP(s, 2000, NULL, pfd, consume(perf_read(pfd)));
	add_row("read PMC (instructions)", "perf_event read() instructions",
		"insns/read", NULL, s);
	pc = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, pfd, 0);
	printf("BENCH-NOTE perf_event mmap self-monitoring read: %s\n",
	       pc == MAP_FAILED ? "mmap refused" :
	       pc->cap_user_rdpmc && pc->index ? "offered (not measured)" :
	       "not offered by this kernel on this CPU (cap_user_rdpmc = 0)");
	if (pc != MAP_FAILED)
		munmap(pc, sysconf(_SC_PAGESIZE));
	close(pfd);

	fd = pmc_state(1);
	map = vperfctr_map(fd);
	if (!map) {
		perror("vperfctr_map");
		exit(1);
	}
	TIME_LOOP(s, 200000, consume(vperfctr_read_pmc_seq(map, 0)));
	add_row("read PMC", "perfctr fast read PMC (sequence)", "ns/read",
		"perf_event read() instructions", s);
	TIME_LOOP(s, 20000, vperfctr_read(fd, &sum, NULL); consume(sum.pmc[0]));
	add_row("read PMC", "sys_vperfctr_read (PMC)", "ns/read",
		"perf_event read() instructions", s);
	INSN_LOOP(s, 2000, map, -1, consume(vperfctr_read_pmc_seq(map, 0)));
	add_row("read PMC (instructions)", "perfctr fast read PMC (sequence)",
		"insns/read", "perf_event read() instructions", s);
	INSN_LOOP(s, 2000, map, -1, consume(vperfctr_read_tsc_base(map)));
	add_row("read PMC (instructions)", "perfctr fast read TSC (base)",
		"insns/read", "perf_event read() instructions", s);
	INSN_LOOP(s, 2000, map, -1, consume(vperfctr_read_tsc_seq(map)));
	add_row("read PMC (instructions)", "perfctr fast read TSC (sequence)",
		"insns/read", "perf_event read() instructions", s);
	/* The full-width fold against the 32-bit one, in time and instructions. */
	TIME_LOOP(s, 200000, consume(read_pmc_fold32(map, 0)));
	add_row("fold width", "fast read PMC, 32-bit fold (perfctr 2.7)", "ns/read", NULL, s);
	TIME_LOOP(s, 200000, consume(vperfctr_read_pmc_seq(map, 0)));
	add_row("fold width", "fast read PMC, full-width fold", "ns/read",
		"fast read PMC, 32-bit fold (perfctr 2.7)", s);
	INSN_LOOP(s, 2000, map, -1, consume(read_pmc_fold32(map, 0)));
	add_row("fold width (instructions)", "fast read PMC, 32-bit fold (perfctr 2.7)",
		"insns/read", NULL, s);
	INSN_LOOP(s, 2000, map, -1, consume(vperfctr_read_pmc_seq(map, 0)));
	add_row("fold width (instructions)", "fast read PMC, full-width fold",
		"insns/read", "fast read PMC, 32-bit fold (perfctr 2.7)", s);
	INSN_LOOP(s, 2000, map, -1, vperfctr_read(fd, &sum, NULL); consume(sum.pmc[0]));
	add_row("read PMC (instructions)", "sys_vperfctr_read (PMC)",
		"insns/read", "perf_event read() instructions", s);
	INSN_LOOP(s, 2000, map, -1,
		  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); consume(ts.tv_nsec));
	add_row("read PMC (instructions)", "clock_gettime(THREAD_CPUTIME)",
		"insns/read", "perf_event read() instructions", s);
	vperfctr_unmap(map);
	vperfctr_unlink(fd);
	close(fd);
}

static void bench_reads(void)
{
	double s[REPS];
	const struct vperfctr_state *map;
	struct perfctr_sum_ctrs sum;
	struct timespec ts;
	int fd = tsc_state(), pfd;

	map = vperfctr_map(fd);
	if (!map) {
		perror("vperfctr_map");
		exit(1);
	}
	pfd = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0);
	if (pfd < 0) {
		perror("perf_event_open");
		exit(1);
	}
	TIME_LOOP(s, 20000, consume(perf_read(pfd)));
	add_row("read", "perf_event read() task-clock", "ns/read", NULL, s);
	TIME_LOOP(s, 200000, consume(vperfctr_read_tsc_base(map)));
	add_row("read", "perfctr fast read TSC (base)", "ns/read",
		"perf_event read() task-clock", s);
	TIME_LOOP(s, 200000, consume(vperfctr_read_tsc_seq(map)));
	add_row("read", "perfctr fast read TSC (sequence)", "ns/read",
		"perf_event read() task-clock", s);
	TIME_LOOP(s, 200000, consume(vperfctr_read_tsc_restart(map)));
	add_row("read", "perfctr fast read TSC (tsc_start)", "ns/read",
		"perf_event read() task-clock", s);
	TIME_LOOP(s, 20000, vperfctr_read(fd, &sum, NULL); consume(sum.tsc));
	add_row("read", "sys_vperfctr_read", "ns/read", "perf_event read() task-clock", s);
	TIME_LOOP(s, 50000, clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); consume(ts.tv_nsec));
	add_row("read", "clock_gettime(THREAD_CPUTIME)", "ns/read",
		"perf_event read() task-clock", s);
	TIME_LOOP(s, 200000, consume(perfctr_rdtsc()));
	add_row("read", "bare TSC read (floor)", "ns/read", "perf_event read() task-clock", s);
	/*
	 * The fast reads against the bare one, measured again right after it
	 * (the first rows come after perf's read() and may run slower), and
	 * the bare read once more, for the drift between them.
	 */
	TIME_LOOP(s, 200000, consume(vperfctr_read_tsc_base(map)));
	add_row("read vs bare TSC", "fast read TSC (base), again", "ns/read",
		"bare TSC read (floor)", s);
	TIME_LOOP(s, 200000, consume(vperfctr_read_tsc_seq(map)));
	add_row("read vs bare TSC", "fast read TSC (sequence), again", "ns/read",
		"bare TSC read (floor)", s);
	TIME_LOOP(s, 200000, consume(perfctr_rdtsc()));
	add_row("read vs bare TSC", "bare TSC read, again", "ns/read",
		"bare TSC read (floor)", s);
	close(pfd);
	vperfctr_unmap(map);
	vperfctr_unlink(fd);
	close(fd);
}

/* ------------------------------------------------------ start/stop cost */

/*
 * ppc64: the same pairs in instructions, kernel included, counted by a
 * perf_event instructions counter (a TSC-only control leaves the PMU to
 * perf); and, to say where the pair's instructions go, a control the
 * kernel refuses at its first check (bad flags: the system call, the
 * descriptor and owner lookups, the copy from user space), one that
 * changes nothing (the TSC off again) and the floor (a bad descriptor).
 */
static void bench_start_stop_insns(int fd, int pfd, const struct vperfctr_control *on,
				   const struct vperfctr_control *off)
{
	struct vperfctr_control bad = *off;
	double s[REPS];
	int ifd;

	ifd = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0);
	if (ifd < 0) {
		perror("perf_event_open instructions");
		exit(1);
	}
	bad.flags = ~0u;
	INSN_LOOP(s, 2000, NULL, ifd, ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0);
		  ioctl(pfd, PERF_EVENT_IOC_DISABLE, 0));
	add_row("start/stop (instructions)", "perf_event IOC_ENABLE+IOC_DISABLE",
		"insns/pair", NULL, s);
	INSN_LOOP(s, 2000, NULL, ifd, vperfctr_control(fd, on); vperfctr_control(fd, off));
	add_row("start/stop (instructions)", "vperfctr_control on+off", "insns/pair",
		"perf_event IOC_ENABLE+IOC_DISABLE", s);
	/* The pair that passes no control: perf's ioctls' counterpart. */
	vperfctr_control(fd, on);
	INSN_LOOP(s, 2000, NULL, ifd, vperfctr_suspend(fd); vperfctr_resume(fd));
	add_row("start/stop (instructions)", "vperfctr_suspend+resume", "insns/pair",
		"perf_event IOC_ENABLE+IOC_DISABLE", s);
	INSN_LOOP(s, 2000, NULL, ifd, vperfctr_control(fd, off); vperfctr_control(fd, off));
	add_row("start/stop (instructions)", "vperfctr_control off+off (no change)",
		"insns/pair", "perf_event IOC_ENABLE+IOC_DISABLE", s);
	INSN_LOOP(s, 2000, NULL, ifd, vperfctr_control(fd, &bad); vperfctr_control(fd, &bad));
	add_row("start/stop (instructions)", "vperfctr_control refused x2 (EINVAL)",
		"insns/pair", "perf_event IOC_ENABLE+IOC_DISABLE", s);
	/* The floor: the system call and the descriptor lookup alone. */
	INSN_LOOP(s, 2000, NULL, ifd, vperfctr_control(-1, off); vperfctr_control(-1, off));
	add_row("start/stop (instructions)", "vperfctr_control bad fd x2 (EBADF)",
		"insns/pair", "perf_event IOC_ENABLE+IOC_DISABLE", s);
	close(ifd);
}

static void bench_start_stop(void)
{
	struct vperfctr_control on, off;
	double s[REPS];
	int fd = tsc_state(), pfd, f;

	vperfctr_control_tsc(&on, 1);
	vperfctr_control_tsc(&off, 0);
	pfd = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1);
	if (pfd < 0)
		exit(1);
	TIME_LOOP(s, 5000, ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0);
		  ioctl(pfd, PERF_EVENT_IOC_DISABLE, 0));
	add_row("start/stop", "perf_event IOC_ENABLE+IOC_DISABLE", "ns/pair", NULL, s);
	TIME_LOOP(s, 5000, vperfctr_control(fd, &on); vperfctr_control(fd, &off));
	add_row("start/stop", "vperfctr_control on+off", "ns/pair",
		"perf_event IOC_ENABLE+IOC_DISABLE", s);
	/* A row of failing calls would look fast: they must work first. */
	if (vperfctr_control(fd, &on) || vperfctr_suspend(fd) || vperfctr_resume(fd)) {
		perror("vperfctr_suspend+resume");
		exit(1);
	}
	TIME_LOOP(s, 5000, vperfctr_suspend(fd); vperfctr_resume(fd));
	add_row("start/stop", "vperfctr_suspend+resume", "ns/pair",
		"perf_event IOC_ENABLE+IOC_DISABLE", s);
	vperfctr_control(fd, &off);
	if (have_pmcs)
		bench_start_stop_insns(fd, pfd, &on, &off);
	close(pfd);
	vperfctr_unlink(fd);
	close(fd);

	TIME_LOOP(s, 1000, f = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 1);
		  ioctl(f, PERF_EVENT_IOC_ENABLE, 0); ioctl(f, PERF_EVENT_IOC_DISABLE, 0);
		  close(f));
	add_row("start/stop", "perf_event_open+enable+disable+close", "ns/cycle", NULL, s);
	TIME_LOOP(s, 1000, f = vperfctr_open(0, VPERFCTR_OPEN_CREAT);
		  vperfctr_control(f, &on); vperfctr_control(f, &off);
		  vperfctr_unlink(f); close(f));
	add_row("start/stop", "vperfctr_open+control on+off+unlink+close", "ns/cycle",
		"perf_event_open+enable+disable+close", s);
}

/* ------------------------------------------------------- fork+exit cost */

static void fork_exit_wait(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		exit(1);
}

/* Time @k fork+exit+wait cycles: ns per cycle. */
static double time_forks(int k)
{
	double t0 = now_s();
	int i;

	for (i = 0; i < k; i++)
		fork_exit_wait();
	return (now_s() - t0) / k * 1e9;
}

/*
 * A child that inherits the counters, exits and is reaped: perfctr's
 * inheritance (a state per child, merged into the parent's children's
 * sums at exit) against perf_event's inherit (an event per child, its
 * count added to the parent's at exit), and both against no counters.
 * The three are interleaved, one batch of each per repetition, so that
 * a loaded host's drift weighs on all of them alike.
 */
static void bench_fork_one(const char *what, int npmcs, __u32 type, __u64 config)
{
	static char names[2][3][96];
	static int n;
	double s[3][REPS];
	struct vperfctr_control c, off;
	int rep, fd, pfd;

	snprintf(names[n][0], sizeof(names[n][0]), "fork+exit+wait: no counters (%s)", what);
	snprintf(names[n][1], sizeof(names[n][1]), "perf_event inherit (%s)", what);
	snprintf(names[n][2], sizeof(names[n][2]), "perfctr inherit (%s)", what);
	fd = pmc_state(npmcs);
	if (vperfctr_read(fd, NULL, &c))
		exit(1);
	vperfctr_control_tsc(&off, 0);
	c.flags = VPERFCTR_CONTROL_INHERIT;
	for (rep = 0; rep < REPS; rep++) {
		if (vperfctr_control(fd, &off))
			exit(1);
		s[0][rep] = time_forks(100);
		pfd = perf_open_inherit(type, config, 0, 1);
		if (pfd < 0) {
			perror("perf_event_open");
			exit(1);
		}
		s[1][rep] = time_forks(100);
		close(pfd);
		if (vperfctr_control(fd, &c))
			exit(1);
		s[2][rep] = time_forks(100);
	}
	add_row("fork+exit", names[n][0], "ns/fork", NULL, s[0]);
	add_row("fork+exit", names[n][1], "ns/fork", names[n][0], s[1]);
	/* perfctr's samples against both. */
	memcpy(s[0], s[2], sizeof(s[2]));
	add_row("fork+exit", names[n][2], "ns/fork", names[n][0], s[2]);
	add_row("fork+exit", names[n][2], "ns/fork (vs perf)", names[n][1], s[0]);
	vperfctr_unlink(fd);
	close(fd);
	n++;
}

static void bench_fork(void)
{
	int i;

	/* Warm up: the first forks after boot fault in what later ones share. */
	for (i = 0; i < 500; i++)
		fork_exit_wait();
	bench_fork_one("TSC / task-clock", 0, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	if (have_pmcs)
		bench_fork_one("instructions", 1, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
}

/*
 * A chain of dead ancestors (an unprivileged user's fork(), then the
 * parent's _exit(), over and over, under a TSC-only inheriting control):
 * one step at depth CHAIN_DEEP against the first steps, REPS batches of
 * CHAIN_BATCH steps each.  The step must not grow with the depth: an
 * exit merges into one parent and moves its own children, whatever the
 * dead ancestors above it.  The chain runs in a child of its own, which
 * reaps the orphans (a subreaper ignoring SIGCHLD).
 */
#define CHAIN_DEEP	10000
#define CHAIN_BATCH	100

static void bench_chain(void)
{
	struct vperfctr_control c;
	double s[2][REPS];
	int p[2], fd, k, rep = 0, status;
	double t0 = 0;
	pid_t pid;

	if (pipe(p))
		exit(1);
	pid = fork();
	if (pid == 0) {
		if (prctl(PR_SET_CHILD_SUBREAPER, 1) || signal(SIGCHLD, SIG_IGN) == SIG_ERR)
			_exit(1);
		vperfctr_control_tsc(&c, 1);
		c.flags = VPERFCTR_CONTROL_INHERIT;
		fd = tsc_state();
		if (fd < 0 || vperfctr_control(fd, &c))
			_exit(1);
		for (k = 0; k < CHAIN_DEEP + REPS * CHAIN_BATCH; k++) {
			/* Batches at the top, then from CHAIN_DEEP on. */
			if (k == (k < CHAIN_DEEP ? 0 : CHAIN_DEEP) + rep * CHAIN_BATCH) {
				if (rep)
					s[k >= CHAIN_DEEP][rep - 1] =
						(now_s() - t0) / CHAIN_BATCH * 1e6;
				t0 = now_s();
				if (++rep > REPS)
					rep = 0;
			}
			pid = fork();
			if (pid < 0)
				_exit(1);
			if (pid > 0)
				_exit(0);
		}
		s[1][REPS - 1] = (now_s() - t0) / CHAIN_BATCH * 1e6;
		_exit(write(p[1], s, sizeof(s)) == sizeof(s) ? 0 : 1);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], s, sizeof(s)) != sizeof(s) ||
	    waitpid(pid, &status, 0) != pid) {
		fprintf(stderr, "the inheritance chain failed\n");
		exit(1);
	}
	close(p[0]);
	add_row("inheritance chain", "fork+parent exit: depth 0", "us/step", NULL, s[0]);
	add_row("inheritance chain", "fork+parent exit: depth 10,000", "us/step",
		"fork+parent exit: depth 0", s[1]);
}

/* --------------------------------------------------- context-switch cost */

enum { CNT_NONE, CNT_TSC, CNT_PERF, CNT_TSC_PMC, CNT_PERF_HW, NR_CNT };

struct pp {
	int rfd, wfd, rounds, mode;
};

/* The calling thread's counters for @mode: its descriptors in @fd, @fd2. */
static void counters_start(int mode, int *fd, int *fd2)
{
	*fd = *fd2 = -1;
	switch (mode) {
	case CNT_TSC:
		*fd = tsc_state();
		break;
	case CNT_TSC_PMC:
		*fd = pmc_state(2);
		break;
	case CNT_PERF:
		*fd = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0);
		break;
	case CNT_PERF_HW:
		*fd = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0);
		*fd2 = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0);
		break;
	}
	if (mode != CNT_NONE && (*fd < 0 || (mode == CNT_PERF_HW && *fd2 < 0))) {
		perror("counters for the switch benchmark");
		exit(1);
	}
}

static void counters_stop(int mode, int fd, int fd2)
{
	if (mode == CNT_TSC || mode == CNT_TSC_PMC)
		vperfctr_unlink(fd);
	if (fd >= 0)
		close(fd);
	if (fd2 >= 0)
		close(fd2);
}

static void *pp_thread(void *arg)
{
	struct pp *p = arg;
	cpu_set_t set;
	int i, fd, fd2;
	char c;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	counters_start(p->mode, &fd, &fd2);
	for (i = 0; i < p->rounds; i++)
		if (read(p->rfd, &c, 1) != 1 || write(p->wfd, &c, 1) != 1)
			exit(1);
	counters_stop(p->mode, fd, fd2);
	return NULL;
}

/* Microseconds per context switch of two threads ping-ponging on CPU 0. */
static double pingpong(int mode, int rounds)
{
	int ab[2], ba[2];
	struct pp a, b;
	pthread_t ta, tb;
	double t0, t;
	char c = 'x';

	if (pipe(ab) || pipe(ba))
		exit(1);
	a = (struct pp){ ba[0], ab[1], rounds, mode };
	b = (struct pp){ ab[0], ba[1], rounds, mode };
	pthread_create(&ta, NULL, pp_thread, &a);
	pthread_create(&tb, NULL, pp_thread, &b);
	usleep(10000);
	t0 = now_s();
	if (write(ba[1], &c, 1) != 1)
		exit(1);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	t = now_s() - t0;
	close(ab[0]); close(ab[1]); close(ba[0]); close(ba[1]);
	return t / (2.0 * rounds) * 1e6;
}

static void bench_switch(const char *none_name)
{
	static const char * const names[] = { NULL, "switch: TSC on (perfctr)",
		"switch: task-clock (perf_event)", "switch: TSC + 2 PMCs (perfctr)",
		"switch: instructions + cycles (perf_event)" };
	double s[NR_CNT][REPS];
	int rep, m, nmodes = have_pmcs ? NR_CNT : CNT_PERF + 1;

	/* Interleave the modes so that drift hits them alike. */
	for (rep = 0; rep < REPS; rep++)
		for (m = 0; m < nmodes; m++)
			s[m][rep] = pingpong(m, 2000);
	add_row("context switch", none_name, "us/switch", NULL, s[0]);
	for (m = 1; m < nmodes; m++)
		add_row("context switch", names[m], "us/switch", none_name, s[m]);
}

/* ------------------------------------------- instructions per switch */

/*
 * The instructions CPU 0 executes, kernel included, per context switch of
 * two threads ping-ponging a byte through two pipes on CPU 0, both
 * pinned there: one perf_event hardware instructions counter for CPU 0
 * (pid -1, cpu 0, exclude_kernel = 0).  A CPU counter is not a task
 * event, so perf's own switch hooks stay off, and it counts the switch
 * itself (__schedule(), __switch_to(), the architecture's hooks), which a
 * per-thread counter would not see.  The calling thread (A) reads the
 * counter on CPU 0, with no IPI, before and after IPS_ROUNDS rounds of
 * write + read; B answers each byte; a round is two switches (A blocks in
 * read, B runs; B blocks in read, A runs).  The cost of reading the
 * counter (a window of zero rounds, its minimum) is subtracted.
 *
 * Both threads are SCHED_FIFO at one priority, so that a wakeup never
 * preempts the waker: each switch takes the same path (under SCHED_OTHER
 * the fair class's wakeup preemption depends on the time the threads ran,
 * and the count varies by hundreds of instructions from window to
 * window).  The switch itself (__switch_to() and the thread hooks) is the
 * same for every class.  A window is 2 * IPS_ROUNDS switches, far
 * shorter than a tick under TCG.  Its count still takes a few discrete
 * values: besides interrupts, occasional kernel work of some tens to a
 * thousand instructions lands in some windows.  QEMU's PMU counts every
 * instruction it executes, so each value is exact; the most frequent
 * one (a quarter to a half of IPS_REPS windows) is the figure, the same
 * to about an instruction per switch from boot to boot whatever the host
 * load; the note also gives the minimum and the median window.  User
 * addresses are not randomised (the program re-executes itself with
 * ADDR_NO_RANDOMIZE).
 */
#define IPS_ROUNDS	10
#define IPS_REPS	5001

/*
 * --insns-per-switch-icount: the same ping-pong, counted by the clock
 * user space reads (perfctr_rdtsc(): the TSC, the timebase) under QEMU's
 * -icount shift=0, where the virtual clock advances one nanosecond per
 * instruction executed, and the clocks the guest reads follow it.  The
 * clock counts every instruction of the machine (boot it with one CPU),
 * and unlike a CPU counter of perf_events' it leaves the PMU free: both
 * threads can run each mode of the timed switch rows, perfctr's PMCs and
 * perf's hardware events included.  A tick is a fixed number of
 * instructions (the timebase's 512 MHz: 1.95), found by ips_calibrate().
 */
struct ips {
	int ab[2], ba[2];
	int mode;		/* CNT_*: what both threads count */
	int cfd;		/* CPU 0's instructions counter; -1: the clock */
	long nvcsw, nivcsw;
};

/* Pinned to CPU 0, SCHED_FIFO at one priority: see insns_per_switch(). */
static void pin_cpu0_fifo(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("sched_setaffinity/sched_setscheduler");
		exit(1);
	}
}

static void *ips_answer(void *arg)
{
	struct ips *p = arg;
	struct rusage ru;
	int fd, fd2;
	char c;

	pin_cpu0_fifo();
	counters_start(p->mode, &fd, &fd2);
	for (;;) {
		if (read(p->ab[0], &c, 1) != 1)
			exit(1);
		if (c == 'q')
			break;
		if (write(p->ba[1], &c, 1) != 1)
			exit(1);
	}
	counters_stop(p->mode, fd, fd2);
	getrusage(RUSAGE_THREAD, &ru);
	p->nvcsw = ru.ru_nvcsw;
	p->nivcsw = ru.ru_nivcsw;
	return NULL;
}

struct count3 {
	unsigned long long value, enabled, running;
};

static struct count3 ips_read(int cfd)
{
	struct count3 v = { 0 };

	if (cfd < 0) {
		v.value = perfctr_rdtsc();
	} else if (read(cfd, &v, sizeof(v)) != sizeof(v)) {
		perror("read CPU 0 instructions counter");
		exit(1);
	}
	return v;
}

/* Instructions (or clock ticks) counted over @rounds rounds (A's side). */
static unsigned long long ips_window(struct ips *p, int rounds)
{
	struct count3 c0, c1;
	char c = 'x';
	int i;

	c0 = ips_read(p->cfd);
	for (i = 0; i < rounds; i++)
		if (write(p->ab[1], &c, 1) != 1 || read(p->ba[0], &c, 1) != 1)
			exit(1);
	c1 = ips_read(p->cfd);
	if (c1.enabled - c0.enabled != c1.running - c0.running) {
		fprintf(stderr, "the CPU 0 counter was multiplexed\n");
		exit(1);
	}
	return c1.value - c0.value;
}

/*
 * One row: @p's mode on both threads (B started here, A the caller),
 * IPS_REPS windows less the cost of reading the counter, @per_tick
 * instructions a count.  Returns the most frequent window's figure.
 */
static double ips_row(struct ips *p, const char *group, const char *name,
		      const char *baseline, double per_tick)
{
	static double s[IPS_REPS], ovs[IPS_REPS];
	unsigned long long over = ~0ULL, w;
	int i, j, atmin, nmode = 0, fd, fd2;
	struct rusage r0, r1;
	double mode = 0;
	pthread_t tb;
	char c = 'q';

	if (pipe(p->ab) || pipe(p->ba) || pthread_create(&tb, NULL, ips_answer, p))
		exit(1);
	counters_start(p->mode, &fd, &fd2);
	/* Warm up (B pinned and waiting, pipe pages allocated), then the
	 * cost of reading the counter alone.
	 */
	for (i = 0; i < 5; i++)
		ips_window(p, IPS_ROUNDS);
	for (i = 0; i < IPS_REPS; i++) {
		w = ips_window(p, 0);
		ovs[i] = w;
		if (w < over)
			over = w;
	}
	getrusage(RUSAGE_THREAD, &r0);
	for (i = 0; i < IPS_REPS; i++)
		s[i] = (double)(ips_window(p, IPS_ROUNDS) - over) * per_tick / (2 * IPS_ROUNDS);
	getrusage(RUSAGE_THREAD, &r1);
	if (write(p->ab[1], &c, 1) != 1 || pthread_join(tb, NULL))
		exit(1);
	counters_stop(p->mode, fd, fd2);
	close(p->ab[0]); close(p->ab[1]); close(p->ba[0]); close(p->ba[1]);
	add_row_n(group, name, "insns/switch", baseline, s, IPS_REPS);
	for (atmin = 0; atmin < IPS_REPS && s[atmin] == s[0]; atmin++)
		;
	/* The most frequent count (s[] is sorted). */
	for (i = j = 0; i < IPS_REPS; i = j) {
		for (j = i; j < IPS_REPS && s[j] == s[i]; j++)
			;
		if (j - i > nmode) {
			nmode = j - i;
			mode = s[i];
		}
	}
	qsort(ovs, IPS_REPS, sizeof(double), cmp_double);
	printf("BENCH-NOTE instructions per switch: %s%s%d windows of %d switches, ",
	       p->cfd < 0 ? name : "", p->cfd < 0 ? ": " : "", IPS_REPS, 2 * IPS_ROUNDS);
	printf("%d of them at the minimum %.2f, median %.2f, ",
	       atmin, s[0], s[IPS_REPS / 2]);
	printf("most frequent %.2f (%d windows), maximum %.2f; ",
	       mode, nmode, s[IPS_REPS - 1]);
	printf("reading the counter, subtracted: %.0f instructions (median %.0f)\n",
	       over * per_tick, ovs[IPS_REPS / 2] * per_tick);
	printf("BENCH-NOTE instructions per switch: involuntary switches of A in the windows %ld, ",
	       r1.ru_nivcsw - r0.ru_nivcsw);
	printf("voluntary %ld (expected %d); of B in the whole run %ld, voluntary %ld\n",
	       r1.ru_nvcsw - r0.ru_nvcsw, IPS_REPS * IPS_ROUNDS, p->nivcsw, p->nvcsw);
	/* A pipe write and read are some hundreds of kernel instructions. */
	if (s[0] < 200) {
		fprintf(stderr, "%.1f instructions per switch: the %s does not count the kernel\n",
			s[0], p->cfd < 0 ? "clock" : "PMU");
		exit(1);
	}
	return mode;
}

static void insns_per_switch(void)
{
	struct perf_event_attr attr;
	struct ips p = { .mode = CNT_NONE };

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.exclude_hv = 1;		/* pseries: the kernel is not the hypervisor */
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	p.cfd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	if (p.cfd < 0) {
		perror("perf_event_open instructions, CPU 0");
		exit(1);
	}
	pin_cpu0_fifo();
	ips_row(&p, "instructions per switch",
		"switch: instructions on CPU 0, kernel included", NULL, 1);
	close(p.cfd);
}

/* @n rounds of a loop of known length: spin_insns(@n) instructions. */
static void spin(unsigned long n)
{
#if defined(__powerpc__)
	__asm__ __volatile__("mtctr %0\n1:\tbdnz 1b" : : "r"(n) : "ctr");
#else
	__asm__ __volatile__("1:\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#endif
}

static unsigned long spin_insns(unsigned long n)
{
#if defined(__powerpc__)
	return n + 1;
#else
	return 2 * n;
#endif
}

/* The fewest clock ticks a spin of @n took, and in how many of 7 tries. */
static unsigned long long spin_ticks(unsigned long n, int *nmin)
{
	unsigned long long t, best = ~0ULL, d[7];
	int i;

	for (i = 0; i < 7; i++) {
		t = perfctr_rdtsc();
		spin(n);
		d[i] = perfctr_rdtsc() - t;
		if (d[i] < best)
			best = d[i];
	}
	for (*nmin = i = 0; i < 7; i++)
		*nmin += d[i] <= best + 1;
	return best;
}

/*
 * Instructions per clock tick, if the clock counts instructions: the
 * same loop takes the same ticks, to one, in most tries, and a loop
 * twice as long as many more ticks as the instructions it adds (less
 * a few: reading the clock).  Under TCG without -icount the clock
 * follows the host's, which no two tries agree on to the tick.
 */
static double ips_calibrate(void)
{
	const unsigned long n = 200000;
	unsigned long long t1, t2;
	double per_tick, extra;
	int m1, m2;

	t1 = spin_ticks(n, &m1);
	t2 = spin_ticks(2 * n, &m2);
	per_tick = t2 > t1 ? (double)(spin_insns(2 * n) - spin_insns(n)) / (t2 - t1) : 0;
	extra = t1 * per_tick - spin_insns(n);
	printf("BENCH-NOTE instructions per switch (icount): ");
	printf("a loop of %lu instructions took %llu ticks (%d of 7 tries within a tick), ",
	       spin_insns(n), t1, m1);
	printf("one of %lu %llu (%d of 7): %.4f instructions a tick, %.1f more counted\n",
	       spin_insns(2 * n), t2, m2, per_tick, extra);
	if (m1 < 4 || m2 < 4 || per_tick <= 0 || extra < -2 || extra > 20) {
		fprintf(stderr, "the clock does not count instructions: %s\n",
			"run under QEMU with -icount shift=0");
		exit(1);
	}
	return per_tick;
}

/*
 * @have_perfctr: 0 on a kernel without perfctr (the unpatched one, or
 * PERFCTR=n: --no-perfctr), which gets the row without counters only.  On a kernel
 * with perfctr that row runs first, before any state has turned the
 * switch hooks' static branch on: it is the series built in and unused.
 */
static void insns_per_switch_icount(int have_perfctr, int have_pmc)
{
	static const char * const names[] = { "switch: no counters",
		"switch: TSC on (perfctr)", "switch: task-clock (perf_event)",
		"switch: TSC + 2 PMCs (perfctr)",
		"switch: instructions + cycles (perf_event)" };
	/*
	 * perf_events' last: closing its task events leaves its switch
	 * hooks on (perf_sched_events) for a second or so, which a row
	 * after them would pay.
	 */
	static const int order[] = { CNT_NONE, CNT_TSC, CNT_TSC_PMC, CNT_PERF, CNT_PERF_HW };
	const char *group = "instructions per switch (icount)";
	struct ips p = { .cfd = -1 };
	double per_tick, mode[NR_CNT];
	int i, m;

	pin_cpu0_fifo();
	per_tick = ips_calibrate();
	for (i = 0; i < NR_CNT; i++) {
		m = order[i];
		if (!have_pmc && (m == CNT_TSC_PMC || m == CNT_PERF_HW))
			continue;
		if (!have_perfctr && m != CNT_NONE)
			break;
		p.mode = m;
		mode[m] = ips_row(&p, group, names[m], m ? names[0] : NULL, per_tick);
		/* The row gives the most frequent window, as its figure. */
		rows[nrows - 1].median = mode[m];
		printf("BENCH-NOTE instructions per switch (icount): %s %.2f, ", names[m], mode[m]);
		printf("%+.2f against no counters\n", mode[m] - mode[CNT_NONE]);
	}
}

/* --------------------------------------------------------------- memory */

#define NTHREADS 512

static pthread_barrier_t bar_ready, bar_go;

static void *mem_thread(void *arg)
{
	int fd = -1;

	if (arg)
		fd = tsc_state();
	pthread_barrier_wait(&bar_ready);
	pthread_barrier_wait(&bar_go);
	if (fd >= 0) {
		vperfctr_unlink(fd);
		close(fd);
	}
	return NULL;
}

static long mem_free_kb(void)
{
	char line[128];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %ld kB", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* Kernel memory per thread, in KiB, with or without counters. */
static double mem_per_thread(int counters)
{
	pthread_t t[NTHREADS];
	long before, after;
	int i;

	pthread_barrier_init(&bar_ready, NULL, NTHREADS + 1);
	pthread_barrier_init(&bar_go, NULL, NTHREADS + 1);
	before = mem_free_kb();
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, mem_thread, counters ? (void *)1 : NULL);
	pthread_barrier_wait(&bar_ready);
	after = mem_free_kb();
	pthread_barrier_wait(&bar_go);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&bar_ready);
	pthread_barrier_destroy(&bar_go);
	return (double)(before - after) / NTHREADS;
}

/*
 * With memory cgroups (the bench kernels have them), each part exactly:
 * everything a state allocates is charged to the caller's cgroup, and
 * memory.stat is exact after the periodic flush (every 2 s) up to a
 * page per CPU of byte-charge stock.  Three runs of NTHREADS threads:
 * without counters, with a TSC state each, and with a TSC state and a
 * second descriptor of it each (a file without a state).  Then the file
 * is the third run's slab less the second's, the state (struct vperfctr)
 * the second's slab less the first's less the file, and its page the
 * kernel memory that is not slab.
 */
#define CG_ROOT	"/sys/fs/cgroup"
#define CG_DIR	CG_ROOT "/perfctr-bench"

static int write_str(const char *path, const char *str)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fputs(str, f) >= 0;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* Move the process into a memory cgroup of its own; 0 on success. */
static int memcg_enter(void)
{
	char pid[32];

	if (access(CG_ROOT "/cgroup.controllers", F_OK) &&
	    mount("none", CG_ROOT, "cgroup2", 0, NULL))
		return -1;
	if (write_str(CG_ROOT "/cgroup.subtree_control", "+memory"))
		return -1;
	if (mkdir(CG_DIR, 0755) && errno != EEXIST)
		return -1;
	snprintf(pid, sizeof(pid), "%d", getpid());
	return write_str(CG_DIR "/cgroup.procs", pid);
}

static void memcg_leave(void)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", getpid());
	write_str(CG_ROOT "/cgroup.procs", pid);
	rmdir(CG_DIR);
}

struct memstat {
	long long kernel, slab;
};

static int memcg_read(struct memstat *m)
{
	char key[64];
	long long v;
	FILE *f;

	/* The periodic flush makes memory.stat exact: wait for one. */
	usleep(2200 * 1000);
	f = fopen(CG_DIR "/memory.stat", "r");
	if (!f)
		return -1;
	m->kernel = -1;
	m->slab = -1;
	while (fscanf(f, "%63s %lld", key, &v) == 2) {
		if (!strcmp(key, "kernel"))
			m->kernel = v;
		else if (!strcmp(key, "slab"))
			m->slab = v;
	}
	fclose(f);
	return m->kernel < 0 || m->slab < 0 ? -1 : 0;
}

static void *memcg_thread(void *arg)
{
	long what = (long)arg;
	int fd = -1, fd2 = -1;

	if (what) {
		fd = tsc_state();
		if (what > 1)
			fd2 = vperfctr_open(0, 0);
	}
	pthread_barrier_wait(&bar_ready);
	pthread_barrier_wait(&bar_go);
	if (fd2 >= 0)
		close(fd2);
	if (fd >= 0) {
		vperfctr_unlink(fd);
		close(fd);
	}
	return NULL;
}

/* memory.stat with NTHREADS threads alive, each as "what" says. */
static int memcg_run(long what, struct memstat *m)
{
	pthread_t t[NTHREADS];
	int i, err;

	pthread_barrier_init(&bar_ready, NULL, NTHREADS + 1);
	pthread_barrier_init(&bar_go, NULL, NTHREADS + 1);
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, memcg_thread, (void *)what);
	pthread_barrier_wait(&bar_ready);
	err = memcg_read(m);
	pthread_barrier_wait(&bar_go);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&bar_ready);
	pthread_barrier_destroy(&bar_go);
	return err;
}

#define MEMCG_REPS	5

static int bench_memory_memcg(void)
{
	double state[MEMCG_REPS], page[MEMCG_REPS], file[MEMCG_REPS], all[MEMCG_REPS];
	/* Two descriptors a thread in the third run. */
	struct rlimit nofile = { 4 * NTHREADS, 4 * NTHREADS };
	struct memstat m[3];
	int rep;
	long w;

	if (setrlimit(RLIMIT_NOFILE, &nofile))
		perror("setrlimit");
	if (memcg_enter()) {
		printf("BENCH-NOTE memory: no memory cgroup (%s); free memory instead\n",
		       strerror(errno));
		return -1;
	}
	for (rep = 0; rep < MEMCG_REPS; rep++) {
		for (w = 0; w < 3; w++) {
			if (memcg_run(w, &m[w])) {
				printf("BENCH-NOTE memory: memory.stat unreadable\n");
				memcg_leave();
				return -1;
			}
		}
		file[rep] = (double)(m[2].slab - m[1].slab) / NTHREADS;
		state[rep] = (double)(m[1].slab - m[0].slab) / NTHREADS - file[rep];
		page[rep] = (double)((m[1].kernel - m[1].slab) - (m[0].kernel - m[0].slab)) /
			    NTHREADS;
		all[rep] = (double)(m[1].kernel - m[0].kernel) / NTHREADS;
	}
	memcg_leave();
	add_row_n("memory", "state (struct vperfctr), memcg slab", "bytes/thread", NULL,
		  state, MEMCG_REPS);
	add_row_n("memory", "state page, memcg kernel less slab", "bytes/thread", NULL,
		  page, MEMCG_REPS);
	add_row_n("memory", "file (file, dentry, inode), memcg slab", "bytes/thread", NULL,
		  file, MEMCG_REPS);
	add_row_n("memory", "TSC state in all (state+page+file)", "bytes/thread", NULL,
		  all, MEMCG_REPS);
	printf("BENCH-NOTE memory: page size %ld bytes; %s\n", sysconf(_SC_PAGESIZE),
	       "goal: a TSC state within one page + 2048 bytes");
	return 0;
}

static void bench_memory(void)
{
	double s[2][REPS];
	int rep;

	if (!bench_memory_memcg())
		return;
	for (rep = 0; rep < REPS; rep++) {
		s[0][rep] = mem_per_thread(0);
		s[1][rep] = mem_per_thread(1);
	}
	add_row("memory", "thread without counters", "KiB/thread", NULL, s[0]);
	add_row("memory", "thread with TSC counters (state+page+fd)", "KiB/thread",
		"thread without counters", s[1]);
}

/* --------------------------------------------------------------- output */

static void print_table(void)
{
	const struct row *b;
	int i;

	printf("| group | what | median | spread (min..max) | baseline | ratio |\n");
	printf("|---|---|---:|---:|---|---:|\n");
	for (i = 0; i < nrows; i++) {
		b = rows[i].baseline ? find_row(rows[i].baseline, rows[i].unit) : NULL;
		printf("| %s | %s | %.3f %s | %.3f..%.3f | %s | ",
		       rows[i].group, rows[i].name, rows[i].median, rows[i].unit,
		       rows[i].min, rows[i].max, b ? b->name : "(baseline)");
		if (b && rows[i].median > 0)
			printf("%.3f (1/%.1f) |\n", rows[i].median / b->median,
			       b->median / rows[i].median);
		else
			printf("1 |\n");
	}
	printf("BENCH-JSON [");
	for (i = 0; i < nrows; i++) {
		b = rows[i].baseline ? find_row(rows[i].baseline, rows[i].unit) : NULL;
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

int main(int argc, char **argv)
{
	struct perfctr_info info;

	if (argc > 1 && !strcmp(argv[1], "--switch-only")) {
		/* On a kernel without perfctr: the switch cost alone. */
		double s[REPS];
		int rep;

		for (rep = 0; rep < REPS; rep++)
			s[rep] = pingpong(CNT_NONE, 2000);
		add_row("context switch", "switch: no counters", "us/switch", NULL, s);
		print_table();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--insns-per-switch")) {
		/* The same user addresses in every boot (thread stacks, buffers). */
		int pers = personality(0xffffffff);

		if (pers != -1 && !(pers & ADDR_NO_RANDOMIZE)) {
			personality(pers | ADDR_NO_RANDOMIZE);
			execv("/proc/self/exe", argv);
		}
		insns_per_switch();
		print_table();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--insns-per-switch-icount")) {
		int pers = personality(0xffffffff);

		if (pers != -1 && !(pers & ADDR_NO_RANDOMIZE)) {
			personality(pers | ADDR_NO_RANDOMIZE);
			execv("/proc/self/exe", argv);
		}
		/* --no-perfctr: the unpatched or PERFCTR=n kernel, said so. */
		if (argc > 2 && !strcmp(argv[2], "--no-perfctr")) {
			if (!perfctr_info(&info, NULL, NULL)) {
				fprintf(stderr, "--no-perfctr, but this kernel has perfctr\n");
				return 1;
			}
			printf("BENCH-NOTE instructions per switch (icount): %s\n",
			       "a kernel without perfctr: no counters only");
			insns_per_switch_icount(0, 0);
			print_table();
			return 0;
		}
		if (perfctr_info(&info, NULL, NULL)) {
			perror("perfctr_info");
			return 1;
		}
		insns_per_switch_icount(1, (info.cpu_features & PERFCTR_FEATURE_RDPMC) &&
					info.cpu_type);
		print_table();
		return 0;
	}
	if (perfctr_info(&info, NULL, NULL)) {
		perror("perfctr_info");
		return 1;
	}
	if (argc > 1 && !strcmp(argv[1], "--memory")) {
		bench_memory();
		print_table();
		return 0;
	}
	have_pmcs = (info.cpu_features & PERFCTR_FEATURE_RDPMC) && info.cpu_type;
	bench_reads();
	if (have_pmcs)
		bench_pmc_reads();
	bench_start_stop();
	bench_fork();
	bench_chain();
	bench_switch("switch: no counters");
	bench_memory();
	print_table();
	return 0;
}
