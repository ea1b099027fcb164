// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of libperfctr's marker API (perfctr_marker(3)) on a perfctr
 * kernel, printing TAP:
 *
 *  - no system call at region boundaries: a traced child runs a million
 *    start/stop pairs of regions it used once before, and the tracer
 *    counts the system calls it enters meanwhile (none; a second child
 *    making one in a region must show it: the count works).  Not a
 *    seccomp filter: the test kernels have no CONFIG_SECCOMP;
 *  - the results written at exit, as JSON, with the calls counted; one
 *    file per process, none from a forked child, none unless asked;
 *    a refused PERFCTR_MARKER_EVENTS said in one line;
 *  - where a PMC counts instructions in user mode (POWER8-10), a region
 *    around a bdnz loop counts it exactly: the least count of TRIES runs
 *    for two lengths differs by the difference of the lengths, whatever
 *    the region's name; nested regions add up; two threads keep their
 *    own sums; elsewhere the TSC;
 *  - the errors, and the text, CSV and JSON outputs of the program's sums.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libperfctr.h>
#include <perfctr_marker.h>

#include "../compiler.h"
#include "tap.h"

#define PAIRS		1000000UL	/* start/stop pairs under the filter */
#define N1		100000UL	/* loop lengths, in iterations (bdnz) */
#define N2		200000UL
#define TRIES		30		/* the least count of this many runs */

static struct perfctr_info info;
static int have_pmc;		/* a PMC counts instructions, read in user mode */

/*
 * A constant number of instructions plus @n, 0 included (the branch over
 * the loop is one instruction, taken or not).  Not inlined: every length
 * runs the same code around the loop.
 */
static noinline void insn_loop(unsigned long n)
{
#if defined(_ARCH_PPC64)
	__asm__ __volatile__("mtctr %0\n\tcmpdi %0, 0\n\tbeq 2f\n1:\tbdnz 1b\n2:"
			     : : "r"(n) : "ctr", "cr0");
#elif defined(_ARCH_PPC)
	__asm__ __volatile__("mtctr %0\n\tcmpwi %0, 0\n\tbeq 2f\n1:\tbdnz 1b\n2:"
			     : : "r"(n) : "ctr", "cr0");
#else
	/* One instruction an iteration, as bdnz. */
	__asm__ __volatile__("test %0, %0\n\tjz 2f\n1:\tloop 1b\n2:"
			     : "+c"(n) : : "cc");
#endif
}

/*
 * The calling thread's control before perfctr_marker_init(): POWER8-10's
 * PMC5 (instructions, user mode) where the kernel lets user space read
 * it, else none (the marker then counts the TSC alone).  x86's exact
 * counts are perfctr-selftest's: QEMU TCG's x86 PMU does not count.
 */
static int setup_control(struct vperfctr **vp)
{
	struct vperfctr_control c;
	struct vperfctr *v;

	if (!have_pmc)
		return 0;
	v = vperfctr_open();
	if (!v)
		return -1;
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	c.cpu_control.nractrs = 1;
#ifdef _ARCH_PPC
	c.cpu_control.pmc_map[0] = 4;			/* PMC5 */
	c.cpu_control.ppc.mmcr0 = 0x40000000;		/* FCS: user only */
#else
	c.cpu_control.pmc_map[0] = 0;
	c.cpu_control.evntsel[0] = 0x4100c0;		/* instructions, user mode */
#endif
	if (vperfctr_control(v, &c)) {
		vperfctr_close(v);
		return -1;
	}
	*vp = v;
	return 0;
}

struct shared {
	int stage;			/* how far the child got */
	struct perfctr_marker_counts inner, outer;
};

/*
 * In a traced child: the marker, two regions used once, then between two
 * getppid() calls (the fences the tracer looks for) PAIRS pairs of the
 * inner region, nested in the outer one every 1000; @violate makes one
 * system call, getpid(), inside a region.
 */
