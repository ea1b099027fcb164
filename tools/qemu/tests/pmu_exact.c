// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_exact: the x86 PMU of tools/qemu/patches, counted through mainline
 * perf in the guest.  Loops of known length run at two sizes, N and 2N
 * iterations; the difference of the two user-mode instruction counts must
 * be exactly N times the loop's length, whatever the constant cost of
 * starting and stopping the count:
 *   plain     dec; jnz                            2 per iteration
 *   indirect  dec; jmp *reg; jnz                  3 (every block ends in
 *                                                    an indirect branch)
 *   fault     store to a new page; add; dec; jnz  4 (every store faults
 *                                                    first: the block is
 *                                                    abandoned, refunded)
 *   syscall   mov; syscall (int $0x80); dec; jnz  4 (user mode only)
 * and the same through perf's self-monitoring read (the mmap page and
 * RDPMC) where perf offers it.  Then the overflow's position: perf
 * samples every P instructions (P prime) of a loop whose blocks are 32
 * instructions long, and a SIGIO handler reads the count; with the
 * interrupt right after the instruction that overflowed, every count
 * read is P past the one before, exactly, where a skid to the block's
 * end would vary it.  TAP output; exits 1 on a failure.
 *
 * pmu_exact --no-pmu: succeeds when perf has no hardware PMU here.
 *
 * pmu_exact --icount: under QEMU's -icount shift=0 (one CPU), where the
 * TSC advances one tick per instruction executed, the PMU against
 * QEMU's own instruction count: each loop (faults and indirect branches
 * included) runs between two samples of the TSC and of perf's count of
 * user and kernel instructions, taken a fixed number of instructions
 * apart; the two deltas must be equal.  An interrupt in the loop is in
 * both, except its REP string instructions, which icount counts per
 * iteration and the PMU, as the hardware does, once; a switch to
 * another task is in the TSC's alone (the count stops).  So each try
 * starts just after a tick and is short, the faults are read faults (the
 * zero page: no clear_page(), whose REP STOSB a store fault would add)
 * under a page table made before the count, and of several tries one
 * at least must be exact and none may have the PMU ahead of the clock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define N 20000UL
#define NFAULT 1000UL

static int tests, failures;

static void result(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", ++tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!ok)
		failures++;
}

static void loop_plain(unsigned long n, void *p)
{
	(void)p;
	asm volatile("1: dec %0; jnz 1b" : "+r"(n) : : "cc");
}

static void loop_indirect(unsigned long n, void *p)
{
	void *target;

	(void)p;
	asm volatile(
#ifdef __x86_64__
		     "lea 2f(%%rip), %1\n"
#else
		     "lea 2f, %1\n"
#endif
		     "1: dec %0\n"
		     "jmp *%1\n"
		     "2: jnz 1b"
		     : "+r"(n), "=&r"(target) : : "cc");
}

static void loop_fault(unsigned long n, void *p)
{
	asm volatile("1: movb $1, (%1)\n"
		     "add $4096, %1\n"
		     "dec %0\n"
		     "jnz 1b"
		     : "+r"(n), "+r"(p) : : "cc", "memory");
}

static void loop_syscall(unsigned long n, void *p)
{
	long ret;

	(void)p;
#ifdef __x86_64__
	asm volatile("1: mov %2, %%eax\n"
		     "syscall\n"
		     "dec %0\n"
		     "jnz 1b"
		     : "+r"(n), "=&a"(ret) : "i"(SYS_getppid) : "rcx", "r11", "cc", "memory");
#else
	asm volatile("1: mov %2, %%eax\n"
		     "int $0x80\n"
		     "dec %0\n"
		     "jnz 1b"
		     : "+r"(n), "=&a"(ret) : "i"(SYS_getppid) : "cc", "memory");
#endif
}

struct loop {
	const char *name;
	void (*fn)(unsigned long n, void *p);
	unsigned long per_iter, n;
	int fault;
};

static const struct loop loops[] = {
	{ "plain", loop_plain, 2, N, 0 },
	{ "indirect", loop_indirect, 3, N, 0 },
	{ "fault", loop_fault, 4, NFAULT, 1 },
	{ "syscall", loop_syscall, 4, N, 0 },
};

/* instructions (user mode only if @exclude_kernel), sampled every @period. */
static int perf_open(int exclude_kernel, unsigned long period)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.sample_period = period;
	attr.wakeup_events = !!period;
	attr.disabled = 1;
	attr.exclude_kernel = exclude_kernel;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

