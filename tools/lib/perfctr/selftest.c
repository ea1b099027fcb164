// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr-selftest - check perfctr's counts on this CPU, as a user can.
 *
 * Runs loops of a known number of instructions under the calling
 * thread's virtual counters, through libperfctr's public API only, and
 * prints one line per check:
 *
 *   PASS|FAIL|SKIP <name>: expected <...>, counted <...>
 *
 * (a SKIP says why).  The events are those perfex counts for perf's
 * generic "instructions" and "cycles" (events.c), in user mode.
 * Exit status: 0 when no check failed, 1 when one did or perfctr
 * cannot be used at all (the reason on one line).
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <libperfctr.h>
#include "compiler.h"
#include "events.h"

#define N1		100000UL	/* the two loop lengths, in iterations */
#define N2		200000UL
#define TRIES		30		/* the least count of this many runs */
#define SLOW_READ_SLACK	16	/* instructions, reads by the system call */
#define PERIOD		100000		/* instructions between two overflow signals */
#define CPUTIME_NS	200000000LL	/* the TSC check's thread CPU time */

#define X86_EVNTSEL_INT	0x00100000U	/* interrupt on overflow: i-mode */

#ifndef _ARCH_PPC	/* x86 */
#define INSNS_PER_ITER	2		/* dec, jnz */
#define LOOP_DESC	"dec/jnz"
#else
#define INSNS_PER_ITER	1		/* bdnz */
#define LOOP_DESC	"bdnz"
#endif

/*
 * A constant number of instructions plus INSNS_PER_ITER * @n, for any
 * @n, 0 included: the branch over the loop is one instruction taken or
 * not.  Not inlined: every length runs the same code around the loop.
 */
static noinline void insn_loop(unsigned long n)
{
#ifndef _ARCH_PPC
	__asm__ __volatile__("test %0, %0\n\tjz 2f\n1:\tdec %0\n\tjnz 1b\n2:"
			     : "+r"(n) : : "cc");
#elif defined(_ARCH_PPC64)
	__asm__ __volatile__("mtctr %0\n\tcmpdi %0, 0\n\tbeq 2f\n1:\tbdnz 1b\n2:"
			     : : "r"(n) : "ctr", "cr0");
#else
	__asm__ __volatile__("mtctr %0\n\tcmpwi %0, 0\n\tbeq 2f\n1:\tbdnz 1b\n2:"
			     : : "r"(n) : "ctr", "cr0");
#endif
}

static struct vperfctr *self;
static struct perfctr_info info;
static int nfailed, npassed, nskipped;

/* The control of the PMC checks: instructions (counter 0), cycles (1, if any). */
static struct perfctr_cpu_control pmc_cc;
static int have_pmc, have_cycles;
static char pmc_skip[512];	/* why not, when !have_pmc */
static char cycles_skip[512];

static __printf(3, 4) void say(const char *verdict, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%s %s: ", verdict, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

#define RESULT(cond, name, ...) do {				\
	int ok_ = (cond);					\
								\
	if (ok_)						\
		npassed++;					\
	else							\
		nfailed++;					\
	say(ok_ ? "PASS" : "FAIL", name, __VA_ARGS__);		\
} while (0)

#define SKIP(name, ...) do {					\
	nskipped++;						\
	say("SKIP", name, __VA_ARGS__);				\
} while (0)

static unsigned long long ull(__u64 v)
{
	return v;
}

/* Install @cc (tsc_on is set) with @flags; 0, or the errno. */
static int set_control(const struct perfctr_cpu_control *cc, unsigned int flags, int signo)
{
	struct vperfctr_control control;

	memset(&control, 0, sizeof(control));
	control.cpu_control = *cc;
	control.cpu_control.tsc_on = 1;
	control.flags = flags;
	control.si_signo = signo;
	return vperfctr_control(self, &control) ? errno : 0;
}

static int set_tsc_only(unsigned int flags)
{
	struct perfctr_cpu_control cc;

	memset(&cc, 0, sizeof(cc));
	return set_control(&cc, flags, 0);
}