static noinline void pairs_child(struct shared *sh, int violate)
{
	struct vperfctr *v = NULL;
	unsigned long i;

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) || raise(SIGSTOP))
		_exit(2);
	if (setup_control(&v) || perfctr_marker_init())
		_exit(3);
	sh->stage = 1;
	if (perfctr_marker_start("outer") || perfctr_marker_start("inner") ||
	    perfctr_marker_stop("inner") || perfctr_marker_stop("outer"))
		_exit(4);
	syscall(__NR_getppid);
	sh->stage = 2;
	for (i = 0; i < PAIRS; i++) {
		if (i % 1000 == 0 && perfctr_marker_start("outer"))
			break;
		if (perfctr_marker_start("inner"))
			break;
		if (violate && i == PAIRS / 2)
			syscall(__NR_getpid);
		if (perfctr_marker_stop("inner"))
			break;
		if (i % 1000 == 999 && perfctr_marker_stop("outer"))
			break;
	}
	sh->stage = i == PAIRS ? 3 : 5;
	perfctr_marker_get("inner", &sh->inner);
	perfctr_marker_get("outer", &sh->outer);
	syscall(__NR_getppid);
	_exit(0);
}

/*
 * The tracer: every system call the child enters between its two
 * getppid() fences is counted (PTRACE_SYSCALL, PTRACE_GET_SYSCALL_INFO);
 * @last gets the number of the last one.
 */
static int count_syscalls(pid_t pid, int *fences, int *inside, long *last, int *status)
{
	struct __ptrace_syscall_info si;
	int st, sig = 0;

	*fences = *inside = 0;
	*last = -1;
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGSTOP)
		return -1;
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL,
		   (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL)))
		return -1;
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig))
			return -1;
		sig = 0;
		if (waitpid(pid, &st, 0) != pid)
			return -1;
		if (WIFEXITED(st) || WIFSIGNALED(st))
			break;
		if (WSTOPSIG(st) != (SIGTRAP | 0x80)) {
			sig = WSTOPSIG(st);	/* a signal: delivered */
			continue;
		}
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(si), &si) <= 0)
			return -1;
		if (si.op != PTRACE_SYSCALL_INFO_ENTRY)
			continue;
		if (si.entry.nr == __NR_getppid) {
			++*fences;
		} else if (*fences == 1) {
			++*inside;
			*last = si.entry.nr;
		}
	}
	*status = st;
	return 0;
}

