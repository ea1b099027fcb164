// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of libperfctr and perfex, printing TAP.  Expectations come from
 * perfctr_info(): what counts depends on the CPU model the kernel found.
 *
 *   libperfctr_test [--perfex PATH] [--examples DIR]
 *                                       run the tests (and the examples
 *                                       self and signal found in DIR)
 *   libperfctr_test --spin MS [--exit N]   busy-loop MS ms, exit N
 *   libperfctr_test --marked N          N start/stop pairs of region "r" in
 *                                       the main thread and in a second one
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libperfctr.h>
#include <perfctr_marker.h>

#include "../compiler.h"
#include "tap.h"

/* "--marked N": a marked program, as perfex --marker runs one. */
static void *marked_thread(void *arg)
{
	int i, n = *(int *)arg;

	for (i = 0; i < n; i++)
		if (perfctr_marker_start("r") || perfctr_marker_stop("r"))
			return (void *)1L;
	return NULL;
}

static int marked(int n)
{
	void *ret = (void *)1L;
	pthread_t t;

	if (perfctr_marker_init())
		return 1;
	if (marked_thread(&n) || pthread_create(&t, NULL, marked_thread, &n) ||
	    pthread_join(t, &ret) || ret)
		return 1;
	return 0;	/* the marker writes its table at exit */
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Written so that the compiler keeps the busy loop. */
static atomic_ulong sink;

static void spin_ms(double ms)
{
	double end = now_ms() + ms;
	unsigned long v;

	while (now_ms() < end)
		for (int i = 0; i < 1000; i++) {
			v = atomic_load_explicit(&sink, memory_order_relaxed);
			atomic_store_explicit(&sink, v + i, memory_order_relaxed);
		}
}

static struct perfctr_info info;

/* Spin until the calling thread has run @ms milliseconds of CPU time. */
/* The CPU time the calling thread has run, in milliseconds. */
static double thread_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void cpu_spin_ms(double ms)
{
	double end = thread_ms() + ms;

	do
		spin_ms(0.1);
	while (thread_ms() < end);
}

static void *tree_thread(void *arg)
{
	cpu_spin_ms(*(double *)arg);
	return NULL;
}

/* "--tree N MS": a thread and N children, each running MS ms of CPU. */
static int tree(int n, double ms)
{
	pthread_t t;
	int i, status, bad = 0;

	if (pthread_create(&t, NULL, tree_thread, &ms))
		return 1;
	for (i = 0; i < n; i++)
		if (fork() == 0) {
			cpu_spin_ms(ms);
			_exit(0);
		}
	for (i = 0; i < n; i++)
		bad |= wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status);
	return pthread_join(t, NULL) || bad;
}

static unsigned int nrctrs;

/* One counting event this model takes, or 0 (generic models). */
static int pmc_event(struct perfctr_cpu_control *cc)
{
#ifndef _ARCH_PPC	/* x86 */
	switch (info.cpu_type) {
	case PERFCTR_X86_INTEL_CORE:
	case PERFCTR_X86_INTEL_CORE2:
	case PERFCTR_X86_INTEL_ATOM ... PERFCTR_X86_INTEL_SNB:
	case PERFCTR_X86_INTEL_ARCH:
	case PERFCTR_X86_INTEL_HYBRID:
	case PERFCTR_X86_INTEL_P6 ... PERFCTR_X86_INTEL_PIII:
	case PERFCTR_X86_INTEL_PENTM:
		cc->evntsel[0] = 0x004100c0;	/* instructions retired, USR, EN */
		break;
	case PERFCTR_X86_AMD_K7:
	case PERFCTR_X86_AMD_K8:
	case PERFCTR_X86_AMD_K8C:
	case PERFCTR_X86_AMD_FAM10H:
	case PERFCTR_X86_AMD_FAM15H:
		cc->evntsel[0] = 0x004100c0;	/* retired instructions */
		break;
	default:
		return 0;
	}
	cc->pmc_map[0] = 0;
#else
	if (info.cpu_type < PERFCTR_PPC64_POWER8)
		return 0;
	cc->pmc_map[0] = 4;	/* PMC5: instructions completed */
	cc->evntsel[0] = 0;
#endif
	cc->nractrs = 1;
	return 1;
}

/*
 * The TSC's rate: cpu_khz / tsc_to_cpu_mult, where the integer multiplier
 * may be rounded down (powerpc: core clock / timebase).
 */
static unsigned long long tsc_khz_low(void)
{
	return info.cpu_khz / (info.tsc_to_cpu_mult + 1);
}

static unsigned long long tsc_khz_high(void)
{
	return info.cpu_khz / (info.tsc_to_cpu_mult ? info.tsc_to_cpu_mult : 1);
}

static void test_info(void)
{
	struct perfctr_info info2;
	struct perfctr_cpus_info *ci;
	unsigned int i, n = 0, cpu;

	CHECK(perfctr_sys_info(&info, NULL, NULL) == 0, "perfctr_sys_info", "%s",
	      strerror(errno));
	CHECK(!((info.abi_version ^ PERFCTR_ABI_VERSION) & 0xff00ff00), "abi_version",
	      "kernel 0x%08x library 0x%08x", info.abi_version, PERFCTR_ABI_VERSION);
	CHECK(perfctr_abi_check_fd(-1) == 0, "perfctr_abi_check_fd");
	memset(&info2, 0xa5, sizeof(info2));
	CHECK(perfctr_info(-1, &info2) == 0 && !memcmp(&info, &info2, sizeof(info)),
	      "perfctr_info (2.7) agrees with the raw call");
	CHECK(strcmp(perfctr_info_cpu_name(&info), "?"), "perfctr_info_cpu_name",
	      "cpu_type %u: %s", info.cpu_type, perfctr_info_cpu_name(&info));
	nrctrs = perfctr_info_nrctrs(&info);
	CHECK(nrctrs <= PERFCTR_NRCTRS && (info.cpu_type != 0 || nrctrs == 0),
	      "perfctr_info_nrctrs", "%u", nrctrs);
	memset(&info2, 0, sizeof(info2));
#ifdef PERFCTR_X86_INTEL_ARCH
	info2.cpu_type = PERFCTR_X86_INTEL_ARCH;
	n = perfctr_info_intel_arch(&info2);
	info2.cpu_type = PERFCTR_X86_AMD_FAM15H;
	CHECK(n == 1 && !perfctr_info_intel_arch(&info2), "perfctr_info_intel_arch",
	      "Intel arch %u", n);
	n = 0;
#else
	info2.cpu_type = info.cpu_type;
	CHECK(!perfctr_info_intel_arch(&info2), "perfctr_info_intel_arch: 0 on powerpc");
#endif
	ci = perfctr_cpus_info(-1);
	CHECK(ci, "perfctr_cpus_info", "%s", strerror(errno));
	if (ci) {
		cpu = sched_getcpu();
		for (i = 0; i < ci->cpus->nrwords * 32; i++)
			n += !!(ci->cpus->mask[i / 32] & (1U << (i % 32)));
		CHECK(n >= 1 && n == (unsigned int)sysconf(_SC_NPROCESSORS_ONLN) &&
		      ci->cpus->mask[cpu / 32] & (1U << (cpu % 32)),
		      "cpus_info lists the online CPUs", "%u CPUs", n);
		free(ci);
	}
	CHECK(perfctr_linux_version_code() >= PERFCTR_KERNEL_VERSION(6, 0, 0),
	      "perfctr_linux_version_code");
}

/* perfctr_strerror(): advice for the errors of a user's first hour. */
static void test_strerror(void)
{
	const char *m;

	CHECK(strstr(perfctr_strerror(ENOSYS, NULL), "CONFIG_PERFCTR") &&
	      strstr(perfctr_strerror(-ENODEV, NULL), "driver"),
	      "perfctr_strerror: ENOSYS, ENODEV (either sign)");
	m = perfctr_strerror(EBUSY, &info);
	CHECK(strstr(m, "perf") && strstr(m, "nmi_watchdog") && strstr(m, "KVM"),
	      "perfctr_strerror: EBUSY names perf, the NMI watchdog and KVM", "%s", m);
	m = perfctr_strerror(EACCES, &info);
	CHECK(strstr(m, "perfctr_access") || strstr(m, "perf_event_paranoid"),
	      "perfctr_strerror: EACCES names the sysctls", "%s", m);
	m = perfctr_strerror(EINVAL, &info);
	CHECK(strstr(m, perfctr_info_cpu_name(&info)), "perfctr_strerror: EINVAL names the model",
	      "%s", m);
	CHECK(!strcmp(perfctr_strerror(ENOMEM, NULL), strerror(ENOMEM)),
	      "perfctr_strerror: strerror() for others");
}