/* The PMC control from perfex's generic events, or why there is none. */
static void pmc_setup(void)
{
	const char *inst = "instructions", *cyc = "cycles";
	struct perfex_events ev;
	char err[256];
	unsigned int i;
	int e;

	if (!perfctr_info_nrctrs(&info)) {
		snprintf(pmc_skip, sizeof(pmc_skip), "no PMU (TSC-only model: %s)",
			 perfctr_info_cpu_name(&info));
		return;
	}
	if (info.cpu_features & PERFCTR_FEATURE_PMU_BUSY) {
		snprintf(pmc_skip, sizeof(pmc_skip), "PMU busy: %s",
			 perfctr_strerror(EBUSY, &info));
		return;
	}
	memset(&ev, 0, sizeof(ev));
	memset(&pmc_cc, 0, sizeof(pmc_cc));
	if (perfex_add_events(&info, &pmc_cc, &ev, &inst, 1, err, sizeof(err))) {
		snprintf(pmc_skip, sizeof(pmc_skip), "no instructions event (%s)", err);
		return;
	}
	if (perfex_add_events(&info, &pmc_cc, &ev, &cyc, 1, err, sizeof(err)))
		snprintf(cycles_skip, sizeof(cycles_skip), "no cycles event (%s)", err);
	else
		have_cycles = 1;
	for (i = 0; i < ev.n; i++)
		free(ev.name[i]);
	e = set_control(&pmc_cc, 0, 0);
	if (e == EACCES || e == EPERM) {
		snprintf(pmc_skip, sizeof(pmc_skip), "perfctr_access too low: %s",
			 perfctr_strerror(e, &info));
	} else if (e == EBUSY) {
		snprintf(pmc_skip, sizeof(pmc_skip), "PMU busy: %s", perfctr_strerror(e, &info));
	} else if (e) {
		snprintf(pmc_skip, sizeof(pmc_skip), "the control is refused: %s: %s",
			 strerror(e), perfctr_strerror(e, &info));
		nfailed++;	/* a control perfex would use: a failure */
	} else {
		have_pmc = 1;
	}
	if (!have_pmc)
		have_cycles = 0;
}

/* Counter @i's count around insn_loop(@n), by two fast reads. */
static noinline __u64 count_loop(unsigned int i, unsigned long n)
{
	__u64 a, b;

	a = vperfctr_read_pmc(self, i);
	insn_loop(n);
	b = vperfctr_read_pmc(self, i);
	return b - a;
}

/* The least count of @tries runs: interrupts only ever add. */
static __u64 min_count(unsigned int i, unsigned long n, int tries)
{
	__u64 d, best = ~0ULL;

	while (tries--) {
		d = count_loop(i, n);
		if (d < best)
			best = d;
	}
	return best;
}

/* Is @got within @slack of @want? */
static int near(__u64 got, unsigned long long want, unsigned int slack)
{
	return got + slack >= want && got <= want + slack;
}

/* 1 and 2: instructions exactly (fast reads), cycles at least. */
static void check_instructions_cycles(void)
{
	__u64 c0, c1, c2, cyc;
	unsigned long long want;
	unsigned int slack;

	if (!have_pmc) {
		SKIP("instructions", "%s", pmc_skip);
		SKIP("cycles", "%s", pmc_skip);
		return;
	}
	/*
	 * Read by the system call (no user-space read: ppc32 programs on a
	 * 64-bit kernel), each count holds the kernel's instructions of the
	 * reads too wherever the user-only freeze is not honoured (QEMU):
	 * their number varies by a few between runs, so the counts must be
	 * within SLOW_READ_SLACK of the loop's, and are said to be so.
	 */
	slack = vperfctr_fast_ok(self, PERFCTR_FEATURE_RDPMC) ? 0 : SLOW_READ_SLACK;
	c0 = min_count(0, 0, TRIES);
	c1 = min_count(0, N1, TRIES);
	c2 = min_count(0, N2, TRIES);
	want = (N2 - N1) * INSNS_PER_ITER;
	RESULT(near(c1 - c0, N1 * INSNS_PER_ITER, slack) && near(c2 - c1, want, slack),
	       "instructions",
	       "expected %lu and %lu%s (%s loops of %lu and %lu, %d instructions per iteration, the overhead %llu of an empty run subtracted; least of %d runs), counted %lld and %lld",
	       N1 * INSNS_PER_ITER, N2 * INSNS_PER_ITER,
	       slack ? " within 16 (system-call reads)" : "", LOOP_DESC, N1, N2,
	       INSNS_PER_ITER, ull(c0), TRIES, (long long)(c1 - c0), (long long)(c2 - c0));
	if (!have_cycles) {
		SKIP("cycles", "%s", cycles_skip);
		return;
	}
	cyc = min_count(1, N2, 5);
	RESULT(cyc >= N2 / 4, "cycles",
	       "expected at least %lu (a quarter of the %lu iterations), counted %llu",
	       N2 / 4, N2, ull(cyc));
}