static void test_no_syscalls(void)
{
	unsigned int need = PERFCTR_FEATURE_RDTSC | (have_pmc ? PERFCTR_FEATURE_RDPMC : 0);
	int violate, status = -1, fences = 0, inside = 0, ret;
	long last = -1;
	struct shared *sh;
	pid_t pid;

	if ((info.cpu_features & need) != need) {
		skip("no system call in a million start/stop pairs",
		     "no user-mode reads of the counters here: the reads are system calls");
		skip("a system call in a region is seen", "as above");
		return;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		result(0, "no system call in a million start/stop pairs", "mmap: %s",
		       strerror(errno));
		return;
	}
	for (violate = 0; violate < 2; violate++) {
		memset(sh, 0, sizeof(*sh));
		fflush(stdout);
		pid = fork();
		if (pid == 0)
			pairs_child(sh, violate);
		ret = pid < 0 ? -1 : count_syscalls(pid, &fences, &inside, &last, &status);
		if (ret && pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		if (!violate)
			result(!ret && status == 0 && fences == 2 && !inside && sh->stage == 3 &&
			       sh->inner.count == PAIRS + 1 && sh->outer.count == PAIRS / 1000 + 1,
			       "no system call in a million start/stop pairs",
			       "traced child: %s, wait status 0x%x, stage %d, %d fences, %d system calls between them (the last %ld), %llu inner and %llu outer calls (expected %lu and %lu)",
			       ret ? "tracing failed" : "traced", status, sh->stage, fences, inside,
			       last, sh->inner.count, sh->outer.count, PAIRS + 1, PAIRS / 1000 + 1);
		else
			result(!ret && status == 0 && fences == 2 && inside == 1 &&
			       last == __NR_getpid,
			       "a system call in a region is seen",
			       "expected the one getpid (%d) between the fences: %s, %d fences, %d calls, the last %ld, status 0x%x",
			       __NR_getpid, ret ? "tracing failed" : "traced", fences, inside, last,
			       status);
	}
	munmap(sh, sizeof(*sh));
}

/* The results written at exit: JSON to PERFCTR_MARKER_OUTPUT. */
static void test_exit_output(void)
{
	char path[] = "/tmp/marker_test.XXXXXX", buf[4096], want[64];
	struct vperfctr *v = NULL;
	int fd, status, i;
	ssize_t n;
	pid_t pid;

	fd = mkstemp(path);
	if (fd < 0) {
		result(0, "results written at exit", "mkstemp: %s", strerror(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setenv("PERFCTR_MARKER_OUTPUT", path, 1);
		setenv("PERFCTR_MARKER_FORMAT", "json", 1);
		setenv("PERFCTR_MARKER_NAMES", "instructions", 1);
		if (setup_control(&v) || perfctr_marker_init())
			_exit(2);
		for (i = 0; i < 3; i++)
			if (perfctr_marker_start("at-exit") || perfctr_marker_stop("at-exit"))
				_exit(3);
		exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = -1;
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	close(fd);
	unlink(path);
	snprintf(want, sizeof(want), "{\"region\": \"at-exit\", \"threads\": [{\"thread\": 0");
	result(status == 0 && strstr(buf, "\"format\": 1") && strstr(buf, want) &&
	       strstr(buf, "\"calls\": 3") &&
	       (!have_pmc || strstr(buf, "\"events\": [\"instructions\"]")),
	       "results written at exit (JSON, 3 calls)", "status 0x%x, file: %s", status, buf);
}

/*
 * The results, one file per process: PERFCTR_MARKER_OUTPUT dir/m.%p.  A
 * child forked after the init exits without writing its parent's sums;
 * without PERFCTR_MARKER_OUTPUT nothing is written (standard error empty).
 */
static void test_fork_output(void)
{
	char dir[] = "/tmp/marker_test.XXXXXX", path[64], errpath[64], buf[4096];
	int status, ok, *gpid, n = 0, fd;
	pid_t pid, g;

	gpid = mmap(NULL, sizeof(*gpid), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (gpid == MAP_FAILED || !mkdtemp(dir)) {
		result(0, "one file per process, none from a forked child", "%s", strerror(errno));
		return;
	}
	snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		snprintf(path, sizeof(path), "%s/m.%%p", dir);
		setenv("PERFCTR_MARKER_OUTPUT", path, 1);
		if (perfctr_marker_init() || perfctr_marker_start("parent") ||
		    perfctr_marker_stop("parent"))
			_exit(2);
		/* A local first: the grandchild must not write the shared pid. */
		g = fork();
		if (g == 0)
			exit(0);	/* its atexit: no marker, no file */
		*gpid = g;
		if (g < 0 || waitpid(g, &status, 0) != g || status)
			_exit(3);
		exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = -1;
	snprintf(path, sizeof(path), "%s/m.%d", dir, (int)pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = 0;
	unlink(path);
	snprintf(path, sizeof(path), "%s/m.%d", dir, *gpid);
	ok = status == 0 && strstr(buf, "parent") && access(path, F_OK) && errno == ENOENT;
	unlink(path);
	result(ok, "one file per process (%p), none from a child forked after the init",
	       "status 0x%x, the parent's file: %s", status, buf);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		unsetenv("PERFCTR_MARKER_OUTPUT");
		if (!freopen(errpath, "w", stderr) || perfctr_marker_init() ||
		    perfctr_marker_start("quiet") || perfctr_marker_stop("quiet"))
			_exit(2);
		exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = -1;
	n = 0;
	fd = open(errpath, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = 0;
	unlink(errpath);
	rmdir(dir);
	munmap(gpid, sizeof(*gpid));
	result(status == 0 && fd >= 0 && n == 0, "no results written unless asked",
	       "status 0x%x, standard error: %s", status, buf);
}

/*
 * PERFCTR_MARKER_EVENTS=@spec in a child without a control: init's errno,
 * the sums; its standard error into @errbuf if not NULL.
 */
static int env_child(const char *spec, struct perfctr_marker_counts *c, char *errbuf, size_t size)
{
	char errpath[] = "/tmp/marker_test.XXXXXX";
	int errfd = -1;
	ssize_t n;
	struct shared *sh;
	int status, err = -1;
	pid_t pid;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return -1;
	memset(sh, 0, sizeof(*sh));
	sh->stage = -1;
	if (errbuf)
		errfd = mkstemp(errpath);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (errfd >= 0)
			dup2(errfd, 2);
		setenv("PERFCTR_MARKER_EVENTS", spec, 1);
		setenv("PERFCTR_MARKER_OUTPUT", "/dev/null", 1);
		sh->stage = perfctr_marker_init() ? errno : 0;
		if (!sh->stage) {
			struct perfctr_marker_counts b;
			unsigned long long prev = 0, least = ~0ULL;
			int k;

			/*
			 * The least of three regions: QEMU's POWER PMU counts the
			 * kernel too, and a tick or the first region's page
			 * faults added 11,060 instructions to one once.
			 */
			for (k = 0; k < 3; k++) {
				perfctr_marker_start("env");
				insn_loop(N1);
				perfctr_marker_stop("env");
				perfctr_marker_get("env", &b);
				if (b.pmc[0] - prev < least)
					least = b.pmc[0] - prev;
				prev = b.pmc[0];
			}
			sh->inner = b;
			sh->inner.pmc[0] = least;
		}
		exit(0);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && status == 0)
		err = sh->stage;
	*c = sh->inner;
	munmap(sh, sizeof(*sh));
	if (errfd >= 0) {
		n = pread(errfd, errbuf, size - 1, 0);
		errbuf[n > 0 ? n : 0] = 0;
		close(errfd);
		unlink(errpath);
	}
	return err;
}

/* The events of PERFCTR_MARKER_EVENTS, in perfex's syntax; a bad one refused. */
static void test_env_events(void)
{
	struct perfctr_marker_counts c;
	char errbuf[1024], *nl;
	int err;

	err = env_child("no-such-event", &c, errbuf, sizeof(errbuf));
	result(err == EINVAL, "PERFCTR_MARKER_EVENTS: an unknown event is refused (EINVAL)",
	       "init's errno %d (EINVAL %d)", err, EINVAL);
	nl = strchr(errbuf, '\n');
	result(!strncmp(errbuf, "perfctr marker: not counting: PERFCTR_MARKER_EVENTS: ", 53) &&
	       strstr(errbuf, "no-such-event") && nl && !nl[1],
	       "PERFCTR_MARKER_EVENTS: the refusal said in one line on standard error",
	       "%s", errbuf);
	if (!have_pmc) {
		skip("PERFCTR_MARKER_EVENTS=instructions counts",
		     "no user-readable instructions PMC");
		return;
	}
	err = env_child("instructions", &c, NULL, 0);
	result(err == 0 && c.count == 3 && c.nrpmcs == 1 && c.pmc[0] >= N1 &&
	       c.pmc[0] < N1 + 10000, "PERFCTR_MARKER_EVENTS=instructions counts",
	       "init's errno %d, %llu calls, %u PMCs, least %llu instructions (a loop of %lu)", err,
	       c.count, c.nrpmcs, c.pmc[0], N1);
}

/* One region around insn_loop(@n): its counts' increase. */
static noinline void region_loop(const char *name, unsigned long n, struct perfctr_marker_counts *d)
{
	struct perfctr_marker_counts a, b;

	perfctr_marker_get(name, &a);
	perfctr_marker_start(name);
	insn_loop(n);
	perfctr_marker_stop(name);
	perfctr_marker_get(name, &b);
	d->count = b.count - a.count;
	d->tsc = b.tsc - a.tsc;
	d->pmc[0] = b.pmc[0] - a.pmc[0];
}

/* The least instruction count of TRIES regions around insn_loop(@n): interrupts only add. */
static unsigned long long min_loop(const char *name, unsigned long n)
{
	struct perfctr_marker_counts d;
	unsigned long long best = ~0ULL;
	int i;

	perfctr_marker_register(name);
	for (i = 0; i < TRIES; i++) {
		region_loop(name, n, &d);
		if (d.pmc[0] < best)
			best = d.pmc[0];
	}
	return best;
}

static void test_exact(void)
{
	unsigned long long c0, c1, c2, c1b;

	if (!have_pmc) {
		skip("a region counts a loop exactly", "no user-readable instructions PMC");
		skip("the count does not depend on the region's name", "as above");
		return;
	}
	c0 = min_loop("loop", 0);
	c1 = min_loop("loop", N1);
	c2 = min_loop("loop", N2);
	result(c1 - c0 == N1 && c2 - c1 == N2 - N1, "a region counts a loop exactly",
	       "loops of %lu and %lu: expected +%lu and +%lu over the empty region's %llu, counted +%lld and +%lld",
	       N1, N2, N1, N2, c0, (long long)(c1 - c0), (long long)(c2 - c0));
	perfctr_marker_register("b");
	perfctr_marker_register("c");
	c1b = min_loop("a-region-of-another-name-later-in-the-table", N1);
	result(c1b == c1, "the count does not depend on the region's name",
	       "expected %llu as region \"loop\" counted, counted %llu", c1, c1b);
}

/* outer { inner { loop(@n) } loop(@n) }: the least counts of TRIES runs. */
static noinline void nested(unsigned long n, unsigned long long *in, unsigned long long *out)
{
	struct perfctr_marker_counts a, b, x, y;
	int i;

	*in = *out = ~0ULL;
	for (i = 0; i < TRIES; i++) {
		perfctr_marker_get("inner", &a);
		perfctr_marker_get("outer", &x);
		perfctr_marker_start("outer");
		perfctr_marker_start("inner");
		insn_loop(n);
		perfctr_marker_stop("inner");
		insn_loop(n);
		perfctr_marker_stop("outer");
		perfctr_marker_get("inner", &b);
		perfctr_marker_get("outer", &y);
		if (b.pmc[0] - a.pmc[0] < *in)
			*in = b.pmc[0] - a.pmc[0];
		if (y.pmc[0] - x.pmc[0] < *out)
			*out = y.pmc[0] - x.pmc[0];
	}
}

static void test_nested(void)
{
	unsigned long long i1, o1, i2, o2;
	struct perfctr_marker_counts in, out;

	perfctr_marker_register("outer");
	perfctr_marker_register("inner");
	perfctr_marker_reset("outer");
	perfctr_marker_reset("inner");
	nested(N1, &i1, &o1);
	nested(N2, &i2, &o2);
	perfctr_marker_get("inner", &in);
	perfctr_marker_get("outer", &out);
	result(in.count == 2 * TRIES && out.count == 2 * TRIES && out.tsc >= in.tsc,
	       "nested regions: calls counted, the outer's TSC at least the inner's",
	       "calls %llu and %llu (expected %d), TSC outer %llu inner %llu", out.count,
	       in.count, 2 * TRIES, out.tsc, in.tsc);
	if (!have_pmc) {
		skip("nested regions add up exactly", "no user-readable instructions PMC");
		return;
	}
	result(i2 - i1 == N2 - N1 && o2 - o1 == 2 * (N2 - N1) && o1 >= i1 + N1 &&
	       out.pmc[0] >= in.pmc[0] + TRIES * (N1 + N2),
	       "nested regions add up exactly",
	       "inner +%lld (expected %lu), outer +%lld (expected %lu), outer %llu >= inner %llu + %lu",
	       (long long)(i2 - i1), N2 - N1, (long long)(o2 - o1), 2 * (N2 - N1), o1, i1, N1);
}

struct thread_arg {
	unsigned long n;
	int init;
	unsigned long long diff, tsc;
	struct perfctr_marker_counts work;
	int err, other;
};

static void *worker(void *p)
{
	struct thread_arg *a = p;
	struct perfctr_marker_counts c;
	unsigned long long c0, c1;

	a->init = perfctr_marker_thread_init();
	c0 = min_loop("work0", 0);
	c1 = min_loop("work", a->n);
	a->diff = c1 - c0;
	perfctr_marker_get("work", &a->work);
	/* Another thread's region is not this thread's. */
	a->other = perfctr_marker_get("loop", &c) ? errno : 0;
	return NULL;
}

static void test_threads(void)
{
	struct thread_arg a[2] = { { .n = N1 }, { .n = N2 } };
	pthread_t t[2];
	int i, ok;

	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, &a[i])) {
			result(0, "two threads keep their own sums", "pthread_create failed");
			return;
		}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ok = 1;
	for (i = 0; i < 2; i++)
		ok &= a[i].init == 0 && a[i].work.count == TRIES && a[i].work.tsc > 0 &&
		      a[i].other == ENOENT && (!have_pmc || a[i].diff == a[i].n);
	result(ok, "two threads keep their own sums",
	       "thread 0: init %d, %llu calls, tsc %llu, +%llu instructions (expected %lu, %s), other region's errno %d; thread 1: init %d, %llu calls, tsc %llu, +%llu (expected %lu), errno %d",
	       a[0].init, a[0].work.count, a[0].work.tsc, a[0].diff, a[0].n,
	       have_pmc ? "checked" : "not checked: TSC only", a[0].other, a[1].init,
	       a[1].work.count, a[1].work.tsc, a[1].diff, a[1].n, a[1].other);
}

static double thread_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The TSC: a region around 50 ms of the thread's CPU time. */
static void test_tsc(void)
{
	struct perfctr_marker_counts c;
	unsigned int mult = info.tsc_to_cpu_mult ? info.tsc_to_cpu_mult : 1;
	double t0, t1, sec;

	perfctr_marker_register("spin");
	perfctr_marker_start("spin");
	t0 = thread_seconds();
	do
		insn_loop(10000);
	while ((t1 = thread_seconds()) < t0 + 0.05);
	perfctr_marker_stop("spin");
	perfctr_marker_get("spin", &c);
	sec = info.cpu_khz ? (double)c.tsc * mult / (info.cpu_khz * 1e3) : 0;
	result(c.count == 1 && sec >= 0.5 * (t1 - t0) && sec <= 2 * (t1 - t0) + 0.05,
	       "a region's TSC is the thread's run time",
	       "%llu calls, %.4f s by the TSC (%u kHz), %.4f s of thread CPU time", c.count, sec,
	       info.cpu_khz / mult, t1 - t0);
}

static void test_errors(void)
{
	struct perfctr_marker_counts c;
	int e1, e2, e3, e4, e5, e6;

	e1 = perfctr_marker_stop("never-started") ? errno : 0;
	perfctr_marker_start("twice");
	e2 = perfctr_marker_start("twice") ? errno : 0;
	perfctr_marker_stop("twice");
	e3 = perfctr_marker_stop("twice") ? errno : 0;
	e4 = perfctr_marker_start("a b") ? errno : 0;
	e5 = perfctr_marker_get("unknown", &c) ? errno : 0;
	e6 = perfctr_marker_start(NULL) ? errno : 0;
	result(e1 == ENOENT && e2 == EALREADY && e3 == EINVAL && e4 == EINVAL && e5 == ENOENT &&
	       e6 == EINVAL, "errors: ENOENT, EALREADY, EINVAL",
	       "stop of an unknown region %d (ENOENT %d), a second start %d (EALREADY %d), a stop of a stopped region %d, a name with a blank %d, get unknown %d, NULL %d (EINVAL %d)",
	       e1, ENOENT, e2, EALREADY, e3, e4, e5, e6, EINVAL);
}

/* The program's own output of its sums, in the three formats. */
static void test_write(void)
{
	struct perfctr_marker_counts c;
	char buf[16384], line[256];
	FILE *f;
	size_t n;
	int fmt, ok;

	perfctr_marker_reset("rep");
	for (n = 0; n < 7; n++) {
		perfctr_marker_start("rep");
		perfctr_marker_stop("rep");
	}
	perfctr_marker_get("rep", &c);
	for (fmt = PERFCTR_MARKER_TEXT; fmt <= PERFCTR_MARKER_CSV_LINES; fmt++) {
		f = tmpfile();
		if (!f || perfctr_marker_write(f, fmt, ";")) {
			result(0, "perfctr_marker_write", "format %d: %s", fmt, strerror(errno));
			continue;
		}
		rewind(f);
		n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = 0;
		fclose(f);
		if (fmt == PERFCTR_MARKER_TEXT) {
			ok = strstr(buf, "perfctr marker: ") && strstr(buf, "region") &&
			     strstr(buf, "tsc seconds");
		} else if (fmt == PERFCTR_MARKER_CSV) {
			snprintf(line, sizeof(line), "\nrep;0;%ld;%llu;%llu;", syscall(SYS_gettid),
				 c.count, c.tsc);
			ok = !strncmp(buf, "region;thread;tid;calls;tsc;tsc_seconds", 39) &&
			     strstr(buf, line) && c.count == 7;
		} else if (fmt == PERFCTR_MARKER_CSV_LINES) {
			/* No header; a line a number, region, thread and tid first. */
			snprintf(line, sizeof(line), "rep;0;%ld;%llu;;calls\nrep;0;%ld;%llu;;tsc\n",
				 syscall(SYS_gettid), c.count, syscall(SYS_gettid), c.tsc);
			ok = strncmp(buf, "region", 6) && strstr(buf, line) &&
			     strstr(buf, "\nrep;all;;7;;calls\n") && c.count == 7;
		} else {
			snprintf(line, sizeof(line), "%s%ld, \"calls\": %llu, \"tsc\": %llu,",
				 "{\"region\": \"rep\", \"threads\": [{\"thread\": 0, \"tid\": ",
				 syscall(SYS_gettid), c.count, c.tsc);
			ok = !strncmp(buf, "{\"format\": 1,", 13) && strstr(buf, line) &&
			     strstr(buf, "\"region\": \"work\"");
		}
		result(ok, fmt == PERFCTR_MARKER_TEXT ? "perfctr_marker_write: text" :
		       fmt == PERFCTR_MARKER_CSV ? "perfctr_marker_write: CSV" :
		       fmt == PERFCTR_MARKER_CSV_LINES ? "perfctr_marker_write: CSV lines" :
		       "perfctr_marker_write: JSON", "%s", buf);
	}
}

int main(void)
{
	struct vperfctr *v = NULL;

	if (perfctr_info(0, &info)) {
		printf("1..1\nnot ok 1 perfctr_info # %s\n", perfctr_strerror(errno, NULL));
		return 1;
	}
#ifdef _ARCH_PPC
	have_pmc = info.cpu_type >= PERFCTR_PPC64_POWER8 &&
		   (info.cpu_features & PERFCTR_FEATURE_RDPMC);
#else
	/* Where event 0xc0 is instructions and perfex names it so. */
	have_pmc = (info.cpu_type == PERFCTR_X86_INTEL_ARCH ||
		    info.cpu_type == PERFCTR_X86_AMD_K7 ||
		    info.cpu_type == PERFCTR_X86_AMD_FAM10H ||
		    info.cpu_type == PERFCTR_X86_AMD_FAM15H) &&
		   (info.cpu_features & PERFCTR_FEATURE_RDPMC);
#endif
	/* The children first: a fork copies the thread's marker but not its mapping. */
	test_no_syscalls();
	test_exit_output();
	test_fork_output();
	test_env_events();
	if (setup_control(&v)) {
		result(0, "the instructions control", "%s", perfctr_strerror(errno, &info));
		have_pmc = 0;
	}
	result(perfctr_marker_init() == 0, "perfctr_marker_init", "%s",
	       perfctr_strerror(errno, &info));
	test_exact();
	test_nested();
	test_threads();
	test_tsc();
	test_errors();
	test_write();
	/* The output at exit goes to standard error: not into the TAP. */
	setenv("PERFCTR_MARKER_OUTPUT", "/dev/null", 1);
	printf("1..%d\n", nr_test);
	return nr_fail != 0;
}