static void test_raw(void)
{
	struct vperfctr_control c;
	struct perfctr_sum_ctrs sum;
	const struct vperfctr_state *s;
	int fd, fd2;

	errno = 0;
	CHECK(perfctr_sys_vopen(0, 0) < 0 && errno == ENOENT, "raw vopen without state: ENOENT",
	      "%s", strerror(errno));
	CHECK(perfctr_sys_vopen(-1, 0) < 0 && errno == EINVAL, "raw vopen tid -1: EINVAL");
	fd = perfctr_sys_vopen(0, VPERFCTR_OPEN_CREAT);
	CHECK(fd >= 0, "raw vopen creat", "%s", strerror(errno));
	if (fd < 0)
		return;
	CHECK(perfctr_sys_vopen(0, VPERFCTR_OPEN_CREAT) < 0 && errno == EEXIST,
	      "raw vopen creat again: EEXIST");
	fd2 = perfctr_sys_vopen(0, 0);
	CHECK(fd2 >= 0, "raw vopen existing");
	if (fd2 >= 0)
		close(fd2);
	memset(&c, 0, sizeof(c));
	c.flags = 0x80;
	CHECK(perfctr_sys_vcontrol(fd, &c) < 0 && errno == EINVAL,
	      "raw vcontrol bad flags: EINVAL");
	c.flags = 0;
	c.cpu_control.tsc_on = 1;
	CHECK(perfctr_sys_vcontrol(fd, &c) == 0, "raw vcontrol tsc", "%s", strerror(errno));
	s = perfctr_sys_vmap(fd);
	CHECK(s && s->magic == VPERFCTR_STATE_MAGIC, "raw vmap", "%s", strerror(errno));
	spin_ms(5);
	memset(&c, 0xff, sizeof(c));
	CHECK(perfctr_sys_vread(fd, &sum, &c, NULL) == 0 && sum.tsc > 0 &&
	      c.cpu_control.tsc_on == 1,
	      "raw vread", "tsc %llu", (unsigned long long)sum.tsc);
	if (s) {
		__u64 a = perfctr_state_read_tsc(s), b;

		perfctr_sys_vread(fd, &sum, NULL, NULL);
		b = perfctr_state_read_tsc(s);
		CHECK(a <= sum.tsc && sum.tsc <= b, "fast tsc brackets the syscall",
		      "%llu %llu %llu", (unsigned long long)a, (unsigned long long)sum.tsc,
		      (unsigned long long)b);
		perfctr_sys_vunmap(s);
	}
	errno = 0;
	if (info.cpu_features & PERFCTR_FEATURE_PCINT)
		CHECK(perfctr_sys_viresume(fd) < 0 && errno == EINVAL,
		      "raw viresume without overflow: EINVAL", "%s", strerror(errno));
	else
		CHECK(perfctr_sys_viresume(fd) < 0 && errno == EOPNOTSUPP,
		      "raw viresume without PCINT: EOPNOTSUPP", "%s", strerror(errno));
	CHECK(perfctr_sys_vunlink(fd) == 0, "raw vunlink");
	CHECK(perfctr_sys_vopen(0, 0) < 0 && errno == ENOENT, "unlinked: no state");
	CHECK(perfctr_sys_vread(fd, &sum, NULL, NULL) == 0, "detached state still readable");
	close(fd);
}

/* A handle on the caller's state with the TSC on, inherited by children. */
static struct vperfctr *open_tsc_inherit(const char *what)
{
	struct vperfctr_control c;
	struct vperfctr *v = vperfctr_open();
	char name[128];

	snprintf(name, sizeof(name), "vperfctr_open %s", what);
	CHECK(v, name, "%s", strerror(errno));
	if (!v)
		return NULL;
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	c.flags = VPERFCTR_CONTROL_INHERIT;
	snprintf(name, sizeof(name), "vperfctr_control with the TSC, inherited, %s", what);
	CHECK(vperfctr_control(v, &c) == 0, name, "%s", strerror(errno));
	return v;
}