static long long thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * The TSC's rate in kHz and where it comes from.  x86: cpu_khz is the
 * TSC's.  powerpc: cpu_khz is the core's and tsc_to_cpu_mult a whole
 * ratio, so the timebase's own rate from /proc/cpuinfo where it says.
 */
static double tsc_khz(const char **from)
{
	unsigned int mult = info.tsc_to_cpu_mult ? info.tsc_to_cpu_mult : 1;
#ifdef _ARCH_PPC
	unsigned long long tb;
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "timebase : %llu", &tb) == 1 && tb) {
			fclose(f);
			*from = "/proc/cpuinfo's timebase";
			return tb / 1000.0;
		}
	}
	if (f)
		fclose(f);
#endif
	*from = "perfctr_info's cpu_khz / tsc_to_cpu_mult";
	return (double)info.cpu_khz / mult;
}

/* 3: the virtual TSC against the thread's CPU time. */
static void check_tsc(void)
{
	const char *from;
	double khz = tsc_khz(&from), secs, cpu, ratio;
	long long t0, t1;
	__u64 a, b;

	if (!khz) {
		SKIP("tsc", "perfctr_info gives no clock rate (cpu_khz 0)");
		return;
	}
	a = vperfctr_read_tsc(self);
	t0 = thread_ns();
	do {
		insn_loop(N1);
		t1 = thread_ns();
	} while (t1 - t0 < CPUTIME_NS);
	b = vperfctr_read_tsc(self);
	secs = (double)(b - a) / (khz * 1000.0);
	cpu = (t1 - t0) / 1e9;
	ratio = secs / cpu;
	RESULT(ratio >= 0.5 && ratio <= 2.0, "tsc",
	       "expected %.3f s (CLOCK_THREAD_CPUTIME_ID) within x0.5 to x2, counted %.3f s (%llu ticks at %.0f kHz, %s: x%.2f)",
	       cpu, secs, ull(b - a), khz, from, ratio);
}

/* A before B, counter by counter: the first counter of @n where A > B, or -1. */
static int later(const struct perfctr_sum_ctrs *a, const struct perfctr_sum_ctrs *b,
		 unsigned int n)
{
	unsigned int i;

	if (a->tsc > b->tsc)
		return 0;
	for (i = 0; i < n; i++)
		if (a->pmc[i] > b->pmc[i])
			return i + 1;
	return -1;
}

/* 4: the fast read against the read system call after it. */
static void check_fast_read(unsigned int n)
{
	unsigned int need = PERFCTR_FEATURE_RDTSC | (n ? PERFCTR_FEATURE_RDPMC : 0);
	struct perfctr_sum_ctrs fast, slow, prev;
	int k, bad = 0, where = -1, r;

	if (!vperfctr_fast_ok(self, need)) {
		SKIP("fast-read",
		     "no user-space read on this CPU (perfctr_info lacks %s): every read is the system call",
		     n ? "PERFCTR_FEATURE_RDTSC or _RDPMC" : "PERFCTR_FEATURE_RDTSC");
		return;
	}
	memset(&prev, 0, sizeof(prev));
	for (k = 0; k < 1000; k++) {
		if (vperfctr_read_ctrs(self, &fast) || vperfctr_read_ctrs_slow(self, &slow)) {
			RESULT(0, "fast-read", "expected two reads, counted an error: %s",
			       strerror(errno));
			return;
		}
		r = later(&prev, &fast, n);
		if (r < 0)
			r = later(&fast, &slow, n);
		if (r >= 0 && !bad++)
			where = r;
		prev = slow;
	}
	RESULT(!bad, "fast-read",
	       "expected each fast read >= the system-call read before it and <= the one after it, %u counter%s and the TSC, 1000 pairs, counted %d out of order%s%s (last: fast TSC %llu, read %llu)",
	       n, n == 1 ? "" : "s", bad, bad ? ", first in " : "",
	       !bad ? "" : where == 0 ? "the TSC" : "a PMC", ull(fast.tsc), ull(slow.tsc));
}