/* 32 instructions an iteration, one block: 30 NOPs, dec, jnz. */
static void loop_long(unsigned long n)
{
	asm volatile("1: .rept 30; nop; .endr; dec %0; jnz 1b" : "+r"(n) : : "cc");
}

#define PERIOD		10007UL
#define NSIGNALS	8

static int ovf_fd = -1;
static volatile int ovf_n;
static volatile long long ovf_count[NSIGNALS];

static void on_overflow(int sig)
{
	uint64_t v[3];

	(void)sig;
	if (ovf_n < NSIGNALS && read(ovf_fd, v, sizeof(v)) == sizeof(v))
		ovf_count[ovf_n++] = v[0];
}

/* Each overflow's count, read by the handler: one period apart, exactly. */
static void overflow_position(void)
{
	long long d, bad = 0;
	int i;

	ovf_fd = perf_open(1, PERIOD);
	signal(SIGIO, on_overflow);
	if (ovf_fd < 0 || fcntl(ovf_fd, F_SETOWN, getpid()) ||
	    fcntl(ovf_fd, F_SETSIG, SIGIO) ||
	    fcntl(ovf_fd, F_SETFL, O_ASYNC | O_NONBLOCK)) {
		result(0, "overflow: perf_event_open with a period and SIGIO: %s",
		       strerror(errno));
		return;
	}
	ioctl(ovf_fd, PERF_EVENT_IOC_ENABLE, 0);
	loop_long((NSIGNALS + 2) * PERIOD / 32);
	ioctl(ovf_fd, PERF_EVENT_IOC_DISABLE, 0);
	for (i = 1; i < ovf_n; i++) {
		d = ovf_count[i] - ovf_count[i - 1];
		if (d != (long long)PERIOD && !bad)
			bad = d;
	}
	result(ovf_n == NSIGNALS && !bad,
	       "overflow: %d signals every %lu instructions of 32-instruction blocks, the counts read %lld apart, expected %lu",
	       ovf_n, PERIOD, bad ? bad : ovf_n > 1 ? ovf_count[1] - ovf_count[0] : -1LL,
	       PERIOD);
	close(ovf_fd);
}


static void *pages(const struct loop *l, unsigned long n)
{
	void *p;

	if (!l->fault)
		return NULL;
	p = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	/* Every page its own fault: no transparent huge pages. */
	madvise(p, n * 4096, MADV_NOHUGEPAGE);
	return p;
}

/* User instructions of n iterations through read(); -1 if scaled. */
static long long count_read(int fd, const struct loop *l, unsigned long n)
{
	uint64_t v[3];
	void *p = pages(l, n);

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	l->fn(n, p);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (p)
		munmap(p, n * 4096);
	if (read(fd, v, sizeof(v)) != sizeof(v) || v[1] != v[2])
		return -1;
	return v[0];
}

static uint64_t rdpmc(uint32_t c)
{
	uint32_t lo, hi;

	asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(c));
	return lo | (uint64_t)hi << 32;
}

/*
 * perf's self-monitoring read (Documentation of perf_event_mmap_page),
 * with the TSC read beside it: the two the same number of instructions
 * apart each time.
 */
static __attribute__((noinline)) int sample(volatile struct perf_event_mmap_page *pc,
					    uint64_t *tsc, uint64_t *val)
{
	uint32_t seq, idx, lo, hi;
	uint64_t count;
	int64_t pmc;

	do {
		seq = pc->lock;
		asm volatile("" ::: "memory");
		idx = pc->index;
		count = pc->offset;
		if (!pc->cap_user_rdpmc || !idx)
			return -1;
		asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
		pmc = rdpmc(idx - 1);
		pmc <<= 64 - pc->pmc_width;
		pmc >>= 64 - pc->pmc_width;
		count += pmc;
		asm volatile("" ::: "memory");
	} while (pc->lock != seq);
	*tsc = lo | (uint64_t)hi << 32;
	*val = count;
	return 0;
}

static int mmap_read(volatile struct perf_event_mmap_page *pc, uint64_t *val)
{
	uint64_t tsc;

	return sample(pc, &tsc, val);
}

static long long count_mmap(struct perf_event_mmap_page *pc,
			    const struct loop *l, unsigned long n)
{
	uint64_t a, b;
	void *p = pages(l, n);

	if (mmap_read(pc, &a))
		return -1;
	l->fn(n, p);
	if (mmap_read(pc, &b))
		return -1;
	if (p)
		munmap(p, n * 4096);
	return b - a;
}