/* vperfctr_read_children() and 2.7's _vperfctr_read_children(). */
static void test_children(void)
{
	struct vperfctr_children ch;
	struct perfctr_sum_ctrs sum;
	struct vperfctr *v = open_tsc_inherit("for inheritance");
	int status;
	pid_t pid;

	if (!v)
		return;
	pid = fork();
	if (pid == 0) {
		cpu_spin_ms(20);
		_exit(0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork and reap a child");
	CHECK(vperfctr_read_children(v, &ch) == 0 && ch.nr_merged == 1 && !ch.nr_unmerged &&
	      ch.sum.tsc > 0, "vperfctr_read_children: the child merged",
	      "%u merged, %u not, %llu ticks", ch.nr_merged, ch.nr_unmerged,
	      (unsigned long long)ch.sum.tsc);
	if (info.cpu_khz)
		CHECK(ch.sum.tsc >= tsc_khz_low() * 15, "children's tsc covers the child's 20 ms",
		      "%llu ticks", (unsigned long long)ch.sum.tsc);
	CHECK(_vperfctr_read_children(vperfctr_fd(v), &sum) == 0 && sum.tsc == ch.sum.tsc,
	      "_vperfctr_read_children agrees");
	CHECK(_sys_vperfctr_read_children(vperfctr_fd(v), &sum) == 0 && sum.tsc == ch.sum.tsc,
	      "_sys_vperfctr_read_children agrees");
	vperfctr_unlink(v);
	vperfctr_close(v);
}

/*
 * A handle in a forked child.  fork() does not copy the state's mapping,
 * so a fast read through the parent's handle would fault there; the
 * library makes the child's reads go by the system call, which refuses
 * them (EPERM: the parent's state), and the child's own inherited state
 * opens and reads as usual.
 */
static void test_fork_handle(void)
{
	struct vperfctr *v = open_tsc_inherit("for the fork test");
	int status = -1;
	pid_t pid;

	if (!v)
		return;
	pid = fork();
	if (pid == 0) {
		struct perfctr_sum_ctrs sum;
		struct vperfctr *own;
		int code = 0;

		errno = 0;
		if (vperfctr_read_ctrs(v, &sum) != -1 || errno != EPERM)
			code |= 1;
		if (vperfctr_read_tsc(v) != 0 || vperfctr_is_running(v))
			code |= 2;
		cpu_spin_ms(5);
		own = vperfctr_open_mode(0);
		if (!own || vperfctr_read_ctrs(own, &sum) || !sum.tsc || !vperfctr_read_tsc(own))
			code |= 4;
		vperfctr_close(own);
		vperfctr_close(v);
		_exit(code);
	}
	/* Reaped first: CHECK's arguments are evaluated in no set order. */
	if (pid > 0 && waitpid(pid, &status, 0) != pid)
		status = -1;
	CHECK(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "fork: the parent's handle in the child reads by the system call (EPERM), its own state fast",
	      "%s %d (1: no EPERM, 2: a value, 4: own state)",
	      WIFSIGNALED(status) ? "killed by signal" : "exit status",
	      WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	vperfctr_unlink(v);
	vperfctr_close(v);
}

static void test_api27(void)
{
	struct vperfctr_control c;
	struct perfctr_sum_ctrs sum, sum2;
	struct perfctr_info i2;
	struct vperfctr *v;
	unsigned long long t0, t1;
	double ran;
	int have_pmc, fd;

	errno = 0;
	v = vperfctr_open_mode(0);
	CHECK(!v && errno == ENOENT, "vperfctr_open_mode(0) without state: ENOENT");
	vperfctr_close(v);
	/* 2.7's _vperfctr_open(0) without a state: a descriptor of none. */
	fd = _vperfctr_open(0);
	CHECK(fd >= 0, "_vperfctr_open(0) without state: a descriptor", "%s", strerror(errno));
	if (fd >= 0) {
		CHECK(perfctr_info(fd, &i2) == 0 && perfctr_abi_check_fd(fd) == 0,
		      "perfctr_info on the descriptor of no state", "%s", strerror(errno));
		memset(&c, 0, sizeof(c));
		c.cpu_control.tsc_on = 1;
		errno = 0;
		CHECK(_vperfctr_control(fd, &c) < 0 && errno == EINVAL,
		      "_vperfctr_control on the descriptor of no state: EINVAL", "%s",
		      strerror(errno));
		errno = 0;
		CHECK(perfctr_sys_vopen(0, 0) < 0 && errno == ENOENT,
		      "_vperfctr_open(0) created no state", "%s", strerror(errno));
		close(fd);
	}
	v = vperfctr_open();
	CHECK(v, "vperfctr_open", "%s", strerror(errno));
	if (!v)
		return;
	CHECK(vperfctr_info(v, &i2) == 0 && i2.cpu_type == info.cpu_type, "vperfctr_info");
	free(vperfctr_cpus_info(v));
	CHECK(!vperfctr_is_running(v) && !vperfctr_is_active(v), "new state not running");
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	CHECK(vperfctr_control(v, &c) == 0, "vperfctr_control tsc only", "%s", strerror(errno));
	CHECK(vperfctr_is_running(v), "vperfctr_is_running");
	/*
	 * The virtual TSC counts while the thread runs: against the thread's
	 * CPU time, not the wall clock (a loaded host, or another task in
	 * the guest, takes the CPU away from it for part of any 20 ms).
	 */
	ran = thread_ms();
	t0 = vperfctr_read_tsc(v);
	cpu_spin_ms(20);
	t1 = vperfctr_read_tsc(v);
	ran = thread_ms() - ran;
	CHECK(t1 > t0, "vperfctr_read_tsc increases", "%llu -> %llu", t0, t1);
	if (info.cpu_khz)
		CHECK(t1 - t0 >= tsc_khz_low() * ran / 2 && t1 - t0 <= tsc_khz_high() * ran * 2,
		      "tsc over 20 ms of the thread's CPU time matches cpu_khz",
		      "%llu ticks in %.1f ms, %u kHz", t1 - t0, ran, info.cpu_khz);
	CHECK(vperfctr_read_ctrs(v, &sum) == 0 && sum.tsc >= t1, "vperfctr_read_ctrs");
	CHECK(vperfctr_read_state(v, &sum2, &c) == 0 && sum2.tsc >= sum.tsc &&
	      c.cpu_control.tsc_on == 1, "vperfctr_read_state");
	fd = _vperfctr_open(0);
	memset(&c, 0xff, sizeof(c));
	CHECK(fd >= 0 && _sys_vperfctr_read_control(fd, info.cpu_type, &c) == 0 &&
	      c.cpu_control.tsc_on == 1 && !c.cpu_control.nractrs,
	      "_vperfctr_open(0) opens the state, _sys_vperfctr_read_control", "%s",
	      strerror(errno));
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	CHECK(fd >= 0 && _sys_vperfctr_write_control(fd, info.cpu_type, &c) == 0 &&
	      vperfctr_is_running(v), "_sys_vperfctr_write_control", "%s", strerror(errno));
	if (fd >= 0)
		close(fd);

	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	have_pmc = nrctrs && pmc_event(&c.cpu_control);
	if (!nrctrs) {
		c.cpu_control.nractrs = 1;
		c.cpu_control.evntsel[0] = 0x004100c0;
		errno = 0;
		CHECK(vperfctr_control(v, &c) < 0 && errno == EINVAL,
		      "PMC control on a model without PMCs: EINVAL", "%s", strerror(errno));
	} else if (!have_pmc) {
		skip("PMC counting", "no known event for this CPU model");
	} else if (vperfctr_control(v, &c) < 0) {
		result(errno == EBUSY || errno == EACCES, "PMC control", "%s", strerror(errno));
	} else {
		unsigned long long p0, p1;

		p0 = vperfctr_read_pmc(v, 0);
		cpu_spin_ms(20);
		p1 = vperfctr_read_pmc(v, 0);
		CHECK(p1 > p0 + 100000, "PMC counts instructions", "%llu -> %llu", p0, p1);
		perfctr_sys_vread(vperfctr_fd(v), &sum, NULL, NULL);
		p0 = vperfctr_read_pmc(v, 0);
		CHECK(p1 <= sum.pmc[0] && sum.pmc[0] <= p0, "fast PMC read brackets the syscall",
		      "%llu %llu %llu%s", p1, (unsigned long long)sum.pmc[0], p0,
		      info.cpu_features & PERFCTR_FEATURE_RDPMC ? "" : " (syscall fallback)");
		/*
		 * vperfctr_read_ctrs(): the TSC and the running counter between
		 * the single reads around it, and the counters not in the
		 * control at their sums (0 after this control), as the system
		 * call has them.
		 */
		{
			struct perfctr_sum_ctrs fast, slow;
			unsigned int i, others = 0;

			t0 = vperfctr_read_tsc(v);
			p0 = vperfctr_read_pmc(v, 0);
			vperfctr_read_ctrs(v, &fast);
			p1 = vperfctr_read_pmc(v, 0);
			t1 = vperfctr_read_tsc(v);
			vperfctr_read_ctrs_slow(v, &slow);
			for (i = 1; i < PERFCTR_NRCTRS; i++)
				others += fast.pmc[i] != slow.pmc[i] || fast.pmc[i] != 0;
			CHECK(p0 <= fast.pmc[0] && fast.pmc[0] <= p1 && t0 <= fast.tsc &&
			      fast.tsc <= t1 && fast.pmc[0] <= slow.pmc[0] &&
			      fast.tsc <= slow.tsc && !others,
			      "vperfctr_read_ctrs: one snapshot, bracketed by single reads",
			      "pmc0 %llu <= %llu <= %llu, tsc %llu <= %llu <= %llu, %u others off",
			      p0, (unsigned long long)fast.pmc[0], p1, t0,
			      (unsigned long long)fast.tsc, t1, others);
		}
	}
	/* vperfctr_suspend()/vperfctr_resume(): the TSC pauses, the sum stays. */
	{
		unsigned long long s0, s1, s2;

		CHECK(vperfctr_suspend(v) == 0 && !vperfctr_is_running(v), "vperfctr_suspend");
		s0 = vperfctr_read_tsc(v);
		cpu_spin_ms(2);
		s1 = vperfctr_read_tsc(v);
		CHECK(vperfctr_resume(v) == 0 && vperfctr_is_running(v), "vperfctr_resume");
		cpu_spin_ms(2);
		s2 = vperfctr_read_tsc(v);
		CHECK(s0 > 0 && s0 == s1 && s2 > s1, "suspended TSC stands still, resumed goes on",
		      "%llu %llu %llu", s0, s1, s2);
	}
	CHECK(vperfctr_stop(v) == 0 && !vperfctr_is_running(v), "vperfctr_stop");
	CHECK(vperfctr_unlink(v) == 0 && perfctr_sys_vopen(0, 0) < 0 && errno == ENOENT,
	      "vperfctr_unlink");
	vperfctr_close(v);
	result(1, "vperfctr_close", NULL);
}

static void test_remote(void)
{
	struct vperfctr_control c;
	struct perfctr_sum_ctrs sum;
	struct rvperfctr *rv;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		pause();
		_exit(0);
	}
	errno = 0;
	rv = rvperfctr_open(pid);
	CHECK(!rv && errno == EPERM, "rvperfctr_open on an untraced process: EPERM", "%s",
	      strerror(errno));
	rvperfctr_close(rv);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	/*
	 * A tracee stopped under ptrace: the tracer gives it a state with
	 * the TSC on, lets it spin 20 ms to its next stop, and reads what
	 * it ran; then unlinks it.
	 */
	pid = fork();
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(1);
		raise(SIGSTOP);
		spin_ms(20);
		raise(SIGSTOP);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
		result(0, "rvperfctr on a stopped tracee", " tracee did not stop");
		return;
	}
	rv = rvperfctr_open(pid);
	CHECK(rv, "rvperfctr_open on a stopped tracee", "%s", strerror(errno));
	if (rv) {
		memset(&c, 0, sizeof(c));
		c.cpu_control.tsc_on = 1;
		CHECK(!rvperfctr_control(rv, &c), "rvperfctr_control", "%s", strerror(errno));
		CHECK(!ptrace(PTRACE_CONT, pid, NULL, NULL) && waitpid(pid, &status, 0) == pid &&
		      WIFSTOPPED(status), "tracee ran to its next stop", "");
		CHECK(!rvperfctr_read_ctrs(rv, &sum) && sum.tsc > 0,
		      "rvperfctr_read_ctrs: the tracee's own run time", "tsc %llu",
		      (unsigned long long)sum.tsc);
		CHECK(!rvperfctr_unlink(rv), "rvperfctr_unlink", "%s", strerror(errno));
		rvperfctr_close(rv);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Set by the signal handler: lock-free atomics are safe there. */
static atomic_uint got_mask;
static atomic_int got_code;

static void handler(int sig, siginfo_t *si, void *uc)
{
	atomic_store(&got_code, si->si_code);
	atomic_store(&got_mask, perfctr_siginfo_ovf_mask(si));
}

static void test_siginfo(void)
{
	union {
		siginfo_t si;
		int words[32];
	} u;
	struct sigaction sa;
	/* The kernel's layout: the union follows 3 ints (4 on 64-bit). */
	int pre = sizeof(long) == 8 ? 4 : 3;

	memset(&u, 0, sizeof(u));
	u.words[2] = SI_PMC_OVF;
	u.words[pre] = 0x5;
	CHECK(perfctr_siginfo_ovf_mask(&u.si) == 0x5, "siginfo_ovf_mask on a constructed siginfo");

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	memset(&u, 0, sizeof(u));
	u.words[0] = SIGUSR1;
	u.words[2] = SI_PMC_OVF;
	u.words[pre] = 0x24;
	if (syscall(SYS_rt_tgsigqueueinfo, getpid(), (pid_t)syscall(SYS_gettid), SIGUSR1, &u.si)) {
		result(0, "siginfo_ovf_mask through the kernel", "rt_tgsigqueueinfo: %s",
		       strerror(errno));
		return;
	}
	CHECK(atomic_load(&got_code) == SI_PMC_OVF && atomic_load(&got_mask) == 0x24,
	      "siginfo_ovf_mask through the kernel", "code %d mask %#x", atomic_load(&got_code),
	      atomic_load(&got_mask));
}

/* A few checks of perfex's JSON: well formed, and the numbers. */
static const char *json_skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *json_value(const char *p);

static const char *json_string_end(const char *p)
{
	if (*p++ != '"')
		return NULL;
	for (; *p && *p != '"'; p++)
		if (*p == '\\' && !*++p)
			return NULL;
	return *p ? p + 1 : NULL;
}

static const char *json_value(const char *p)
{
	p = json_skip_ws(p);
	if (*p == '"')
		return json_string_end(p);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';

		p = json_skip_ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				p = json_string_end(json_skip_ws(p));
				if (!p)
					return NULL;
				p = json_skip_ws(p);
				if (*p++ != ':')
					return NULL;
			}
			p = json_value(p);
			if (!p)
				return NULL;
			p = json_skip_ws(p);
			if (*p == close)
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	}
	if (*p == '-' || (*p >= '0' && *p <= '9')) {
		char *end;

		strtod(p, &end);
		return end;
	}
	return NULL;
}

static unsigned long long json_number(const char *doc, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = strstr(doc, pat);
	return p ? strtoull(p + strlen(pat), NULL, 0) : ~0ULL;
}

/* A JSON number that may have a fraction; -1 when the key is missing. */
static double json_double(const char *doc, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = strstr(doc, pat);
	return p ? strtod(p + strlen(pat), NULL) : -1;
}

static void read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

	buf[n > 0 ? n : 0] = 0;
	if (fd >= 0)
		close(fd);
}