/* 5: an overflow signal per period. */
static atomic_int ovf_signals, ovf_bad, ovf_errno;

static void on_overflow(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;

	if (si->si_code != SI_PMC_OVF) {
		atomic_fetch_add(&ovf_bad, 1);
		return;
	}
	atomic_fetch_add(&ovf_signals, 1);
	if (vperfctr_iresume(self))
		atomic_store(&ovf_errno, errno);
	errno = saved;
}

static void check_overflow(void)
{
	unsigned long n = 10 * N1;	/* iterations */
	unsigned long long insns = (unsigned long long)n * INSNS_PER_ITER, want;
	struct perfctr_cpu_control cc;
	struct perfctr_sum_ctrs sum;
	struct sigaction sa;
	unsigned int i;
	int e, got;

	if (!have_pmc) {
		SKIP("overflow", "%s", pmc_skip);
		return;
	}
	if (!(info.cpu_features & PERFCTR_FEATURE_PCINT)) {
		SKIP("overflow",
		     "no overflow interrupt on this CPU model (perfctr_info lacks PERFCTR_FEATURE_PCINT)");
		return;
	}
	/* The instructions counter, alone, in i-mode: a signal every PERIOD. */
	cc = pmc_cc;
	cc.nractrs = 0;
	cc.nrictrs = 1;
	for (i = 1; i < PERFCTR_NRCTRS; i++) {	/* no trace of the cycles counter */
		cc.pmc_map[i] = 0;
		cc.evntsel[i] = 0;
#ifndef _ARCH_PPC
		cc.evntsel_high[i] = 0;
#endif
	}
#ifndef _ARCH_PPC
	if (cc.pmc_map[0] >= 0x40000000U) {
		/* A fixed counter: perfex's "instructions@0" is general counter 0. */
		struct perfex_events ev;
		const char *spec = "instructions@0";
		char err[256];

		memset(&ev, 0, sizeof(ev));
		memset(&cc, 0, sizeof(cc));
		if (perfex_add_events(&info, &cc, &ev, &spec, 1, err, sizeof(err))) {
			SKIP("overflow", "no instructions event on a general counter (%s)", err);
			return;
		}
		free(ev.name[0]);
		cc.nractrs = 0;
		cc.nrictrs = 1;
	}
	cc.evntsel[0] |= X86_EVNTSEL_INT;
	cc.ireset[0] = -PERIOD;
#else
	cc.ireset[0] = 0x80000000U - PERIOD;	/* overflows when bit 31 sets */
#endif
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_overflow;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGIO, &sa, NULL);
	e = set_control(&cc, 0, SIGIO);
	if (e) {
		RESULT(0, "overflow", "expected an i-mode control, counted an error: %s: %s",
		       strerror(e), perfctr_strerror(e, &info));
		return;
	}
	insn_loop(n);
	e = vperfctr_read_ctrs_slow(self, &sum) ? errno : 0;
	got = atomic_load(&ovf_signals);
	set_tsc_only(0);
	signal(SIGIO, SIG_DFL);
	if (e) {
		RESULT(0, "overflow", "expected a read, counted an error: %s", strerror(e));
		return;
	}
	/* The counter's total: signal k came at k periods. */
	want = sum.pmc[0];
	RESULT(!ovf_bad && !ovf_errno && want >= insns &&
	       got >= (long long)(want / PERIOD) - 1 && got <= (long long)(want / PERIOD) + 1,
	       "overflow",
	       "expected %llu signals +-1 (the counter's total %llu, of which the loop's %llu, every %d), counted %d%s%s",
	       want / PERIOD, want, insns, PERIOD, got,
	       ovf_bad ? ", and signals without SI_PMC_OVF" : "",
	       ovf_errno ? ", and vperfctr_iresume failed" : "");
}