#define ICOUNT_TRIES 8

static volatile struct perf_event_mmap_page *pc_icount;

/* A read of a new page each iteration: the zero page mapped, 4 instructions. */
static void loop_read_fault(unsigned long n, void *p)
{
	unsigned int v;

	asm volatile("1: movzbl (%2), %1\n"
		     "add $4096, %2\n"
		     "dec %0\n"
		     "jnz 1b"
		     : "+r"(n), "=&r"(v), "+r"(p) : : "cc", "memory");
}

/* A REP STOSB of 64 bytes each iteration: 5 instructions retired. */
static void loop_rep(unsigned long n, void *p)
{
	static char buf[64];
	unsigned long c;
	void *d;

	(void)p;
	asm volatile("1: lea %4, %2\n"
		     "mov $64, %1\n"
		     "rep stosb\n"
		     "dec %0\n"
		     "jnz 1b"
		     : "+r"(n), "=&c"(c), "=&D"(d), "=m"(buf) : "m"(buf), "a"(0) : "cc");
}

/*
 * QEMU's icount counts a REP string instruction per iteration and once
 * more for the final test of the count (65 for 64 bytes), the PMU once,
 * as the hardware retires it: icount's excess is @rep per iteration,
 * or, for the faults, whatever the kernel's REPs add per fault (KASAN's
 * stack redzones are REP STOS), the same at n and 2n faults (rep < 0).
 */
struct icount_loop {
	struct loop l;
	long long rep;
};

static const struct icount_loop icount_loops[] = {
	{ { "plain", loop_plain, 2, N, 0 }, 0 },
	{ { "indirect", loop_indirect, 3, N, 0 }, 0 },
	{ { "syscall", loop_syscall, 4, 100, 0 }, 0 },
	{ { "rep stosb", loop_rep, 5, 1000, 0 }, 64 },
	{ { "read fault", loop_read_fault, 4, 20, 1 }, -1 },
};

/*
 * @n pages for the read faults, under one page table that exists before
 * them: a fault that also allocated a page table would clear it (REP
 * STOSB, 4096 more for icount) wherever the mapping happened to cross a
 * 2 or 4 MB boundary.  The mapping (to unmap) in *@base, *@len.
 */
static void *table_pages(unsigned long n, void **base, size_t *len)
{
	const uintptr_t span = 4UL << 20;
	char *p, *a;

	*len = (n + 1) * 4096 + span;
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	madvise(p, *len, MADV_NOHUGEPAGE);
	a = (char *)(((uintptr_t)p + span - 1) & ~(span - 1));
	(void)*(volatile char *)a;	/* the page table, before the count */
	*base = p;
	return a + 4096;
}

/*
 * Returns just after a tick (CLOCK_MONOTONIC_COARSE moves with it): a
 * loop started now ends long before the next (4 ms at HZ=250), so that
 * no tick's REP instructions fall in it.
 */
static void after_tick(void)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &a);
	do
		clock_gettime(CLOCK_MONOTONIC_COARSE, &b);
	while (a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec);
}

/*
 * @n iterations of @l, ICOUNT_TRIES times: icount's excess over the PMU
 * in the tries where it is least (no task switch, no tick), or LLONG_MIN
 * if the PMU was ever ahead or a sample failed; *@exact: how many tries
 * had that least excess, *@insns the PMU's count in the first of them.
 */
static long long icount_excess(const struct loop *l, unsigned long n, int *exact,
			       long long *insns)
{
	long long d, least = LLONG_MAX;
	unsigned int t;

	*exact = 0;
	for (t = 0; t < ICOUNT_TRIES; t++) {
		uint64_t t0, c0, t1, c1;
		size_t len = 0;
		void *base = NULL, *p = l->fault ? table_pages(n, &base, &len) : NULL;

		after_tick();
		if (sample(pc_icount, &t0, &c0))
			return LLONG_MIN;
		l->fn(n, p);
		if (sample(pc_icount, &t1, &c1))
			return LLONG_MIN;
		if (base)
			munmap(base, len);
		d = (long long)(t1 - t0) - (long long)(c1 - c0);
		printf("# %s: %lu iterations, try %u: TSC %llu, instructions %llu\n", l->name,
		       n, t, (unsigned long long)(t1 - t0), (unsigned long long)(c1 - c0));
		if (d < 0)
			return LLONG_MIN;
		if (d < least) {
			least = d;
			*exact = 0;
			*insns = c1 - c0;
		}
		*exact += d == least;
	}
	return least;
}