static int run(char *const argv[], const char *out, char *buf, size_t len)
{
	int status, fd;
	pid_t pid = fork();

	if (pid == 0) {
		if (out) {
			fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(argv[0], argv);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	if (buf)
		read_file(out, buf, len);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* "--move-to CPU": the command binds itself to CPU, as an OpenMP runtime does. */
static int move_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) || sched_getcpu() != cpu;
}

/* The test kernels' fault-injection knob: the CPUs no PMC control may run on. */
static int set_forbidden(const char *list)
{
	const char *knob = "/sys/kernel/debug/perfctr/forbidden";
	ssize_t len = strlen(list), n;
	int fd;

	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	fd = open(knob, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, list, len);
	close(fd);
	return n == len ? 0 : -1;
}

/*
 * A command that binds itself to a CPU its events cannot count on (CPU
 * 1, forbidden through the knob): its counts stop short there, and
 * perfex prints them with a warning, which a run that stays put lacks.
 */
static void perfex_short_counts(const char *perfex, const char *self, const char *evspec,
				const char *tmp)
{
	char *const moved[] = { (char *)perfex, "-e", (char *)evspec, (char *)self,
				"--move-to", "1", "--spin", "50", NULL };
	char *const stays[] = { (char *)perfex, "-e", (char *)evspec, (char *)self,
				"--move-to", "0", "--spin", "50", NULL };
	char buf[4096];
	int rc, rc0;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		skip("perfex: counts that stop short", "one CPU: none to forbid");
		return;
	}
	if (set_forbidden("1\n")) {
		skip("perfex: counts that stop short",
		     "no forbidden-CPU knob (CONFIG_PERFCTR_DEBUG_FORBIDDEN)");
		return;
	}
	rc = run(moved, tmp, buf, sizeof(buf));
	CHECK(rc == 0 && strstr(buf, "counts stop short: it ran on a CPU"),
	      "perfex: a command that moved onto a forbidden CPU: counts that stop short, said so",
	      "rc %d: %.400s", rc, buf);
	rc0 = run(stays, tmp, buf, sizeof(buf));
	CHECK(rc0 == 0 && !strstr(buf, "stop short") && strstr(buf, "self"),
	      "perfex: a command that stays on its CPUs: no such warning", "rc %d: %.400s", rc0,
	      buf);
	set_forbidden("\n");
}