/* 6: a child's counts in the children's sums. */
static void check_inherit(void)
{
	struct vperfctr_children before, after;
	struct perfctr_sum_ctrs child;
	unsigned long long loop = N2 * INSNS_PER_ITER, dpmc, dtsc;
	int fds[2], status, e;
	pid_t pid;

	e = have_pmc ? set_control(&pmc_cc, VPERFCTR_CONTROL_INHERIT, 0) :
		       set_tsc_only(VPERFCTR_CONTROL_INHERIT);
	if (e || pipe(fds)) {
		RESULT(0, "inherit-tsc", "expected an inheriting control, counted an error: %s",
		       strerror(e ? e : errno));
		return;
	}
	if (vperfctr_read_children(self, &before)) {
		RESULT(0, "inherit-tsc", "expected a read, counted an error: %s", strerror(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* Its own inherited state: stopped after the loop, so the exit adds nothing. */
		struct vperfctr *own = vperfctr_open();

		insn_loop(N2);
		if (!own || vperfctr_suspend(own) || vperfctr_read_ctrs_slow(own, &child))
			_exit(1);
		_exit(write(fds[1], &child, sizeof(child)) == sizeof(child) ? 0 : 2);
	}
	close(fds[1]);
	e = pid < 0 || read(fds[0], &child, sizeof(child)) != sizeof(child);
	close(fds[0]);
	if (pid > 0 && (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
			WEXITSTATUS(status)))
		e = 1;
	if (e || vperfctr_read_children(self, &after)) {
		RESULT(0, "inherit-tsc",
		       "expected a child that reports its counts, counted a failure");
		return;
	}
	dtsc = after.sum.tsc - before.sum.tsc;
	dpmc = after.sum.pmc[0] - before.sum.pmc[0];
	if (!have_pmc) {
		SKIP("inherit-pmc", "%s", pmc_skip);
	} else {
		RESULT(dpmc == child.pmc[0] && child.pmc[0] >= loop &&
		       after.nr_merged == before.nr_merged + 1, "inherit-pmc",
		       "expected the child's own final count %llu (its loop %llu and what ran around it), 1 merged, counted %llu, %u merged",
		       ull(child.pmc[0]), loop, dpmc, after.nr_merged - before.nr_merged);
	}
	RESULT(dtsc == child.tsc && dtsc > 0 && after.nr_merged == before.nr_merged + 1,
	       "inherit-tsc", "expected the child's own final TSC %llu (> 0), counted %llu",
	       ull(child.tsc), dtsc);
}

/* 7: suspend and resume keep the sums; a suspended loop counts nothing. */
static void check_suspend(void)
{
	struct perfctr_sum_ctrs a, b, c;
	unsigned int n = have_pmc ? 1 : 0;
	unsigned long long loop = N2 * INSNS_PER_ITER;
	int e;

	e = have_pmc ? set_control(&pmc_cc, 0, 0) : set_tsc_only(0);
	if (!e) {
		insn_loop(N1);
		e = vperfctr_suspend(self) || vperfctr_read_ctrs_slow(self, &a);
	}
	if (!e) {
		insn_loop(N2);
		e = vperfctr_read_ctrs_slow(self, &b) || vperfctr_resume(self);
	}
	if (!e) {
		insn_loop(N2);
		e = vperfctr_read_ctrs_slow(self, &c);
	}
	if (e) {
		RESULT(0, "suspend", "expected suspend, reads, resume, counted an error: %s",
		       strerror(errno));
		return;
	}
	if (n)
		RESULT(a.tsc == b.tsc && a.pmc[0] == b.pmc[0] && c.tsc > b.tsc &&
		       c.pmc[0] >= b.pmc[0] + loop && a.pmc[0] >= N1 * INSNS_PER_ITER, "suspend",
		       "expected +0 instructions and TSC ticks over a suspended loop of %llu instructions, then >= +%llu after the resume, counted +%llu and +%llu ticks, then +%llu",
		       loop, loop, ull(b.pmc[0] - a.pmc[0]), ull(b.tsc - a.tsc),
		       ull(c.pmc[0] - b.pmc[0]));
	else
		RESULT(a.tsc == b.tsc && a.tsc > 0 && c.tsc > b.tsc, "suspend",
		       "expected +0 TSC ticks over a suspended loop, then more after the resume (sum %llu kept), counted +%llu, then +%llu",
		       ull(a.tsc), ull(b.tsc - a.tsc), ull(c.tsc - b.tsc));
}

#ifndef _ARCH_PPC
static __u64 rdpmc_raw(unsigned int idx)
{
	unsigned int lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return (__u64)hi << 32 | lo;
}

/*
 * 8 (x86): what our counters counted is not readable by RDPMC from
 * another process on this CPU once we stop running there: the other
 * one's suspended state gives it the RDPMC permission, not our counts.
 * Both are pinned to one CPU; the other reads right after we block.
 */
static void check_rdpmc_leak(void)
{
	unsigned long long loop = 10 * N2 * INSNS_PER_ITER;
	unsigned int map = pmc_cc.pmc_map[0];
	int go[2], back[2], status, cpu, e;
	cpu_set_t old, one;
	__u64 seen = 0, ours = 0;
	pid_t pid;
	char ch;

	if (!have_pmc) {
		SKIP("rdpmc-leak", "%s", pmc_skip);
		return;
	}
	if (!(info.cpu_features & PERFCTR_FEATURE_RDPMC)) {
		SKIP("rdpmc-leak", "no user-space reads (RDPMC) on this model");
		return;
	}
	cpu = sched_getcpu();
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	e = cpu < 0 || sched_getaffinity(0, sizeof(old), &old) ||
	    sched_setaffinity(0, sizeof(one), &one) || pipe(go) || pipe(back);
	if (!e)
		e = set_control(&pmc_cc, 0, 0);
	if (e) {
		RESULT(0, "rdpmc-leak", "expected a pinned, counting thread, counted an error: %s",
		       strerror(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct vperfctr_control c;
		struct vperfctr *own = vperfctr_open();

		memset(&c, 0, sizeof(c));
		c.cpu_control = pmc_cc;
		if (!own || vperfctr_control(own, &c) || vperfctr_suspend(own))
			_exit(1);
		if (write(back[1], "r", 1) != 1 || read(go[0], &ch, 1) != 1)
			_exit(2);
		seen = rdpmc_raw(map);
		_exit(write(back[1], &seen, sizeof(seen)) == sizeof(seen) ? 0 : 3);
	}
	e = pid < 0 || read(back[0], &ch, 1) != 1;
	if (!e) {
		insn_loop(loop / INSNS_PER_ITER);
		ours = vperfctr_read_pmc(self, 0);
		/* We block on the pipe; the child, woken on this CPU, reads. */
		e = write(go[1], "g", 1) != 1 || read(back[0], &seen, sizeof(seen)) != sizeof(seen);
	}
	if (pid > 0 && (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
			WEXITSTATUS(status)))
		e = 1;
	close(go[0]);
	close(go[1]);
	close(back[0]);
	close(back[1]);
	sched_setaffinity(0, sizeof(old), &old);
	if (e) {
		RESULT(0, "rdpmc-leak",
		       "expected a child that reads counter 0x%x, counted a failure", map);
		return;
	}
	RESULT(seen == 0, "rdpmc-leak",
	       "expected 0 from RDPMC 0x%x in another process on this CPU after ours (%llu instructions) stopped there, counted %llu",
	       map, ull(ours), ull(seen));
}
#endif

int main(int argc, char **argv)
{
	int e;

	if (argc > 1) {
		fprintf(stderr, "Usage: perfctr-selftest\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (perfctr_info(-1, &info)) {
		e = errno;
		printf("perfctr-selftest: perfctr_info: %s: %s\n", strerror(e),
		       perfctr_strerror(e, NULL));
		return 1;
	}
	self = vperfctr_open();
	if (!self) {
		e = errno;
		printf("perfctr-selftest: vperfctr_open: %s: %s\n", strerror(e),
		       perfctr_strerror(e, &info));
		return 1;
	}
	printf("perfctr-selftest: perfctr %s, CPU model %s (cpu_type %u), %u counters, %u kHz",
	       info.driver_version, perfctr_info_cpu_name(&info), info.cpu_type,
	       perfctr_info_nrctrs(&info), info.cpu_khz);
	printf(", features 0x%x\n", info.cpu_features);
	pmc_setup();
	if (!have_pmc) {
		e = set_tsc_only(0);
		if (e) {
			printf("perfctr-selftest: vperfctr_control (the TSC): %s: %s\n",
			       strerror(e), perfctr_strerror(e, &info));
			return 1;
		}
	}
	check_instructions_cycles();
	check_tsc();
	check_fast_read(have_pmc ? pmc_cc.nractrs : 0);
	check_overflow();
	check_inherit();
	check_suspend();
#ifndef _ARCH_PPC
	check_rdpmc_leak();
#endif
	vperfctr_stop(self);
	vperfctr_unlink(self);
	vperfctr_close(self);
	printf("perfctr-selftest: %d passed, %d failed, %d skipped\n", npassed, nfailed, nskipped);
	return nfailed ? 1 : 0;
}