static int icount_tests(void)
{
	unsigned int i;
	int fd = perf_open(0, 0);

	printf("1..%zu\n", sizeof(icount_loops) / sizeof(icount_loops[0]));
	pc_icount = fd < 0 ? MAP_FAILED : mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	if (pc_icount == MAP_FAILED) {
		printf("Bail out! perf's instructions with an mmap page: %s\n", strerror(errno));
		return 1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < sizeof(icount_loops) / sizeof(icount_loops[0]); i++) {
		const struct icount_loop *il = &icount_loops[i];
		const struct loop *l = &il->l;
		long long insns = 0, insns2 = 0, d, d2;
		int exact, exact2;

		d = icount_excess(l, l->n, &exact, &insns);
		if (il->rep >= 0) {
			result(d == il->rep * (long long)l->n &&
			       insns >= (long long)(l->per_iter * l->n),
			       "%s: icount exceeds perf's instructions by %lld in %d of %u tries, expected %lld (%lld a REP)",
			       l->name, d, exact, ICOUNT_TRIES, il->rep * (long long)l->n, il->rep);
			continue;
		}
		d2 = icount_excess(l, 2 * l->n, &exact2, &insns2);
		result(d != LLONG_MIN && d2 == 2 * d && insns2 - insns >= (long long)(l->per_iter * l->n),
		       "%s: icount exceeds perf's instructions by %lld at %lu faults and by %lld at %lu (the kernel's REP iterations: twice as many)",
		       l->name, d, l->n, d2, 2 * l->n);
	}
	return failures != 0;
}

int main(int argc, char **argv)
{
	struct perf_event_mmap_page *pc;
	unsigned int i;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "--icount"))
		return icount_tests();
	fd = perf_open(1, 0);
	if (argc > 1 && !strcmp(argv[1], "--no-pmu")) {
		printf("1..1\n");
		result(fd < 0 && (errno == ENOENT || errno == EOPNOTSUPP),
		       "perf has no hardware instructions event here (%s)",
		       fd < 0 ? strerror(errno) : "it has one");
		return failures != 0;
	}
	printf("1..%zu\n", 2 * sizeof(loops) / sizeof(loops[0]) + 2);
	if (fd < 0) {
		printf("Bail out! perf_event_open(instructions:u): %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < sizeof(loops) / sizeof(loops[0]); i++) {
		const struct loop *l = &loops[i];
		long long c1 = count_read(fd, l, l->n), c2 = count_read(fd, l, 2 * l->n);

		result(c1 >= 0 && c2 >= 0 && c2 - c1 == (long long)(l->per_iter * l->n),
		       "%s: instructions:u at %lu and %lu iterations differ by %lld, expected %lu",
		       l->name, l->n, 2 * l->n, c2 - c1, l->per_iter * l->n);
	}
	/* The kernel's instructions of the syscall loop are counted too. */
	{
		int kfd = perf_open(0, 0);
		const struct loop *l = &loops[3];
		long long c1 = count_read(kfd, l, l->n), c2 = count_read(kfd, l, 2 * l->n);

		result(kfd >= 0 && c2 - c1 > (long long)(2 * l->per_iter * l->n),
		       "syscall: instructions (user and kernel) grow by %lld, more than %lu",
		       c2 - c1, 2 * l->per_iter * l->n);
		if (kfd >= 0)
			close(kfd);
	}
	pc = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < sizeof(loops) / sizeof(loops[0]); i++) {
		const struct loop *l = &loops[i];
		long long c1 = -1, c2 = -1;

		if (pc != MAP_FAILED) {
			c1 = count_mmap(pc, l, l->n);
			c2 = count_mmap(pc, l, 2 * l->n);
		}
		result(c1 >= 0 && c2 >= 0 && c2 - c1 == (long long)(l->per_iter * l->n),
		       "%s: perf's mmap read with RDPMC%s: %lu and %lu iterations differ by %lld, expected %lu",
		       l->name, pc == MAP_FAILED ? " (no mmap page)" : "", l->n, 2 * l->n,
		       c2 - c1, l->per_iter * l->n);
	}
	overflow_position();
	return failures != 0;
}