static void test_perfex(const char *perfex, const char *self)
{
	char buf[8192], evspec[64];
	const char *tmp = "/tmp/perfex-test.out";
	const char *json = "/tmp/perfex-test.json";
	int sv[2], rc;
	unsigned long long tsc, self_tsc = ~0ULL, children = ~0ULL;
	double t, elapsed;

	if (access(perfex, X_OK)) {
		skip("perfex", "no perfex binary");
		return;
	}
	{
		char *const argv[] = { (char *)perfex, "-i", NULL };

		rc = run(argv, tmp, buf, sizeof(buf));
		CHECK(rc == 0 && strstr(buf, "abi_version") && strstr(buf, "cpu_type") &&
		      strstr(buf, perfctr_info_cpu_name(&info)) && strstr(buf, "cpus"),
		      "perfex -i", "rc %d", rc);
		/* Busy or free as of perfex's own perfctr_info(): either may be. */
		CHECK(nrctrs ? strstr(buf, "PMU: busy (held by") || strstr(buf, "PMU: free\n") :
		      !!strstr(buf, "PMU: none"), "perfex -i says whether the PMU is free",
		      "%.400s", buf);
		/*
		 * Root here: may program the PMCs while the PMU is free, not while
		 * it is busy (or there is no generic instructions event to ask with).
		 */
		CHECK(!nrctrs ? !strstr(buf, "PMCs for this user") :
		      geteuid() ? !!strstr(buf, "PMCs for this user: ") :
		      (strstr(buf, "PMU: free\n") && strstr(buf, "PMCs for this user: yes (")) ||
		      (strstr(buf, "PMU: busy") && strstr(buf, "PMCs for this user: no: ")) ||
		      strstr(buf, "PMCs for this user: not asked ("),
		      "perfex -i says whether this user may program the PMCs", "%.600s", buf);
	}
	{
		char *const argv[] = { (char *)perfex, "-i", (char *)self, "--spin", "1", NULL };

		rc = run(argv, tmp, buf, sizeof(buf));
		CHECK(rc == 0 && strstr(buf, "perfex: -i with a command: ") &&
		      strstr(buf, "abi_version") && strstr(buf, "tsc"),
		      "perfex -i with a command says so, then counts it", "rc %d: %.300s", rc, buf);
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		char *const argv[] = { (char *)perfex, (char *)self, "--spin", "1", NULL };

		rc = run(argv, tmp, buf, sizeof(buf));
		CHECK(rc == 125 && strstr(buf, "CONFIG_NET"),
		      "perfex says why it cannot run without sockets", "%s", buf);
		skip("perfex end to end",
		     "no AF_UNIX sockets: the kernel needs CONFIG_NET, CONFIG_UNIX");
		return;
	}
	close(sv[0]);
	close(sv[1]);
	{
		char *const argv[] = { (char *)perfex, "-o", (char *)json, "--json-perfctr", "--",
				       (char *)self, "--spin", "100", "--exit", "3", NULL };

		t = now_ms();
		rc = run(argv, tmp, NULL, 0);
		t = now_ms() - t;
		CHECK(rc == 3, "perfex passes the exit status", "rc %d", rc);
		read_file(json, buf, sizeof(buf));
		CHECK(json_value(buf) && *json_skip_ws(json_value(buf)) == 0,
		      "perfex --json-perfctr parses", "%.200s", buf);
		tsc = json_number(buf, "tsc");
		CHECK(json_number(buf, "exit_status") == 3 && json_number(buf, "cpu_type") ==
		      info.cpu_type, "perfex --json-perfctr fields");
		CHECK(json_number(buf, "format") == 1 && strstr(buf, "\"command\": [\"") &&
		      strstr(buf, "\"--spin\", \"100\", \"--exit\", \"3\"]"),
		      "perfex --json-perfctr: format 1 and the command", "%.300s", buf);
		if (info.cpu_khz)
			CHECK(tsc >= tsc_khz_low() * 50 && tsc <= tsc_khz_high() * (t + 50),
			      "perfex tsc covers the child's spin", "%llu ticks in %.0f ms, %u kHz",
			      tsc, t, info.cpu_khz);
		else
			CHECK(tsc > 0, "perfex tsc", "%llu", tsc);
		/* Children are counted by default: the parts, none of them merged. */
		CHECK(json_number(buf, "tsc_self") == tsc &&
		      json_number(buf, "tsc_children") == 0 &&
		      json_number(buf, "children_merged") == 0 &&
		      json_number(buf, "children_unmerged") == 0,
		      "perfex counts children by default: self and children parts", "%.300s", buf);
		elapsed = json_double(buf, "elapsed_seconds");
		CHECK(elapsed >= 0.099 && elapsed <= t / 1e3 + 0.001,
		      "perfex --json elapsed_seconds: the spin's 100 ms, within perfex's run",
		      "%f s in %.0f ms", elapsed, t);
		if (info.cpu_khz) {
			double sec = json_double(buf, "tsc_seconds"), want;

			want = (double)tsc * (info.tsc_to_cpu_mult ? info.tsc_to_cpu_mult : 1) /
			       (info.cpu_khz * 1e3);
			CHECK(sec - want < 0.000002 && want - sec < 0.000002 &&
			      sec <= elapsed * 1.001 + 0.001,
			      "perfex --json tsc_seconds: the TSC at cpu_khz, below elapsed",
			      "%f s, want %f s, elapsed %f s", sec, want, elapsed);
		}
	}
	{
		/* -r 3: three runs, the means (one run's time), the spread. */
		char *const argv[] = { (char *)perfex, "-r", "3", "-o", (char *)json,
				       "--json-perfctr", (char *)self, "--spin", "30", NULL };
		char *const zero[] = { (char *)perfex, "-r", "0", (char *)self, "--spin", "1",
				       NULL };
		char *const marker[] = { (char *)perfex, "-r", "2", "--marker", (char *)self,
					 "--spin", "1", NULL };

		unlink(json);
		t = now_ms();
		rc = run(argv, tmp, NULL, 0);
		t = now_ms() - t;
		read_file(json, buf, sizeof(buf));
		elapsed = json_double(buf, "elapsed_seconds");
		CHECK(rc == 0 && json_number(buf, "runs") == 3 &&
		      strstr(buf, "\"tsc_noise_pct\": ") && t >= 90 && elapsed >= 0.029 &&
		      elapsed * 1e3 < t * 2 / 3,
		      "perfex -r 3: three runs, their mean time and spread",
		      "rc %d, %.0f ms in all, a run's mean %f s: %.300s", rc, t, elapsed, buf);
		rc = run(zero, tmp, buf, sizeof(buf));
		CHECK(rc == 125 && strstr(buf, "the number of runs is 1 to"),
		      "perfex -r 0 refused, saying what -r takes", "rc %d: %.200s", rc, buf);
		rc = run(marker, tmp, buf, sizeof(buf));
		CHECK(rc == 125 && strstr(buf, "--marker and -r exclude each other"),
		      "perfex -r with --marker refused", "rc %d: %.200s", rc, buf);
	}
	{
		char *const argv[] = { (char *)perfex, (char *)self, "--spin", "1",
				       "--exit", "0", NULL };

		rc = run(argv, tmp, buf, sizeof(buf));
		CHECK(rc == 0 && strstr(buf, "tsc") && strstr(buf, "self") &&
		      strstr(buf, "total") && strstr(buf, "0 merged") &&
		      strstr(buf, "elapsed seconds"),
		      "perfex text output: self, children, total, elapsed", "rc %d: %.400s", rc,
		      buf);
	}
	{
		/*
		 * By default a thread and two children of 200 ms each join the
		 * count: far more than the command's own thread, whose time
		 * under TCG doubles when the host is loaded.
		 */
		char *const argv[] = { (char *)perfex, "--json-perfctr", "-o", (char *)json,
				       (char *)self, "--tree", "2", "200", NULL };

		rc = run(argv, tmp, NULL, 0);
		read_file(json, buf, sizeof(buf));
		tsc = json_number(buf, "tsc");
		self_tsc = json_number(buf, "tsc_self");
		children = json_number(buf, "tsc_children");
		CHECK(rc == 0 && json_number(buf, "children_merged") == 3 &&
		      json_number(buf, "children_unmerged") == 0 && tsc == self_tsc + children,
		      "perfex (inherits by default): self + children, three merged",
		      "rc %d: %.300s", rc, buf);
		if (info.cpu_khz)
			CHECK(children >= tsc_khz_low() * 3 * 180,
			      "perfex (inherits by default) counts the children's time",
			      "%llu ticks, %u kHz", children, info.cpu_khz);
		if (rc) {	/* no reference for --no-inherit */
			self_tsc = ~0ULL;
			children = ~0ULL;
		}
	}
	{
		/*
		 * --no-inherit: the command's own thread, which only waits for the
		 * others, as the self part above (twice it, for a loaded host):
		 * not the 600 ms the others spin.
		 */
		char *const argv[] = { (char *)perfex, "--no-inherit", "--json-perfctr", "-o",
				       (char *)json, (char *)self, "--tree", "2", "200", NULL };

		rc = run(argv, tmp, NULL, 0);
		read_file(json, buf, sizeof(buf));
		tsc = json_number(buf, "tsc");
		CHECK(rc == 0 && tsc != ~0ULL && json_number(buf, "tsc_self") == ~0ULL &&
		      json_number(buf, "children_merged") == ~0ULL,
		      "perfex --no-inherit: no children's parts", "rc %d: %.300s", rc, buf);
		if (self_tsc != ~0ULL && children != ~0ULL)
			CHECK(tsc < 2 * self_tsc + children / 2,
			      "perfex --no-inherit counts neither the thread nor the children",
			      "%llu ticks; by default %llu self, %llu children", tsc, self_tsc,
			      children);
	}
	{
		char *const argv[] = { (char *)perfex, "--inherit", (char *)self, "--tree", "1",
				       "1", NULL };

		rc = run(argv, tmp, buf, sizeof(buf));
		CHECK(rc == 0 && strstr(buf, "children") && strstr(buf, "total") &&
		      strstr(buf, "2 merged"), "perfex --inherit text output", "rc %d: %.300s", rc,
		      buf);
	}
	{
		char *const argv[] = { (char *)perfex, "/nonexistent", NULL };

		rc = run(argv, tmp, buf, sizeof(buf));
		CHECK(rc == 127, "perfex: command not found is 127");
		CHECK(strstr(buf, "perfex: /nonexistent: No such file or directory") &&
		      !strstr(buf, "tsc"),
		      "perfex prints no counts when the command did not run", "%.300s", buf);
	}
	{
		/* -o is opened once the command runs: a failed exec leaves the file. */
		char *const argv[] = { (char *)perfex, "-o", (char *)json, "--json", "/nonexistent",
				       NULL };
		char *const argv2[] = { (char *)perfex, "-o", (char *)json, "/", NULL };
		int fd = open(json, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int rc2;

		if (fd >= 0) {
			if (write(fd, "keep\n", 5) != 5)
				fd = -1;
			close(fd);
		}
		rc = run(argv, tmp, NULL, 0);
		rc2 = run(argv2, tmp, NULL, 0);
		read_file(json, buf, sizeof(buf));
		CHECK(fd >= 0 && rc == 127 && rc2 == 126 && !strcmp(buf, "keep\n"),
		      "perfex -o: a command that did not run (127, 126) leaves the file",
		      "rc %d, %d: %.100s", rc, rc2, buf);
	}
	{
		const char *csv = "/tmp/perfex-test.csv";
		char *const argv[] = { (char *)perfex, "-x", ";", "-o", (char *)csv, (char *)self,
				       "--spin", "20", NULL };
		unsigned long long total = 0, own = 0, desc = ~0ULL;
		char line[256];
		FILE *f;
		int lines = 0, tsc_ok = 0, elapsed_ok = 0;

		rc = run(argv, tmp, NULL, 0);
		f = fopen(csv, "r");
		while (f && fgets(line, sizeof(line), f)) {
			lines++;
			/* perf stat's seven columns, then self and children. */
			if (sscanf(line, "%llu;;tsc;%*[0-9];%*[0-9.];;;%llu;%llu\n",
				   &total, &own, &desc) == 3)
				tsc_ok = total > 0 && total == own + desc;
			if (strstr(line, ";s;elapsed_seconds;;;;;;\n"))
				elapsed_ok = atof(line) >= 0.019;
		}
		if (f)
			fclose(f);
		CHECK(rc == 0 && tsc_ok && elapsed_ok && lines >= 5,
		      "perfex -x ';': perf stat's columns, then self and children; tsc, elapsed",
		      "rc %d, %d lines, tsc %llu = %llu + %llu", rc, lines, total, own, desc);
	}
	/* A raw event: refused on models without PMCs, counted elsewhere. */
#ifndef _ARCH_PPC	/* x86 */
	snprintf(evspec, sizeof(evspec), "0x004100c0@0");
#else
	snprintf(evspec, sizeof(evspec), info.cpu_type >= PERFCTR_PPC64_POWER8 ?
		 "0x500fa" : "0x2@0");
#endif
	{
		char *const argv[] = { (char *)perfex, "--json-perfctr", "-o", (char *)json,
				       "-e", evspec, (char *)self, "--spin", "50", NULL };
		struct perfctr_cpu_control cc = { 0 };
		struct perfctr_info now;

		/* The PMU's state as close to perfex's check as may be. */
		if (perfctr_sys_info(&now, NULL, NULL))
			now = info;
		rc = run(argv, tmp, buf, sizeof(buf));
		if (!nrctrs) {
			CHECK(rc == 125 && strstr(buf, "counters"),
			      "perfex -e refused on a model without PMCs", "rc %d: %.160s", rc,
			      buf);
		} else if (!pmc_event(&cc)) {
			skip("perfex -e", "no known event for this CPU model");
		} else if (now.cpu_features & PERFCTR_FEATURE_PMU_BUSY) {
			CHECK(rc == 125 && strstr(buf, "PMU is busy") &&
			      strstr(buf, "nmi_watchdog") && !strstr(buf, "tsc"),
			      "perfex -e refused while the PMU is busy, with the explanation",
			      "rc %d: %.400s", rc, buf);
		} else {
			read_file(json, buf, sizeof(buf));
			CHECK(rc == 0 && json_number(buf, "count") > 100000 &&
			      json_number(buf, "count") != ~0ULL, "perfex -e counts",
			      "rc %d: %.300s", rc, buf);
			CHECK(!strstr(buf, "\"ipc\""), "perfex: no IPC without a cycles event",
			      "%.300s", buf);
			perfex_short_counts(perfex, self, evspec, tmp);
		}
	}
	/*
	 * perf's generic names: counted where the suite knows the model's
	 * events (POWER8-10: PMC5 and PMC6, with the IPC), refused with a
	 * reason everywhere else -- never a count of something else.
	 */
	{
		char *const argv[] = { (char *)perfex, "--json-perfctr", "-o", (char *)json,
				       "-e", "instructions,cycles", (char *)self, "--spin", "50",
				       NULL };
		struct perfctr_cpu_control cc = { 0 };
		struct perfctr_info now;
		double ipc;

		if (perfctr_sys_info(&now, NULL, NULL))
			now = info;
		unlink(json);
		rc = run(argv, tmp, buf, sizeof(buf));
		if (now.cpu_features & PERFCTR_FEATURE_PMU_BUSY) {
			skip("perfex -e instructions,cycles", "the PMU is busy");
		} else if (!pmc_event(&cc)) {
			CHECK(rc == 125 && strstr(buf, "instructions") && access(json, F_OK),
			      "perfex -e instructions,cycles refused with a reason, no counts",
			      "rc %d: %.300s", rc, buf);
		} else {
			read_file(json, buf, sizeof(buf));
			ipc = json_double(buf, "ipc");
			CHECK(rc == 0 && json_number(buf, "count") > 100000 && ipc > 0.01 &&
			      ipc < 20, "perfex -e instructions,cycles counts, with the IPC",
			      "rc %d: %.400s", rc, buf);
		}
	}
#ifdef _ARCH_PPC
	/* POWER8-10: PMC5 counts instructions, PMC6 cycles: perfex gives the IPC. */
	if (info.cpu_type < PERFCTR_PPC64_POWER8) {
		skip("perfex IPC", "PMC5 and PMC6 of POWER8-10 only");
	} else if (info.cpu_features & PERFCTR_FEATURE_PMU_BUSY) {
		skip("perfex IPC", "the PMU is busy");
	} else {
		char *const argv[] = { (char *)perfex, "--json-perfctr", "-o", (char *)json,
				       "-e", "0x500fa", "-e", "0x600f4",
				       (char *)self, "--spin", "50", NULL };
		double ipc;

		rc = run(argv, tmp, buf, sizeof(buf));
		read_file(json, buf, sizeof(buf));
		ipc = json_double(buf, "ipc");
		CHECK(rc == 0 && ipc > 0.01 && ipc < 20, "perfex: the IPC of PMC5 and PMC6",
		      "rc %d: %.400s", rc, buf);
	}
#else
	skip("perfex IPC", "x86: IPC needs libpfm4 names, whose events depend on the model");
#endif
}

/* Write @val to the sysctl file @path; the old value in @old (64 bytes). */
static int sysctl_swap(const char *path, const char *val, char *old)
{
	int fd = open(path, O_RDWR);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, old, 63);
	old[n > 0 ? n : 0] = 0;
	n = pwrite(fd, val, strlen(val), 0);
	close(fd);
	return n < 0 ? -1 : 0;
}

/* run(), as user and group @id (nobody) when @id is not 0. */
static int run_as(unsigned int id, char *const argv[], const char *out, char *buf, size_t len)
{
	int status, fd;
	pid_t pid = fork();

	if (pid == 0) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		if (id && (setgid(id) || setuid(id)))
			_exit(98);
		execv(argv[0], argv);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	read_file(out, buf, len);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * The errors of a user's first hour, provoked for real (the suite runs as
 * root in the guests): perfex must name the setting that refuses and the
 * holder of the PMU, before it runs the command.
 */
/*
 * Whether every line of @buf is data: -x's lines begin with a count, the
 * marker's with its region @region; -j's are each one JSON value.
 * The first line that is not, or NULL.
 */
static const char *nondata_line(const char *buf, const char *region, int json)
{
	const char *p = buf, *end;
	size_t n = strlen(region);

	for (; *p; p = end + 1) {
		end = strchr(p, '\n');
		if (!end)
			return p;	/* a line without its end */
		if (json) {
			const char *v = json_value(p);

			if (!v || v != end)
				return p;
		} else if (!(*p >= '0' && *p <= '9') &&
			   !(!strncmp(p, region, n) && p[n] == ',')) {
			return p;
		}
	}
	return NULL;
}

/* perfex --marker: the command's regions after its counts, per thread and summed. */
static void test_perfex_marker(const char *perfex, const char *self)
{
	const char *tmp = "/tmp/perfex-marker-test.out";
	const char *data = "/tmp/perfex-marker-test.data";
	char buf[8192], *last;
	const char *bad;
	int rc;

	if (access(perfex, X_OK)) {
		skip("perfex --marker", "no perfex binary");
		return;
	}
	{
		char *const argv[] = { (char *)perfex, "--marker", "-x", ",", "--", (char *)self,
				       "--marked", "5", NULL };

		rc = run(argv, tmp, buf, sizeof(buf));
		CHECK(rc == 0 && !strstr(buf, "region,thread") && strstr(buf, "\nr,0,") &&
		      strstr(buf, "\nr,1,") && strstr(buf, "\nr,all,,10,,calls\n") &&
		      strstr(buf, "\nr,all,,") && strstr(buf, ",s,tsc_seconds\n"),
		      "perfex --marker -x ,: the regions per thread and summed (2 threads, 10 calls)",
		      "rc %d: %s", rc, buf);
	}
	{
		char *const argv[] = { (char *)perfex, "--marker", "-x", ",", "-o", (char *)data,
				       "--", (char *)self, "--marked", "5", NULL };

		rc = run(argv, tmp, NULL, 0);
		read_file(data, buf, sizeof(buf));
		bad = nondata_line(buf, "r", 0);
		CHECK(rc == 0 && !bad && strstr(buf, "\nr,all,,10,,calls\n"),
		      "perfex --marker -x , -o: data lines only, the counts' and the regions'",
		      "rc %d, line %.80s: %s", rc, bad ? bad : "-", buf);
	}
	{
		char *const argv[] = { (char *)perfex, "--marker", "-j", "-o", (char *)data,
				       "--", (char *)self, "--marked", "2", NULL };

		rc = run(argv, tmp, NULL, 0);
		read_file(data, buf, sizeof(buf));
		bad = nondata_line(buf, "r", 1);
		CHECK(rc == 0 && !bad && strstr(buf, "\n{\"format\": 1,") &&
		      strstr(buf, "\"counter-value\""),
		      "perfex --marker -j -o: a JSON value on every line, the counts' and the regions'",
		      "rc %d, line %.80s: %s", rc, bad ? bad : "-", buf);
	}
	{
		char *const argv[] = { (char *)perfex, "--marker", "--json-perfctr", "--",
				       (char *)self, "--marked", "3", NULL };

		rc = run(argv, tmp, buf, sizeof(buf));
		last = strstr(buf, "\n{\"format\": 1, \"cpu_khz\"");
		CHECK(rc == 0 && last && strstr(last, "{\"region\": \"r\", \"threads\": [") &&
		      strstr(last, "\"total\": {\"calls\": 6,") &&
		      json_value(json_skip_ws(last + 1)),
		      "perfex --marker --json-perfctr: the regions as a JSON object of their own",
		      "rc %d: %s", rc, buf);
	}
	{
		char *const argv[] = { (char *)perfex, "--marker", "--", (char *)self,
				       "--spin", "1", NULL };

		rc = run(argv, tmp, buf, sizeof(buf));
		CHECK(rc == 0 && strstr(buf, "--marker: the command wrote no regions"),
		      "perfex --marker: a command without the marker API is said to have none",
		      "rc %d: %s", rc, buf);
	}
	unlink(tmp);
	unlink(data);
}

/*
 * "--probe": perfctr_sys_info() and vperfctr_open() in a process of
 * their own (the library reads the numbers once a process): "info RC
 * ERRNO open RC ERRNO" and perfctr_strerror(ENOSYS).
 */
static int probe_child(void)
{
	int rc1, e1, rc2, e2;

	rc1 = perfctr_sys_info(&info, NULL, NULL);
	e1 = rc1 ? errno : 0;
	rc2 = perfctr_sys_vopen(0, 0);
	e2 = rc2 < 0 ? errno : 0;
	printf("info %d %d open %d %d\n%s\n", rc1, e1, rc2 < 0 ? -1 : 0, e2,
	       perfctr_strerror(ENOSYS, NULL));
	return 0;
}

/* @path holding @text, or a failure named. */
static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		printf("# %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The system call numbers as the kernel publishes them
 * (/sys/kernel/perfctr), and the library calling those and no others:
 * a published perfctr_info of 4095 (no call) gives ENOSYS from the
 * kernel, vperfctr_open unpublished ENOSYS without a call, and no
 * directory at all on this perfctr kernel ENOSYS said to be the
 * numbers' absence.
 */
static void test_syscall_numbers(const char *self)
{
	static const struct { const char *name; long nr; } calls[] = {
		{ "perfctr_info", PERFCTR_NR_INFO },
		{ "vperfctr_open", PERFCTR_NR_VOPEN },
		{ "vperfctr_control", PERFCTR_NR_VCONTROL },
		{ "vperfctr_unlink", PERFCTR_NR_VUNLINK },
		{ "vperfctr_iresume", PERFCTR_NR_VIRESUME },
		{ "vperfctr_read", PERFCTR_NR_VREAD },
		{ "vperfctr_suspend", PERFCTR_NR_VSUSPEND },
		{ "vperfctr_resume", PERFCTR_NR_VRESUME },
	};
	const char *root = "/tmp/perfctr-sysfs-test", *out = "/tmp/perfctr-sysfs-test.out";
	char path[256], buf[1024], want[64], refused[64];
	char *const argv[] = { (char *)self, "--probe", NULL };
	unsigned int i;
	int ok = 1, rc;
	long nr;

	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		snprintf(path, sizeof(path), "/sys/kernel/perfctr/syscalls/%s", calls[i].name);
		read_file(path, buf, sizeof(buf));
		nr = strtol(buf, NULL, 10);
		if (nr != calls[i].nr) {
			printf("# %s: %s, libperfctr.h has %ld\n", path, buf, calls[i].nr);
			ok = 0;
		}
	}
	read_file("/sys/kernel/perfctr/abi_version", buf, sizeof(buf));
	snprintf(want, sizeof(want), "0x%08x\n", PERFCTR_ABI_VERSION);
	CHECK(ok && !strcmp(buf, want),
	      "/sys/kernel/perfctr: the system call numbers and the ABI version",
	      "abi_version %s, PERFCTR_ABI_VERSION %s", buf, want);

	mkdir(root, 0755);
	snprintf(path, sizeof(path), "%s/syscalls", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/syscalls/perfctr_info", root);
	unlink(path);
	snprintf(buf, sizeof(buf), "%s/syscalls/vperfctr_open", root);
	unlink(buf);
	if (write_text(path, "4095\n"))
		return;
	snprintf(refused, sizeof(refused), "info -1 %d open -1 %d\n", ENOSYS, ENOSYS);
	setenv("PERFCTR_SYSFS_ROOT", root, 1);
	rc = run(argv, out, buf, sizeof(buf));
	CHECK(rc == 0 && !strncmp(buf, refused, strlen(refused)),
	      "the library calls the published numbers (4095: ENOSYS from the kernel), none unpublished",
	      "rc %d: %s", rc, buf);
	setenv("PERFCTR_SYSFS_ROOT", "/tmp/perfctr-sysfs-test-none", 1);
	rc = run(argv, out, buf, sizeof(buf));
	CHECK(rc == 0 && !strncmp(buf, refused, strlen(refused)) &&
	      strstr(buf, "does not publish its system call numbers"),
	      "a perfctr kernel without published numbers is refused, and perfctr_strerror() says why",
	      "rc %d: %s", rc, buf);
	unsetenv("PERFCTR_SYSFS_ROOT");
	unlink(path);
	snprintf(path, sizeof(path), "%s/syscalls", root);
	rmdir(path);
	rmdir(root);
	unlink(out);
}

static void test_errors(const char *perfex, const char *self)
{
	char old[64], old2[64], buf[4096];
	const char *out = "/tmp/errors.out";
	struct perfctr_cpu_control cc = { 0 };
	int rc;

	if (geteuid()) {
		skip("perfex errors", "needs root to change the sysctls");
		return;
	}
	/* kernel.perfctr_access = 0: nobody, root included. */
	if (sysctl_swap("/proc/sys/kernel/perfctr_access", "0", old)) {
		CHECK(0, "perfex: kernel.perfctr_access=0 refuses", "no sysctl: %s",
		      strerror(errno));
	} else {
		char *const argv[] = { (char *)perfex, (char *)self, "--spin", "1", NULL };

		rc = run_as(0, argv, out, buf, sizeof(buf));
		sysctl_swap("/proc/sys/kernel/perfctr_access", old, old2);
		CHECK(rc == 125 && strstr(buf, "perfctr_access"),
		      "perfex: kernel.perfctr_access=0 refuses, naming the sysctl",
		      "rc %d: %.300s", rc, buf);
	}
	/* perf_event_paranoid 3 (Debian's): users are kept out. */
	if (sysctl_swap("/proc/sys/kernel/perf_event_paranoid", "3", old)) {
		skip("perfex: perf_event_paranoid=3", "no perf_event_paranoid");
	} else {
		char *const argv[] = { (char *)perfex, (char *)self, "--spin", "1", NULL };

		rc = run_as(65534, argv, out, buf, sizeof(buf));
		sysctl_swap("/proc/sys/kernel/perf_event_paranoid", old, old2);
		CHECK(rc == 125 && strstr(buf, "perf_event_paranoid"),
		      "perfex: perf_event_paranoid=3 refuses a user, naming the sysctl",
		      "rc %d: %.300s", rc, buf);
	}
	if (!pmc_event(&cc)) {
		skip("perfex: PMCs for root only", "no known event for this CPU model");
		skip("perfex: the PMU held by perf", "no known event for this CPU model");
		return;
	}
	/*
	 * kernel.perfctr_access = 2 (the default): PMCs for CAP_PERFMON only;
	 * at perf_event_paranoid 2 the advice adds the kernel-mode clause
	 * only when the control asked for kernel mode.
	 */
	{
		char *const argv[] = { (char *)perfex, "-e", "instructions", (char *)self,
				       "--spin", "1", NULL };
		char *const kargv[] = { (char *)perfex, "-e", "instructions:k", (char *)self,
					"--spin", "1", NULL };
		char pold[64], pold2[64];
		int have_paranoid;

		sysctl_swap("/proc/sys/kernel/perfctr_access", "2", old);
		have_paranoid = !sysctl_swap("/proc/sys/kernel/perf_event_paranoid", "2", pold);
		rc = run_as(65534, argv, out, buf, sizeof(buf));
		CHECK(rc == 125 && strstr(buf, "perfctr_access") && !strstr(buf, "kernel-mode"),
		      "perfex: a user's PMC event at kernel.perfctr_access=2 refused, naming it; no kernel-mode clause for a user-mode event",
		      "rc %d: %.400s", rc, buf);
		rc = run_as(65534, kargv, out, buf, sizeof(buf));
		if (have_paranoid)
			sysctl_swap("/proc/sys/kernel/perf_event_paranoid", pold, pold2);
		sysctl_swap("/proc/sys/kernel/perfctr_access", old, old2);
		CHECK(rc == 125 && strstr(buf, "perfctr_access") &&
		      (!have_paranoid || strstr(buf, "kernel-mode event")),
		      "perfex: a user's kernel-mode event refused: the advice names perf_event_paranoid",
		      "rc %d: %.400s", rc, buf);
	}
	/* perf holds the PMU: an event of its own, as perf stat's. */
	{
		struct perf_event_attr attr = {
			.type = PERF_TYPE_HARDWARE, .size = sizeof(attr),
			.config = PERF_COUNT_HW_INSTRUCTIONS, .exclude_kernel = 1,
		};
		char *const argv[] = { (char *)perfex, "-e", "instructions", (char *)self,
				       "--spin", "1", NULL };
		char *const iargv[] = { (char *)perfex, "-i", NULL };
		int fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

		if (fd < 0) {
			CHECK(0, "perfex: the PMU held by perf", "perf_event_open: %s",
			      strerror(errno));
			return;
		}
		rc = run_as(0, iargv, out, buf, sizeof(buf));
		CHECK(rc == 0 && strstr(buf, "PMU: busy"),
		      "perfex -i: PMU: busy while perf holds it", "rc %d: %.300s", rc, buf);
		rc = run_as(0, argv, out, buf, sizeof(buf));
		CHECK(rc == 125 && strstr(buf, "busy") && strstr(buf, "perf") &&
		      strstr(buf, "nmi_watchdog"),
		      "perfex -e while perf holds the PMU: refused, naming perf and the fix",
		      "rc %d: %.400s", rc, buf);
		close(fd);
	}
}

/*
 * The examples (examples/self.c, signal.c), as a user runs them: self
 * counts the TSC, and the instructions where this suite knows an event
 * for the model (pmc_event()); signal gets its overflow signals wherever
 * the model has the overflow interrupt and such an event, and may skip
 * (exit 77) only elsewhere.
 */
static void test_examples(const char *dir)
{
	struct perfctr_cpu_control cc = { 0 };
	char path[4096], out[4096];
	int code, counts = pmc_event(&cc);

	snprintf(path, sizeof(path), "%s/self", dir);
	{
		char *const argv[] = { path, NULL };

		code = run(argv, "/tmp/example.out", out, sizeof(out));
		CHECK(code == 0 && strstr(out, "self: tsc ") && !strstr(out, "self: tsc 0 "),
		      "example self runs and counts the TSC", "exit %d: %s", code, out);
		if (counts)
			CHECK(strstr(out, "self: pmc0 ") && !strstr(out, "TSC only"),
			      "example self counts instructions", "%s", out);
	}
	snprintf(path, sizeof(path), "%s/signal", dir);
	{
		char *const argv[] = { path, NULL };

		code = run(argv, "/tmp/example.out", out, sizeof(out));
		if (counts && info.cpu_features & PERFCTR_FEATURE_PCINT)
			CHECK(code == 0 && strstr(out, " overflows\n"),
			      "example signal gets its overflow signals", "exit %d: %s", code, out);
		else if (code == 77)
			skip("example signal", "no overflow interrupt or known event here");
		else
			CHECK(0, "example signal skips where it cannot count", "exit %d: %s",
			      code, out);
	}
}

int main(int argc, char **argv)
{
	const char *perfex = getenv("PERFEX"), *examples = NULL;
	int i, code = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--move-to") && i + 1 < argc && move_to(atoi(argv[++i])))
			return 3;
		if (!strcmp(argv[i], "--spin") && i + 1 < argc) {
			cpu_spin_ms(atof(argv[++i]));
			for (i++; i + 1 < argc; i++)
				if (!strcmp(argv[i], "--exit"))
					code = atoi(argv[i + 1]);
			return code;
		}
		if (!strcmp(argv[i], "--marked") && i + 1 < argc)
			return marked(atoi(argv[i + 1]));
		if (!strcmp(argv[i], "--probe"))
			return probe_child();
		if (!strcmp(argv[i], "--tree") && i + 2 < argc)
			return tree(atoi(argv[i + 1]), atof(argv[i + 2]));
		if (!strcmp(argv[i], "--perfex") && i + 1 < argc)
			perfex = argv[++i];
		if (!strcmp(argv[i], "--examples") && i + 1 < argc)
			examples = argv[++i];
	}
	printf("TAP version 13\n");
	if (perfctr_sys_info(&info, NULL, NULL)) {
		printf("1..0 # SKIP perfctr_info: %s\n", strerror(errno));
		return 0;
	}
	test_info();
	test_strerror();
	test_raw();
	test_api27();
	test_children();
	test_fork_handle();
	test_remote();
	test_siginfo();
	test_syscall_numbers(argv[0]);
	test_perfex(perfex ? perfex : "./perfex", argv[0]);
	test_perfex_marker(perfex ? perfex : "./perfex", argv[0]);
	test_errors(perfex ? perfex : "./perfex", argv[0]);
	if (examples)
		test_examples(examples);
	printf("1..%d\n", nr_test);
	printf("# %d passed, %d failed\n", nr_test - nr_fail, nr_fail);
	return nr_fail ? 1 : 0;
}
